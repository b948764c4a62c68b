import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticBuild } from '../corpus/synthetic.js';
import { benchScript, settleDisk, type BenchResult, type BenchSuite } from '../lib.js';


interface ChildResult {
  documents: number;
  elapsedMs: number;
  documentsPerSecond: number;
  peakRssMb?: number;
  failures?: number;
  /** CPU time of the whole process (every thread) per document, in µs. */
  cpuMicrosPerDocument?: number;
  /** CPU time of the main thread (the engine writer) per document, in µs; NaN where /proc is missing. */
  mainThreadCpuMicrosPerDocument?: number;
  /** Reading the HTML of a page's body with htmlparser2 alone and with the scan, and stripping it whole, in µs. */
  parserMicros?: number;
  scanMicros?: number;
  stripMicros?: number;
}

/** One measurement in a child process, after the writes of the steps before it reached the disk. */
async function measure(mode: string, root: string, database: string, extra: string[] = []): Promise<ChildResult> {
  settleDisk();
  const process_ = spawn(process.execPath, [...benchScript('workers/search-index-child.ts'), mode, root, database, ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let output = '';
  process_.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => process_.once('exit', resolve));
  if (code !== 0) throw new Error(`search-index ${mode} child exited with ${code}`);
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

/**
 * The index build on a synthetic content build (default 50,000 documents; SEARCH_BENCH_DOCUMENTS overrides it):
 * end-to-end full run (read, strip, index, optimize, swap) against the raw engine insert rate measured in the same run.
 */
export const searchIndexSuite: BenchSuite = {
  name: 'search-index',
  description: 'full index run of a synthetic content build vs the raw engine insert rate',
  async run(): Promise<BenchResult[]> {
    const documents = Number(process.env.SEARCH_BENCH_DOCUMENTS ?? 50_000);
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-search-'));
    try {
      const root = join(dir, 'build');
      const started = performance.now();
      const build = await writeSyntheticBuild(root, { documents });
      console.error(`  synthetic build: ${build.documents} documents, ${(build.bytes / 1e6).toFixed(0)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const ceiling = await measure('ceiling', root, join(dir, 'ceiling.sqlite'), [String(Math.min(documents, 20_000))]);
      // Deleted before the next step: the kernel drops its pages instead of writing them back while that step runs.
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `ceiling.sqlite${suffix}`), { force: true });
      const read = await measure('read', root, join(dir, 'unused.sqlite'));
      const strip = await measure('strip', root, join(dir, 'unused.sqlite'));
      const full = await measure('full', root, join(dir, 'full.sqlite'));
      if (full.documents !== build.documents) throw new Error(`full run indexed ${full.documents} of ${build.documents} documents`);
      // The database after the run's optimize and the alias swap: documents, FTS5 terms and stems, spelling tables.
      const indexBytes = ['full.sqlite', 'full.sqlite-wal'].reduce((sum, name) => sum + (existsSync(join(dir, name)) ? statSync(join(dir, name)).size : 0), 0);
      const micros = (value: number | undefined) => `${Math.round(value ?? Number.NaN)} µs CPU/doc`;
      const microseconds = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(1)} µs`;
      return [
        {
          name: 'engine insert (ceiling)',
          value: ceiling.documentsPerSecond,
          unit: 'docs/s',
          note: `${ceiling.documents} pre-read documents, bulk + optimize; ${micros(ceiling.cpuMicrosPerDocument)}`,
        },
        {
          name: 'read + strip',
          value: read.documentsPerSecond,
          unit: 'docs/s',
          baseline: 'engine insert (ceiling)',
          note: `walking and reading threads as in the full run, no engine; ${micros(read.cpuMicrosPerDocument)}`,
        },
        {
          name: 'full run end-to-end',
          value: full.documentsPerSecond,
          unit: 'docs/s',
          baseline: 'engine insert (ceiling)',
          target: { min: 2_500 },
          note: `${full.documents} documents in ${(full.elapsedMs / 1000).toFixed(1)} s (spec reference: 234/s; the target is issue 34's, with words segmented in every script)`,
        },
        {
          name: 'body HTML read, htmlparser2',
          value: 1_000_000 / (strip.parserMicros ?? Number.NaN),
          unit: 'pages/s',
          note: `${strip.documents} pages of the build in process, their text before whitespace is collapsed; ${microseconds(strip.parserMicros)} a page`,
        },
        {
          name: 'body HTML read, scan',
          value: 1_000_000 / (strip.scanMicros ?? Number.NaN),
          unit: 'pages/s',
          baseline: 'body HTML read, htmlparser2',
          target: { minRatio: 1.5 },
          note: `html-scan.ts, htmlparser2 where it stops; ${microseconds(strip.scanMicros)} a page, ${microseconds(strip.stripMicros)} for the whole stripHtml`,
        },
        { name: 'full run peak RSS', value: full.peakRssMb ?? Number.NaN, unit: 'MB', target: { max: 500 }, note: 'child process maxRSS' },
        { name: 'index size', value: indexBytes / 1e6, unit: 'MB', note: `the database file after the full run, ${Math.round(indexBytes / full.documents)} bytes per document` },
        {
          name: 'full run CPU, main thread',
          value: full.mainThreadCpuMicrosPerDocument ?? Number.NaN,
          unit: 'µs/doc',
          note: 'engine writes, optimize, spelling index (one thread: 10,000 docs/s needs ≤ 100)',
        },
        {
          name: 'full run CPU, all threads',
          value: full.cpuMicrosPerDocument ?? Number.NaN,
          unit: 'µs/doc',
          note: `${availableParallelism()} cores: 10,000 docs/s needs ≤ ${Math.round(availableParallelism() * 100)}`,
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
