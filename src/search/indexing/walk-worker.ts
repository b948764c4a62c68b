import { parentPort, workerData } from 'node:worker_threads';
import { ERRORS } from '../../error-codes.js';
import { isAppError } from '../../errors.js';
import type { WalkCredit, WalkRequest, WalkMessage } from './read-pool.js';
import { walkIndexFiles } from './reader.js';

/**
 * The walking thread: lists the build's `index.json` paths in walk order and posts them in batches, at most `credit`
 * batches ahead of what the pool has taken, so the directory reads (one per document folder) stay off the thread that
 * writes to the engine.
 */
const { root, priorityPrefix, batchSize, credit } = workerData as WalkRequest;
let allowed = credit;
let wake: (() => void) | undefined;
const onCredit = (message: WalkCredit) => {
  allowed += message.more;
  wake?.();
  wake = undefined;
};
parentPort?.on('message', onCredit);
const post = (message: WalkMessage) => parentPort?.postMessage(message);

async function run(): Promise<void> {
  let batch: string[] = [];
  const send = async () => {
    while (allowed <= 0) await new Promise<void>((resolve) => (wake = resolve));
    allowed--;
    post({ paths: batch });
    batch = [];
  };
  for await (const path of walkIndexFiles(root, priorityPrefix)) {
    batch.push(path);
    if (batch.length === batchSize) await send();
  }
  if (batch.length > 0) await send();
  post({ done: true });
}

run()
  .catch((error: unknown) => {
    const failure = isAppError(error) ? error : ERRORS.READ_FAILED('walking', String(error));
    post({ error: { code: failure.code, message: failure.message, status: failure.status } });
  })
  .finally(() => parentPort?.off('message', onCredit));
