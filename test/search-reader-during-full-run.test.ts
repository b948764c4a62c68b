import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { after, describe, it } from 'node:test';
import { SqliteEngine } from '../src/search/engines/sqlite/engine.js';
import { runIndexer } from '../src/search/indexing/indexer.js';
import { writePages } from '../src/search/test-support/build-files.js';

interface ReaderReport {
  searches: number;
  errors: string[];
  totals: Record<string, number>;
}

/**
 * A reader on its own thread and connection, searching the alias in a loop until told to stop, counting each total
 * it saw. Runs the engine's TypeScript through tsx, which a worker thread does not inherit.
 */
function startReader(path: string, stop: Int32Array): Worker {
  const engineUrl = new URL('../src/search/engines/sqlite/engine.ts', import.meta.url).href;
  const source = `
    const { workerData, parentPort } = require('node:worker_threads');
    import('tsx/esm/api').then(async (tsx) => {
      tsx.register();
      const { SqliteEngine } = await import(workerData.engineUrl);
      const engine = new SqliteEngine({ path: workerData.path });
      const report = { searches: 0, errors: [], totals: {} };
      parentPort.postMessage({ started: true });
      while (Atomics.load(workerData.stop, 0) === 0) {
        try {
          const result = await engine.search({ index: 'docs', text: 'quokka', size: 1 });
          if (result.documents.length !== 1) throw new Error('a search found nothing');
          // search() counts up to 1000 (relation gte); count() is exact.
          const total = await engine.count({ index: 'docs', text: 'quokka' });
          report.totals[total] = (report.totals[total] ?? 0) + 1;
          report.searches++;
          if (total === 3000) parentPort.postMessage({ sawNew: true });
        } catch (error) {
          report.errors.push(String(error));
          if (report.errors.length > 20) break;
        }
      }
      await engine.close();
      parentPort.postMessage({ report });
    });
  `;
  return new Worker(source, { eval: true, workerData: { engineUrl, path, stop } });
}

describe('a reader during a full run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-swap-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sees the old index until the swap and the new one after, never an empty or mixed result', async () => {
    const path = join(dir, 'search.sqlite');
    const engine = new SqliteEngine({ path });
    const oldRoot = join(dir, 'old');
    writePages(oldRoot, Array.from({ length: 200 }, (_, i) => ({ folder: `en-us/old/${i}`, title: `Old ${i}`, body: 'quokka habitat' })));
    await runIndexer({ engine, root: oldRoot, prefix: 'docs', workers: 0 });
    const newRoot = join(dir, 'new');
    writePages(newRoot, Array.from({ length: 3000 }, (_, i) => ({ folder: `en-us/new/${i}`, title: `New ${i}`, body: `quokka ${'island scrub '.repeat(20)}` })));

    const stop = new Int32Array(new SharedArrayBuffer(4));
    const reader = startReader(path, stop);
    let sawNew: () => void = () => undefined;
    const newSeen = new Promise<void>((resolve) => {
      sawNew = resolve;
    });
    const finished = new Promise<ReaderReport>((resolve, reject) => {
      reader.on('message', (message: { started?: true; sawNew?: true; report?: ReaderReport }) => {
        if (message.sawNew === true) sawNew();
        if (message.report !== undefined) resolve(message.report);
      });
      reader.on('error', reject);
    });
    await new Promise<void>((resolve) => reader.once('message', () => resolve()));

    const report = await runIndexer({ engine, root: newRoot, prefix: 'docs', workers: 0, chunkSize: 100 });
    assert.equal(report.aliasLive, true);
    await newSeen;
    Atomics.store(stop, 0, 1);
    const seen = await finished;
    await reader.terminate();
    await engine.close();

    assert.deepEqual(seen.errors, []);
    assert.deepEqual(Object.keys(seen.totals).sort(), ['200', '3000'], `totals seen: ${JSON.stringify(seen.totals)}`);
    assert.ok((seen.totals['200'] ?? 0) > 10, `the reader kept searching during the build: ${JSON.stringify(seen.totals)}`);
  });
});
