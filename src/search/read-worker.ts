import { parentPort } from 'node:worker_threads';
import { readIndexFileSync } from './reader.js';
import type { ReadBatch } from './read-pool.js';

/** A reading thread: reads, parses and strips the files of each batch it is sent and answers with their results. */
parentPort?.on('message', (batch: ReadBatch) => {
  try {
    const results = batch.paths.map((path) => readIndexFileSync(batch.root, path, batch.maxFileBytes));
    parentPort?.postMessage({ sequence: batch.sequence, results });
  } catch (error) {
    parentPort?.postMessage({ sequence: batch.sequence, error: error instanceof Error ? error.message : String(error) });
  }
});
