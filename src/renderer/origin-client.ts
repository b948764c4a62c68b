import { AppError } from '../errors.js';
import type { PageRoute } from './routes.js';
import type { CommentItem, MonthGroup, PageData, PostDetail } from './types.js';

/** The content origin failed to answer: the text is `<status> <url>`, as the spec asks. */
export class OriginError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('ORIGIN_FAILED', message, 502, cause === undefined ? {} : { cause });
    this.name = 'OriginError';
  }
}

export interface OriginClientOptions {
  apiBase: string;
  fetch: typeof fetch;
  timeoutMs: number;
  /** Posts on the home page. */
  latestPosts: number;
}

async function getJson<T>(options: OriginClientOptions, path: string, notFoundIsEmpty: boolean): Promise<T | undefined> {
  const url = `${options.apiBase}${path}`;
  let response: Response;
  try {
    response = await options.fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    throw new OriginError(`${error instanceof Error && error.name === 'TimeoutError' ? 504 : 502} ${url}`, error);
  }
  if (response.status === 404 && notFoundIsEmpty) {
    await response.arrayBuffer();
    return undefined;
  }
  if (!response.ok) {
    await response.arrayBuffer();
    throw new OriginError(`${response.status} ${url}`);
  }
  try {
    return (await response.json()) as T;
  } catch (error) {
    throw new OriginError(`${response.status} ${url} (body is not JSON)`, error);
  }
}

/** Loads a page's props from the origin; undefined when the page does not exist (an unknown post). */
export async function loadPageData(route: PageRoute, options: OriginClientOptions): Promise<PageData | undefined> {
  switch (route.kind) {
    case 'home': {
      const list = await getJson<{ groups: MonthGroup[] }>(options, '/api/v1/plog/', false);
      const posts = (list?.groups ?? []).flatMap((group) => group.posts);
      return { kind: 'home', title: 'sitestack plog', latest: posts.slice(0, options.latestPosts), total: posts.length };
    }
    case 'archive': {
      const list = await getJson<{ groups: MonthGroup[] }>(options, '/api/v1/plog/', false);
      return { kind: 'archive', title: 'Archive · sitestack plog', groups: list?.groups ?? [] };
    }
    case 'post': {
      const found = await getJson<{ post: PostDetail; comments: { count: number; items: CommentItem[] } }>(
        options,
        `/api/v1/plog/${encodeURIComponent(route.oid)}`,
        true,
      );
      if (found === undefined) return undefined;
      return { kind: 'post', title: `${found.post.title} · sitestack plog`, post: found.post, comments: found.comments };
    }
    case 'search':
      return { kind: 'search', title: 'Search · sitestack plog', locale: route.locale };
  }
}
