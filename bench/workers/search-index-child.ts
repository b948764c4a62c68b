// One measurement of the search-index bench in its own process, so its peak memory is its own.
// Usage: search-index-child.ts <ceiling|read|full|strip> <build root> <database file> [documents]
import { readFileSync } from 'node:fs';
import { SqliteEngine } from '../../src/search/engines/sqlite/engine.js';
import type { IndexedDocument } from '../../src/search/engines/types.js';
import { runIndexer } from '../../src/search/indexing/indexer.js';
import { readBuild } from '../../src/search/indexing/read-pool.js';
import { walkIndexFiles } from '../../src/search/indexing/reader.js';
import { htmlTextByParser, htmlTextByScan, stripHtml } from '../../src/search/indexing/strip-html.js';

const [mode, root, database, limitText] = process.argv.slice(2);
if (root === undefined || database === undefined) throw new Error('usage: search-index-child.ts <ceiling|read|full|strip> <root> <database> [documents]');
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;
/** CPU milliseconds of this process, all threads. */
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
/** CPU milliseconds of the main thread alone, from /proc (Linux); NaN elsewhere. */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

if (mode === 'ceiling') {
  // The engine alone: documents already read and stripped, in memory, bulk-inserted in the indexer's chunks.
  const limit = Number(limitText ?? 20_000);
  const documents: IndexedDocument[] = [];
  for await (const result of readBuild(root)) {
    if ('document' in result) documents.push(result.document);
    if (documents.length === limit) break;
  }
  const engine = new SqliteEngine({ path: database });
  await engine.createIndex('ceiling');
  const started = performance.now();
  const cpuBefore = cpuMs();
  for (let i = 0; i < documents.length; i += 1000) await engine.bulk('ceiling', documents.slice(i, i + 1000));
  await engine.forceMerge('ceiling');
  const elapsedMs = performance.now() - started;
  const cpuMicrosPerDocument = ((cpuMs() - cpuBefore) * 1000) / documents.length;
  await engine.close();
  console.log(JSON.stringify({ documents: documents.length, elapsedMs, documentsPerSecond: (documents.length * 1000) / elapsedMs, cpuMicrosPerDocument }));
} else if (mode === 'read') {
  const started = performance.now();
  const cpuBefore = cpuMs();
  let documents = 0;
  for await (const result of readBuild(root)) if ('document' in result) documents++;
  const elapsedMs = performance.now() - started;
  const cpuMicrosPerDocument = ((cpuMs() - cpuBefore) * 1000) / documents;
  console.log(JSON.stringify({ documents, elapsedMs, documentsPerSecond: (documents * 1000) / elapsedMs, peakRssMb: peakRssMb(), cpuMicrosPerDocument }));
} else if (mode === 'full') {
  const engine = new SqliteEngine({ path: database });
  const cpuBefore = cpuMs();
  const mainBefore = mainThreadCpuMs();
  const report = await runIndexer({ engine, root, prefix: 'bench', ...(process.env.SEARCH_BENCH_WORKERS === undefined ? {} : { workers: Number(process.env.SEARCH_BENCH_WORKERS) }) });
  const cpuMicrosPerDocument = ((cpuMs() - cpuBefore) * 1000) / report.documents;
  const mainThreadCpuMicrosPerDocument = ((mainThreadCpuMs() - mainBefore) * 1000) / report.documents;
  await engine.close();
  console.log(
    JSON.stringify({
      documents: report.documents,
      failures: report.failureCount,
      badFiles: report.badFileCount,
      elapsedMs: report.elapsedMs,
      documentsPerSecond: report.documentsPerSecond,
      peakRssMb: peakRssMb(),
      cpuMicrosPerDocument,
      mainThreadCpuMicrosPerDocument,
    }),
  );
} else if (mode === 'strip') {
  // The HTML of the bodies of the first documents, read by htmlparser2 alone and by the scan with its fallback.
  const limit = Number(limitText ?? 5_000);
  const pages: string[][] = [];
  for await (const path of walkIndexFiles(root)) {
    const body = (JSON.parse(readFileSync(`${root}/${path}`, 'utf8')) as { doc: { body: { type: string; value: { title?: string; content?: string } }[] } }).doc.body;
    pages.push(body.filter((block) => block.type === 'prose').flatMap((block) => [block.value.title ?? '', block.value.content ?? '']));
    if (pages.length === limit) break;
  }
  /** Microseconds per page, the best of five rounds. */
  const timed = (read: (html: string) => unknown) =>
    Math.min(
      ...Array.from({ length: 5 }, () => {
        const started = performance.now();
        for (const fragments of pages) for (const html of fragments) read(html);
        return ((performance.now() - started) * 1000) / pages.length;
      }),
    );
  // The two readings of the HTML (the rule written twice), then the whole of stripping, which adds what they share.
  const parserMicros = timed(htmlTextByParser);
  const scanMicros = timed((html) => htmlTextByScan(html) ?? htmlTextByParser(html));
  const stripMicros = timed(stripHtml);
  console.log(JSON.stringify({ documents: pages.length, parserMicros, scanMicros, stripMicros }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
