import { IMAGE_PREFIX } from '../origin/images/names.js';
import { originForm } from '@sitestack/page-cache';
import { CRAWLER_PATHS } from './feeds.js';
import { DATA_PREFIX, matchPage, pagePathOf, STATIC_PREFIX, type PageRoute } from './routes.js';

/**
 * The one URL of each resource the renderer serves, and the part of it a cache keys on. Pure: the front redirects every
 * other spelling to `target` before its page cache, and the renderer does the same when it is used alone.
 */
export interface CanonicalUrl {
  /** Path and query in origin form: what a 301 sends every other spelling to, and the only URL that is ever rendered. */
  readonly target: string;
  /**
   * The part of `target` a cache keys on: `target` itself, except for the search page shell, whose query is read by
   * the browser only (the shell is the same bytes for every query), so every query shares one entry.
   */
  readonly cacheTarget: string;
}

/** Escapes RFC 3986 calls unreserved: a URL means the same with them decoded, so decoded is their one spelling. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * `%XX` escapes (any case), and every character a path may not hold raw (RFC 3986 `pchar` and `/` are the ones it
 * may). A `%` that starts no escape is left alone: such a path names nothing (the renderer answers 404, nginx 400), and
 * WHATWG URL parsing leaves it too. Code points, so that a character beyond U+FFFF is one match.
 */
const PATH_ESCAPES = /%([0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;

/**
 * Characters a query may not hold raw: controls, space, non-ASCII, and those WHATWG URL parsing escapes in a query
 * (`"`, `'`, `<`, `>`), so that fetch (the purge client's) sends a canonical URL exactly as it is written.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const QUERY_ESCAPES = /[\u0000-\u0020"'<>\u007f-\u{10ffff}]/gu;

/**
 * `%XX` of a character that must be escaped. node:http hands request targets over as latin1, one character per byte,
 * so a character below U+0100 is the byte it stands for; a larger one (a target made in code) is escaped as UTF-8.
 */
function escapeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const bytes = code < 0x100 ? [code] : [...Buffer.from(character, 'utf8')];
  return bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * The canonical spelling of a path (which starts with `/`): escapes of unreserved characters decoded and every other
 * escape in upper-case hex; characters a path may not hold raw escaped; then, by segment, empty
 * segments (duplicate and trailing slashes) and `.` dropped and `..` removing the segment before it (never above the
 * root). Escapes come first, as nginx and WHATWG URL parsing read `%2E` as a dot too, and slashes merge before dot
 * segments resolve (`/a//../b` is `/b`), as nginx's `merge_slashes` does. The result never starts with `//`, so it is
 * always a path of this host.
 */
export function canonicalPath(path: string): string {
  const escaped = path.replace(PATH_ESCAPES, (match: string, hex: string | undefined) => {
    if (hex === undefined) return escapeCharacter(match);
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : `%${hex.toUpperCase()}`;
  });
  const segments: string[] = [];
  for (const segment of escaped.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** The feed, sitemap, robots.txt and icon: no query changes them. */
const CRAWLER_FILES: ReadonlySet<string> = new Set(Object.values(CRAWLER_PATHS));

/**
 * A path that {@link canonicalPath} leaves as it is: segments of characters a path may hold raw, none empty, `.` or
 * `..`, and no escape. Most requests are such paths, and this one test answers them.
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$/;

/** What a canonical path is, as far as its query is concerned. */
type QueryRule = 'none' | 'kept' | 'shell';

function queryRule(path: string, route: PageRoute | undefined): QueryRule {
  if (route !== undefined) return route.kind === 'search' ? 'shell' : 'none';
  if (path.startsWith(DATA_PREFIX) || path.startsWith(STATIC_PREFIX) || path.startsWith(IMAGE_PREFIX) || CRAWLER_FILES.has(path)) return 'none';
  return 'kept';
}

/**
 * The canonical URL of a request target (`req.url`), or undefined when it has no origin form (`*`, an absolute form
 * that does not parse). Rules, in order:
 *
 * - an absolute-form target is reduced to its path and query; a raw `#` and all after it are dropped (a fragment is
 *   never part of a request);
 * - the path is {@link canonicalPath}; a page's is then the one its links use ({@link pagePathOf}: a category's name
 *   in one escaping and Unicode form);
 * - the query: pages other than the search page, data routes, static files, images, the feed, sitemap, robots.txt
 *   and icon take none, so any query is dropped; the search page shell keeps its query as sent (the browser reads it)
 *   and caches key it without; a path that is none of these (answered 404, never stored) keeps it too. A bare `?` is
 *   dropped everywhere, and a kept query has controls, spaces, non-ASCII and `"'<>` escaped.
 */
export function canonicalUrl(url: string, locales: readonly string[]): CanonicalUrl | undefined {
  const origin = originForm(url);
  if (origin === undefined) return undefined;
  const fragment = origin.indexOf('#');
  const target = fragment === -1 ? origin : origin.slice(0, fragment);
  const queryAt = target.indexOf('?');
  const sent = queryAt === -1 ? target : target.slice(0, queryAt);
  let path = PLAIN_PATH.test(sent) ? sent : canonicalPath(sent);
  const route = matchPage(path, locales);
  if (route !== undefined) path = pagePathOf(route);
  const query = queryAt === -1 ? '' : target.slice(queryAt + 1).replace(QUERY_ESCAPES, escapeCharacter);
  const rule = queryRule(path, route);
  const canonical = rule === 'none' || query === '' ? path : `${path}?${query}`;
  return { target: canonical, cacheTarget: rule === 'shell' ? path : canonical };
}

/** Request targets whose canonical URL {@link canonicalUrlMemo} remembers: a site's hot pages, not every URL asked for. */
export const CANONICAL_MEMO_ENTRIES = 1024;

/** Targets longer than this are never remembered, so that the memo's size stays bounded in bytes too. */
const CANONICAL_MEMO_MAX_CHARS = 256;

/**
 * {@link canonicalUrl} for fixed locales, remembering the answers for up to `CANONICAL_MEMO_ENTRIES` targets (the
 * oldest forgotten first): the front asks it of each request twice (its redirect check, then its page cache's key) and
 * the renderer a third time on a miss, and cache hits keep asking it of the same few URLs.
 */
export function canonicalUrlMemo(locales: readonly string[]): (url: string) => CanonicalUrl | undefined {
  const memo = new Map<string, CanonicalUrl | undefined>();
  return (url) => {
    const known = memo.get(url);
    if (known !== undefined || memo.has(url)) return known;
    const answer = canonicalUrl(url, locales);
    if (url.length <= CANONICAL_MEMO_MAX_CHARS) {
      if (memo.size >= CANONICAL_MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
      memo.set(url, answer);
    }
    return answer;
  };
}
