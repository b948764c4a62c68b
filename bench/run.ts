import { cpus } from 'node:os';
import { judge, renderTable, type BenchSuite } from './lib.js';
import { suites } from './suites/index.js';

const wanted = process.argv.slice(2);
const selected: BenchSuite[] = wanted.length === 0 ? suites : suites.filter((suite) => wanted.includes(suite.name));
if (selected.length === 0) {
  console.error(`no such suite: ${wanted.join(', ')}; suites: ${suites.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}

console.log(`sitestack bench — node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown cpu'})\n`);
let missed = 0;
for (const suite of selected) {
  console.error(`running ${suite.name}: ${suite.description}`);
  const results = await suite.run();
  missed += results.filter((result) => judge(result, results).pass === false).length;
  console.log(`${renderTable(suite.name, results)}\n`);
}
console.log(missed === 0 ? 'every target reached' : `${missed} target(s) missed`);
process.exitCode = missed === 0 ? 0 : 1;
