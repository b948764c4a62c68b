import robotsParserModule from 'robots-parser';
import type { SiteFetcher } from './fetcher.js';

// The package is CommonJS whose module.exports is the function, while its types declare it an ES default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** What the site's robots.txt allows the build. */
export interface SiteRobots {
  allows(url: URL): boolean;
  /** `Crawl-delay` for our token (or `*`), in ms. */
  crawlDelayMs: number | undefined;
  /** Its `Sitemap:` lines, as written. */
  sitemaps: string[];
  /** How the file was read, for the log: `read`, `none (404)`, `unavailable (…): nothing allowed`. */
  status: string;
}

const ALLOW_ALL = (status: string): SiteRobots => ({ allows: () => true, crawlDelayMs: undefined, sitemaps: [], status });

/** The product token of a User-Agent, which robots.txt groups name: `sitestack/1 (…)` → `sitestack`. */
export function robotsToken(userAgent: string): string {
  return userAgent.split(/[/\s]/)[0] ?? userAgent;
}

/**
 * Reads `/robots.txt` by RFC 9309: a 4xx (or a redirect away from the site) means no rules; a 5xx, a timeout or an
 * unreachable host means nothing may be fetched; anything read is parsed leniently (lines it cannot read are ignored),
 * its first 512 KiB at most. Text that is not UTF-8 is read with replacement characters: only ASCII rules matter.
 */
export async function readRobots(fetcher: SiteFetcher, origin: string, maxBytes: number, userAgent: string): Promise<SiteRobots> {
  const url = new URL('/robots.txt', origin);
  const answer = await fetcher.get(url, { maxBytes, accept: 'text/plain, */*;q=0.5', truncate: true });
  if (answer.kind === 'failed') {
    const serverSide = answer.reason === 'timeout' || answer.reason === 'unreachable' || (answer.status !== undefined && answer.status >= 500);
    if (serverSide) return { allows: () => false, crawlDelayMs: undefined, sitemaps: [], status: `unavailable (${answer.reason} ${answer.detail}): nothing allowed` };
    return ALLOW_ALL(`none (${answer.reason})`);
  }
  if (answer.kind === 'not-modified') return ALLOW_ALL('none');
  const robots = robotsParser(url.href, new TextDecoder('utf-8').decode(answer.body));
  const token = robotsToken(userAgent);
  const delay = robots.getCrawlDelay(token);
  return {
    allows: (page) => robots.isAllowed(page.href, token) !== false,
    crawlDelayMs: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay * 1000 : undefined,
    sitemaps: robots.getSitemaps(),
    status: answer.truncated ? `read (first ${maxBytes} bytes)` : 'read',
  };
}
