import { existsSync } from 'node:fs';
import { SqliteEngine } from '/work/wt/search2/src/search/engines/sqlite.js';
import { buildSyntheticIndex } from '/work/wt/search2/bench/suites/search-query.js';
const file = process.argv[2]!;
const n = Number(process.argv[3] ?? 50000);
if (!existsSync(file)) {
  const engine = new SqliteEngine({ path: file });
  const t = performance.now();
  const samples = await buildSyntheticIndex(engine, n, Math.floor(n / 1000));
  console.log('built', (performance.now() - t) / 1000, samples.length);
  await engine.close();
}
