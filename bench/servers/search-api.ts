// The real front (`startFrontProcess`, as `sitestack front --workers N` runs it) serving `/api/v1/search` over an
// existing search database: `search-api.ts <search.sqlite> <alias> <workers>`; prints `listening <url>`. The search
// rate limit is raised so the load generator's one address is not turned away.
import { serveFrontFleet } from './front-fleet.js';

const [file, alias, workers = '1'] = process.argv.slice(2);
if (file === undefined || alias === undefined) throw new Error('usage: search-api.ts <search.sqlite> <alias> <workers>');
await serveFrontFleet(Number(workers), (dataDir) => ({
  DATA_DIR: dataDir,
  // Nothing renders pages in this bench: the origin is never called.
  API_BASE: 'http://127.0.0.1:9',
  SEARCH_URL: `sqlite:${file}`,
  SEARCH_PREFIX: alias,
  SEARCH_RATE_LIMIT: '1000000000/minute',
}));
