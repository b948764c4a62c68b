// The front (`startFrontProcess`, as `sitestack front --workers N` runs it) in argv[3] worker processes against the
// origin given as argv[2]; prints `listening <url>`.
import { serveFrontFleet } from './front-fleet.js';

const [apiBase, workers = '1'] = process.argv.slice(2);
if (apiBase === undefined) throw new Error('usage: front-workers.ts <origin url> <workers>');
await serveFrontFleet(Number(workers), (dataDir) => ({ DATA_DIR: dataDir, API_BASE: apiBase }));
