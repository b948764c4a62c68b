import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ERRORS } from '../../error-codes.js';
import { AppError } from '../../errors.js';
import { startThread, threadModule } from '../threads.js';
import { READ_DEFAULTS, readIndexFile, walkIndexFiles, type ReadOptions, type ReadResult } from './reader.js';

/** Options of reading a build with several threads. */
export interface ReadPoolOptions extends ReadOptions {
  /**
   * Reading threads that parse, strip and analyse files while the caller writes to the engine; 0 reads on the calling
   * thread. Reading and analysing a document costs more CPU than writing it, so there is a reading thread per core:
   * with one fewer, the writer's core sits partly idle while the readers fall behind.
   * @default availableParallelism(), at least 1 and at most 4
   */
  workers?: number;
  /** Files per task of a reading thread. @default 64 */
  batchSize?: number;
  /**
   * Files sent to threads and not yet consumed. It must cover a whole bulk call, or the threads sit idle while the
   * caller's synchronous engine write blocks the event loop that feeds them.
   * @default 2048
   */
  maxInFlight?: number;
  /**
   * How much lower the reading threads' scheduling priority is than the caller's (steps of niceness, Linux). The
   * thread that writes to the engine is the one stage the others wait for: when it is ready to run it gets its core,
   * and the readers, which always hold work queued ahead, take what is left. 0 leaves them level.
   * @default 10
   */
  readerNiceness?: number;
}

export const READ_POOL_DEFAULTS = {
  workers: Math.max(1, Math.min(4, availableParallelism())),
  batchSize: 64,
  maxInFlight: 2048,
  readerNiceness: 10,
} as const;

/** What each reading thread is started with (Piscina's workerData). */
export interface ReadThreadData {
  niceness: number;
}

/** A reading thread's task. */
export interface ReadBatch {
  root: string;
  paths: string[];
  maxFileBytes: number;
}

/** What the pool sends the walking thread at its start (as workerData), and later. */
export interface WalkRequest {
  root: string;
  priorityPrefix: string | undefined;
  batchSize: number;
  /** Batches the thread may post before it waits for more credit. */
  credit: number;
}
export interface WalkCredit {
  more: number;
}
/** What the walking thread posts: a batch of paths in walk order, the end of the walk, or why it stopped. */
export type WalkMessage = { paths: string[] } | { done: true } | { error: { code: string; message: string; status: number } };

/** Files read at once on the calling thread (their I/O overlaps; parsing does not). */
const INLINE_CONCURRENCY = 16;

async function* batchesOf(paths: AsyncIterable<string>, size: number): AsyncGenerator<string[]> {
  let batch: string[] = [];
  for await (const path of paths) {
    batch.push(path);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function* readInline(root: string, options: ReadPoolOptions): AsyncGenerator<ReadResult> {
  for await (const paths of batchesOf(walkIndexFiles(root, options.priorityPrefix), INLINE_CONCURRENCY)) {
    yield* await Promise.all(paths.map((path) => readIndexFile(root, path, options.maxFileBytes)));
  }
}

/** Batches of walked paths, from a walking thread that is at most WALK_CREDIT batches ahead of the caller. */
async function* walkInThread(root: string, priorityPrefix: string | undefined, batchSize: number): AsyncGenerator<string[]> {
  const request: WalkRequest = { root, priorityPrefix, batchSize, credit: WALK_CREDIT };
  const thread = startThread(threadModule(import.meta.url, 'walk-worker'), request);
  const queue: WalkMessage[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  thread.on('message', (message: WalkMessage) => {
    queue.push(message);
    notify();
  });
  thread.on('error', (error) => {
    failure = error;
    notify();
  });
  try {
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        if (failure !== undefined) throw ERRORS.READ_FAILED.with({ cause: failure }, 'walking', failure.message);
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if ('done' in message) return;
      // The walking thread's AppError, rebuilt on this side of the thread boundary with its own code.
      if ('error' in message) throw new AppError(message.error.code, message.error.message, message.error.status);
      thread.postMessage({ more: 1 } satisfies WalkCredit);
      yield message.paths;
    }
  } finally {
    await thread.terminate();
  }
}

/** Batches of paths the walking thread may list ahead of the reading threads. */
const WALK_CREDIT = 64;

/**
 * Every `index.json` under `root`, parsed and stripped, in walk order (files under `priorityPrefix` first), with
 * bounded memory: at most `maxInFlight` files are read ahead. Stopping the iteration early stops the threads.
 */
export async function* readBuild(root: string, options: ReadPoolOptions = {}): AsyncGenerator<ReadResult> {
  const workers = options.workers ?? READ_POOL_DEFAULTS.workers;
  if (workers <= 0) {
    yield* readInline(root, options);
    return;
  }
  const maxFileBytes = options.maxFileBytes ?? READ_DEFAULTS.maxFileBytes;
  const batchSize = options.batchSize ?? READ_POOL_DEFAULTS.batchSize;
  const maxBatches = Math.max(workers * 2, Math.ceil((options.maxInFlight ?? READ_POOL_DEFAULTS.maxInFlight) / batchSize));
  // Enough tasks per thread for maxInFlight files, so that the threads hold queued work while the caller's synchronous
  // engine write keeps the pool from dispatching more; with work queued in its port, a thread gains nothing from
  // waiting on Atomics between tasks.
  const pool = new Piscina<ReadBatch, ReadResult[]>({
    filename: fileURLToPath(threadModule(import.meta.url, 'read-worker')),
    minThreads: workers,
    maxThreads: workers,
    concurrentTasksPerWorker: Math.ceil(maxBatches / workers),
    atomics: 'disabled',
    workerData: { niceness: options.readerNiceness ?? READ_POOL_DEFAULTS.readerNiceness } satisfies ReadThreadData,
  });
  const batches = walkInThread(root, options.priorityPrefix, batchSize);
  // Answers in walk order; a failure is kept as a value until its turn, so that no rejection goes unhandled.
  const pending: Promise<{ results: ReadResult[] } | { error: unknown }>[] = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && pending.length < maxBatches) {
        const batch = await batches.next();
        if (batch.done === true) {
          exhausted = true;
          break;
        }
        pending.push(pool.run({ root, paths: batch.value, maxFileBytes }).then((results) => ({ results }), (error: unknown) => ({ error })));
      }
      const answer = await pending.shift();
      if (answer === undefined) return;
      if ('error' in answer) {
        const message = answer.error instanceof Error ? answer.error.message : String(answer.error);
        throw ERRORS.READ_FAILED.with({ cause: answer.error }, 'reading', message);
      }
      yield* answer.results;
    }
  } finally {
    await Promise.all([batches.return(undefined), pool.destroy()]);
  }
}
