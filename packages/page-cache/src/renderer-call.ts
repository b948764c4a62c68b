import type { ServerResponse } from 'node:http';
import { sendText } from './http-answers.js';
import type { Logger } from './log.js';

/** Connect-style `next`: the renderer (or the next middleware). */
export type NextFunction = (error?: unknown) => unknown;

/** Answers a failure: logged, then a 500 when nothing has been sent yet, else the response cut short. */
export function answerFailure(res: ServerResponse, logger: Logger, error: unknown, what = 'the renderer failed'): void {
  logger.error({ err: error }, `page cache: ${what}`);
  if (!res.headersSent) sendText(res, 500, 'Internal Server Error');
  else if (!res.writableEnded) res.destroy();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Calls the renderer; what it throws, or the promise it returns rejects with, is answered by {@link answerFailure}. */
export function callRenderer(res: ServerResponse, next: NextFunction, logger: Logger): void {
  try {
    const result = next();
    if (isThenable(result)) result.then(undefined, (error: unknown) => answerFailure(res, logger, error));
  } catch (error) {
    answerFailure(res, logger, error);
  }
}
