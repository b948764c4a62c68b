import { ERRORS } from '../error-codes.js';

/**
 * Reads an upstream's answer body up to `maxBytes`. A declared `Content-Length` above the bound fails before a byte is
 * read; a longer body (chunked, or lying about its length) is cancelled at the first chunk past the bound, so no more
 * than `maxBytes` plus one chunk is ever held. Fails with UPSTREAM_ANSWER_TOO_LARGE (502); `what` (a URL, an
 * upstream's name) starts the message. A slow body is the caller's to bound, with the signal it
 * gave fetch (which aborts the body too).
 */
export async function readBoundedBody(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await discardBody(response);
    throw ERRORS.UPSTREAM_ANSWER_TOO_LARGE(what, maxBytes, declared);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (reader === undefined) return Buffer.alloc(0);
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw ERRORS.UPSTREAM_ANSWER_TOO_LARGE(what, maxBytes);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The body as UTF-8 text, read as readBoundedBody does; bytes that are not UTF-8 fail with UPSTREAM_ANSWER_NOT_UTF8
 * (502) rather than turning into U+FFFD, so an upstream's bad bytes never reach a page or a store.
 */
export async function readBoundedText(response: Response, maxBytes: number, what: string): Promise<string> {
  const bytes = await readBoundedBody(response, maxBytes, what);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw ERRORS.UPSTREAM_ANSWER_NOT_UTF8.with({ cause: error }, what);
  }
}

/** Lets go of a body that is not needed, without reading it: the connection is closed rather than drained. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/**
 * Largest answer read from a front's purge route (by the origin's outbox and `sitestack purge`): its `{ purged }` list
 * of cache keys, room for 10,000 keys of 1.6 KB. A longer answer fails the delivery, which is retried.
 */
export const PURGE_ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads a body to its end without keeping it, for requests whose success means the whole answer came through (the
 * edge's refreshes): memory stays at one chunk whatever the size, and the caller's signal bounds the time.
 */
export async function drainBody(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (reader === undefined) return;
  for (let next = await reader.read(); !next.done; next = await reader.read());
}
