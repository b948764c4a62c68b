import type { z } from 'zod';
import { AppError, isAppError } from '../errors.js';
import { ERRORS } from '../error-codes.js';
import { discardBody, readBoundedText } from '../http/index.js';
import { describeProblem, listAnswerSchema, postAnswerSchema, type PostAnswer } from './origin-schema.js';
import type { PostListing } from './types.js';

/**
 * The content origin failed to answer: the text is `<status> <url>`, as the spec asks, or, for an answer that does not
 * match its schema, `malformed answer from <url>: <field>: <problem>`. It is the catalogue's ORIGIN_REFUSED or
 * ORIGIN_MALFORMED error it is made of, under a name of its own.
 */
export class OriginError extends AppError {
  constructor(failure: AppError) {
    super(failure.code, failure.message, failure.status, failure);
    this.name = 'OriginError';
  }
}

export interface OriginClientOptions {
  apiBase: string;
  fetch: typeof fetch;
  /** For the headers and the whole body of each answer. */
  timeoutMs: number;
  /** Largest answer read; a longer one (or a longer Content-Length) fails as a 502 at the first byte past it. */
  maxAnswerBytes: number;
  /** Posts on the home page. */
  latestPosts: number;
  /** Ends every page title. */
  siteName: string;
}

/** Where the origin says a renamed post went: its 301 names the post's new API address. */
export interface Moved {
  movedTo: string;
}

const POST_API_PATH = /^\/api\/v1\/plog\/([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/** The answer at `path`, validated against `schema`; undefined for a 404 when `notFoundIsEmpty`. */
export async function getAnswer<T>(options: OriginClientOptions, path: string, schema: z.ZodType<T>, notFoundIsEmpty: boolean): Promise<T | undefined> {
  return (await fetchAnswer(options, path, schema, { notFoundIsEmpty, movedIsAnswer: false })) as T | undefined;
}

/**
 * A post's answer; where it went when the origin answers its old slug with a 301 (a renamed post); undefined when
 * there is no such post. The redirect is not followed: the reader's page must move too, not show the post at its old
 * address.
 */
export async function getPostAnswer(options: OriginClientOptions, oid: string): Promise<PostAnswer | Moved | undefined> {
  return fetchAnswer(options, `/api/v1/plog/${encodeURIComponent(oid)}`, postAnswerSchema, { notFoundIsEmpty: true, movedIsAnswer: true });
}

async function fetchAnswer<T>(
  options: OriginClientOptions,
  path: string,
  schema: z.ZodType<T>,
  accept: { notFoundIsEmpty: boolean; movedIsAnswer: boolean },
): Promise<T | Moved | undefined> {
  const url = `${options.apiBase}${path}`;
  // One signal for the headers and the whole body: an origin trickling its answer ends at the timeout all the same.
  const signal = AbortSignal.timeout(options.timeoutMs);
  const timedOut = (error: unknown) => (error instanceof Error && error.name === 'TimeoutError') || signal.aborted;
  let response: Response;
  try {
    response = await options.fetch(url, { headers: { accept: 'application/json' }, signal, redirect: accept.movedIsAnswer ? 'manual' : 'follow' });
  } catch (error) {
    throw new OriginError(ERRORS.ORIGIN_REFUSED.with({ cause: error }, timedOut(error) ? 504 : 502, url));
  }
  if (response.status === 404 && accept.notFoundIsEmpty) {
    await discardBody(response);
    return undefined;
  }
  if (response.status === 301 && accept.movedIsAnswer) {
    await discardBody(response);
    const location = response.headers.get('location') ?? '';
    const oid = POST_API_PATH.exec(location)?.[1];
    if (oid === undefined || oid.length > 100) throw new OriginError(ERRORS.ORIGIN_MALFORMED(url, `location: expected /api/v1/plog/<oid>, got ${JSON.stringify(location.slice(0, 120))}`));
    return { movedTo: oid };
  }
  if (!response.ok) {
    await discardBody(response);
    throw new OriginError(ERRORS.ORIGIN_REFUSED(response.status, url));
  }
  let text: string;
  try {
    text = await readBoundedText(response, options.maxAnswerBytes, url);
  } catch (error) {
    if (isAppError(error)) throw new OriginError(ERRORS.ORIGIN_REFUSED.with({ cause: error }, 502, error.message));
    throw new OriginError(ERRORS.ORIGIN_REFUSED.with({ cause: error }, timedOut(error) ? 504 : 502, url, 'the answer broke off'));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new OriginError(ERRORS.ORIGIN_REFUSED.with({ cause: error }, response.status, url, 'body is not JSON'));
  }
  // reportInput names the wrong value's kind in the message; the ZodError itself is not kept as the cause, since it
  // would carry that value, of any size, into the log.
  const parsed = schema.safeParse(body, { reportInput: true });
  if (!parsed.success) throw new OriginError(ERRORS.ORIGIN_MALFORMED(url, describeProblem(parsed.error)));
  return parsed.data;
}

/** Every published post, newest first, as the origin lists them. */
export async function loadPostList(options: OriginClientOptions): Promise<PostListing[]> {
  const list = await getAnswer(options, '/api/v1/plog/', listAnswerSchema, false);
  return (list?.groups ?? []).flatMap((group) => group.posts);
}

/** The `count` latest posts with their bodies, for the feed; a post deleted or renamed between the two requests is left out. */
export async function loadLatestPosts(options: OriginClientOptions, count: number): Promise<PostAnswer['post'][]> {
  const posts = (await loadPostList(options)).slice(0, count);
  const found = await Promise.all(posts.map((post) => getPostAnswer(options, post.oid)));
  return found.flatMap((answer) => (answer === undefined || 'movedTo' in answer ? [] : [answer.post]));
}
