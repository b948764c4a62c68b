import { readIndexFileSync, type ReadResult } from './reader.js';
import type { ReadBatch } from './read-pool.js';

/** A reading thread's task: reads, parses and strips the files of one batch. */
export default function readBatch(batch: ReadBatch): ReadResult[] {
  return batch.paths.map((path) => readIndexFileSync(batch.root, path, batch.maxFileBytes));
}
