import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.js';
import { READ_DEFAULTS, readIndexFile, walkIndexFiles, type ReadOptions, type ReadResult } from './reader.js';

/** Options of reading a build with several threads. */
export interface ReadPoolOptions extends ReadOptions {
  /**
   * Reading threads that parse and strip files while the caller writes to the engine; 0 reads on the calling thread.
   * A document costs the engine writer more CPU than reading and stripping it, so the writer gets a core of its own:
   * one more reading thread would only take turns with it on the same cores.
   * @default availableParallelism() - 1, at least 1 and at most 4
   */
  workers?: number;
  /** Files per message to a thread. @default 64 */
  batchSize?: number;
  /**
   * Files sent to threads and not yet consumed. It must cover a whole bulk call, or the threads sit idle while the
   * caller's synchronous engine write blocks the event loop that feeds them.
   * @default 2048
   */
  maxInFlight?: number;
}

export const READ_POOL_DEFAULTS = {
  workers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  batchSize: 64,
  maxInFlight: 2048,
} as const;

/** What the pool sends a reading thread. */
export interface ReadBatch {
  sequence: number;
  root: string;
  paths: string[];
  maxFileBytes: number;
}

type BatchAnswer = { sequence: number; results: ReadResult[] } | { sequence: number; error: string };

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

function startWorker(name: 'read-worker' | 'walk-worker', workerData?: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, import.meta.url), { workerData });
  // Under tsx (tests, bench) this module is TypeScript, and a worker thread does not inherit tsx's loader.
  const script = new URL(`./${name}.ts`, import.meta.url).href;
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); });`, { eval: true, workerData });
}

/** Batches of walked paths, from a walking thread that is at most WALK_CREDIT batches ahead of the caller. */
async function* walkInThread(root: string, priorityPrefix: string | undefined, batchSize: number): AsyncGenerator<string[]> {
  const request: WalkRequest = { root, priorityPrefix, batchSize, credit: WALK_CREDIT };
  const thread = startWorker('walk-worker', request);
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
        if (failure !== undefined) throw new AppError('READ_FAILED', `the walking thread failed: ${failure.message}`, 500, { cause: failure });
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if ('done' in message) return;
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
  const threads = Array.from({ length: workers }, () => startWorker('read-worker'));
  const answers = new Map<number, BatchAnswer>();
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  for (const thread of threads) {
    thread.on('message', (answer: BatchAnswer) => {
      answers.set(answer.sequence, answer);
      notify();
    });
    thread.on('error', (error) => {
      failure = error;
      notify();
    });
  }
  const batches = walkInThread(root, options.priorityPrefix, batchSize);
  let sent = 0;
  let next = 0;
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && sent - next < maxBatches) {
        const batch = await batches.next();
        if (batch.done === true) {
          exhausted = true;
          break;
        }
        const message: ReadBatch = { sequence: sent, root, paths: batch.value, maxFileBytes };
        threads[sent % workers]?.postMessage(message);
        sent++;
      }
      if (exhausted && next === sent) return;
      while (!answers.has(next)) {
        if (failure !== undefined) throw new AppError('READ_FAILED', `a reading thread failed: ${failure.message}`, 500, { cause: failure });
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const answer = answers.get(next) as BatchAnswer;
      answers.delete(next);
      next++;
      if ('error' in answer) throw new AppError('READ_FAILED', `reading a batch failed: ${answer.error}`, 500);
      yield* answer.results;
    }
  } finally {
    await Promise.all([batches.return(undefined), ...threads.map((thread) => thread.terminate())]);
  }
}
