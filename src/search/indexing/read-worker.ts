import { Piscina } from 'piscina';
import { analyzeDocument } from '../analysis/index.js';
import { readIndexFileSync, type ReadResult } from './reader.js';
import type { ReadBatch, ReadThreadData } from './read-pool.js';
import { lowerThreadPriority } from '../threads.js';

lowerThreadPriority((Piscina.workerData as ReadThreadData).niceness);

/**
 * A reading thread's task: reads, parses and strips the files of one batch, and analyses each document (see
 * analysis/document.ts), which the engine's writer would otherwise do on its one thread.
 */
export default function readBatch(batch: ReadBatch): ReadResult[] {
  return batch.paths.map((path) => {
    const result = readIndexFileSync(batch.root, path, batch.maxFileBytes);
    return 'document' in result ? { path, document: { ...result.document, analysis: analyzeDocument(result.document) } } : result;
  });
}
