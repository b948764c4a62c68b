import type { Logger } from '../../../log.js';
import type { SiteFetcher } from './fetcher.js';
import type { ResolvedFromSiteOptions } from './options.js';
import type { SiteRobots } from './robots.js';
import { parseSitemap, sitemapBytes } from './sitemap.js';

/** The pages the sitemaps list, and what reading them met. */
export interface Discovery {
  pages: URL[];
  /** Sitemaps read (indexes included). */
  sitemaps: number;
  /** A sentence per sitemap or entry that could not be read or was left out: the first MAX_PROBLEMS of them. */
  problems: string[];
  /** Problems met in all, listed or not. */
  problemCount: number;
  /** Page and sitemap URLs the sitemaps named off the site (another origin, or outside the site's path). */
  offSite: number;
  /** More pages were listed than `maxPages`. */
  truncated: boolean;
}

/** Sitemap indexes nest at most this deep (the protocol allows none; some sites nest one level). */
const MAX_SITEMAP_DEPTH = 3;
/** The protocol's own limit of URLs in one sitemap. */
const MAX_URLS_PER_SITEMAP = 50_000;
/** Problems kept to tell: a sitemap of 50,000 broken entries is told by its count. */
const MAX_PROBLEMS = 50;

/**
 * A URL as the build compares URLs: absolute, without fragment; undefined when the text is not an http(s) URL (resolved
 * against `base` when one is given: sitemaps must name absolute URLs, a page's canonical link need not).
 */
export function pageUrl(text: string, base?: URL | string): URL | undefined {
  try {
    const url = new URL(text, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

/**
 * Reads the sitemaps (those given, else those robots.txt names, else `/sitemap.xml`), following sitemap indexes
 * breadth first, each sitemap once (loops end there), within the bounds of the options: bytes per sitemap once
 * gunzipped, sitemaps read, pages listed. Every URL kept is in the site's scope; the others are counted and warned of.
 */
export async function discoverPages(
  fetcher: SiteFetcher,
  robots: SiteRobots,
  options: ResolvedFromSiteOptions,
  given: readonly string[] | undefined,
  logger?: Logger,
): Promise<Discovery> {
  const { start, scope, maxPages, maxSitemaps, maxSitemapBytes } = options;
  const discovery: Discovery = { pages: [], sitemaps: 0, problems: [], problemCount: 0, offSite: 0, truncated: false };
  const problem = (sentence: string) => {
    if (discovery.problemCount++ < MAX_PROBLEMS) discovery.problems.push(sentence);
  };
  const invited = new Set(robots.sitemaps);
  const seeds = given !== undefined && given.length > 0 ? given : robots.sitemaps.length > 0 ? robots.sitemaps : ['/sitemap.xml'];
  const queue: { url: URL; depth: number }[] = [];
  const queued = new Set<string>();
  const listed = new Set<string>();
  const offSite = (url: URL, what: string) => {
    if (discovery.offSite++ === 0) logger?.warn({ url: url.href.slice(0, 300), scope }, `a sitemap names a ${what} off the site; skipped (the first one is shown)`);
  };
  const enqueue = (text: string, base: URL | string | undefined, depth: number) => {
    const url = pageUrl(text, base);
    if (url === undefined) problem(`'${text.slice(0, 200)}' is not an http(s) URL`);
    else if (url.origin !== start.origin) offSite(url, 'sitemap');
    else if (!queued.has(url.href)) {
      queued.add(url.href);
      queue.push({ url, depth });
    }
  };
  for (const seed of seeds) enqueue(seed, start, 0);
  while (queue.length > 0) {
    const { url, depth } = queue.shift() as { url: URL; depth: number };
    if (discovery.sitemaps >= maxSitemaps) {
      problem(`${queue.length + 1} sitemaps left unread: more than ${maxSitemaps}`);
      break;
    }
    if (!invited.has(url.href) && !robots.allows(url)) {
      problem(`${url.href}: disallowed by robots.txt`);
      continue;
    }
    discovery.sitemaps++;
    const answer = await fetcher.get(url, { maxBytes: maxSitemapBytes, accept: 'application/xml, text/xml, text/plain;q=0.5, */*;q=0.1' });
    if (answer.kind !== 'ok') {
      problem(`${url.href}: ${answer.kind === 'failed' ? `${answer.reason} ${answer.detail}` : 'not modified'}`);
      continue;
    }
    const bytes = sitemapBytes(answer.body, maxSitemapBytes);
    if (bytes === undefined) {
      problem(`${url.href}: gzip that is broken or inflates past ${maxSitemapBytes} bytes`);
      continue;
    }
    const room = Math.min(MAX_URLS_PER_SITEMAP, maxPages - discovery.pages.length + maxSitemaps);
    const entries = parseSitemap(new TextDecoder('utf-8').decode(bytes), Math.max(1, room));
    if (entries.truncated) problem(`${url.href}: more than ${room} URLs; the rest were not read`);
    for (const location of entries.sitemaps) {
      if (depth + 1 > MAX_SITEMAP_DEPTH) problem(`${location.slice(0, 200)}: sitemap indexes nested deeper than ${MAX_SITEMAP_DEPTH}`);
      else enqueue(location, undefined, depth + 1);
    }
    for (const location of entries.pages) {
      const page = pageUrl(location);
      if (page === undefined) problem(`'${location.slice(0, 200)}' is not an http(s) URL`);
      else if (!page.href.startsWith(scope)) offSite(page, 'page');
      else if (listed.has(page.href)) continue;
      else if (discovery.pages.length >= maxPages) discovery.truncated = true;
      else {
        listed.add(page.href);
        discovery.pages.push(page);
      }
    }
  }
  return discovery;
}
