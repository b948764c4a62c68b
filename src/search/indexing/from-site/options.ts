import { ERRORS } from '../../../error-codes.js';
import { canonicalLocale } from '../../../locale.js';
import type { Logger } from '../../../log.js';
import { parseSelector, type CompoundSelector } from './selector.js';

/** Options of `content-build --from-site`. */
export interface FromSiteOptions {
  /**
   * The site, e.g. `https://example.com/` or `https://example.com/docs/`: pages are kept only on its origin and under
   * its path (up to the last `/`).
   */
  site: string;
  /** The output folder, owned by the build as the content build owns it. */
  out: string;
  /** Sitemaps to read instead of those robots.txt names (else `/sitemap.xml`). @default none */
  sitemaps?: readonly string[];
  /** Where the main content is: see selector.ts. @default 'main, article' */
  selector?: string;
  /** Locale of a page whose `<html lang>` is absent or not a locale. @default 'en-US' */
  locale?: string;
  /** Requests in flight at once. @default 4 */
  concurrency?: number;
  /** Requests started per second at most (a robots.txt `Crawl-delay` slows this further). @default 10 */
  rate?: number;
  /**
   * The longest `Crawl-delay` obeyed, in ms (a longer one is cut to this, and said in the log); also the longest
   * `Retry-After` of a 429 or 503 waited for before asking once more. @default 10000
   */
  maxCrawlDelayMs?: number;
  /** Per request, for the headers and the whole body. @default 10000 */
  timeoutMs?: number;
  /** A page longer than this is skipped (`too-large`). @default 2097152 */
  maxPageBytes?: number;
  /** A sitemap longer than this, once gunzipped, is skipped. @default 52428800 (the protocol's own limit) */
  maxSitemapBytes?: number;
  /** Sitemaps read at most (indexes included); the rest are skipped with a warning. @default 1000 */
  maxSitemaps?: number;
  /** Pages read at most; the sitemaps' further URLs are left with a warning. @default 50000 */
  maxPages?: number;
  /** Redirect hops followed per request, each within the site. @default 5 */
  maxRedirects?: number;
  /** The `User-Agent` sent; its product token (before `/`) is the one robots.txt rules are read for. */
  userAgent?: string;
  /** Normalised popularity (0–1) by popularity key, as the content build takes it. @default empty */
  popularity?: ReadonlyMap<string, number>;
  fetch?: typeof fetch;
  logger?: Logger;
}

export const FROM_SITE_DEFAULTS = {
  selector: 'main, article',
  locale: 'en-US',
  concurrency: 4,
  rate: 10,
  maxCrawlDelayMs: 10_000,
  timeoutMs: 10_000,
  maxPageBytes: 2 * 1024 * 1024,
  maxSitemapBytes: 50 * 1024 * 1024,
  maxSitemaps: 1000,
  maxPages: 50_000,
  maxRedirects: 5,
  userAgent: 'sitestack/1 (+content-build --from-site; robots.txt token "sitestack")',
  /** A robots.txt is read up to this many bytes (RFC 9309 asks for at least 500 KiB). */
  maxRobotsBytes: 512 * 1024,
} as const;

/** The options with every default filled in and checked. */
export interface ResolvedFromSiteOptions {
  start: URL;
  /** The origin and path prefix every kept URL starts with. */
  scope: string;
  selector: CompoundSelector[];
  locale: string;
  concurrency: number;
  rate: number;
  maxCrawlDelayMs: number;
  timeoutMs: number;
  maxPageBytes: number;
  maxSitemapBytes: number;
  maxSitemaps: number;
  maxPages: number;
  maxRedirects: number;
  userAgent: string;
}

const invalid = ERRORS.SITE_BUILD_OPTIONS_INVALID;
const MAX_SITE_URL_LENGTH = 2048;

function positive(name: string, value: number | undefined, fallback: number, { integer = true } = {}): number {
  const chosen = value ?? fallback;
  if (!(chosen > 0) || !Number.isFinite(chosen) || (integer && !Number.isInteger(chosen))) {
    throw invalid(name, integer ? 'to be a positive integer' : 'to be a positive number', String(value));
  }
  return chosen;
}

/** The site URL as the build reads it: an http(s) URL without credentials; its fragment and query dropped. */
export function siteUrl(site: string): URL {
  if (site.length > MAX_SITE_URL_LENGTH) throw invalid('the site', `to be a URL of at most ${MAX_SITE_URL_LENGTH} characters`, `${site.slice(0, 60)}…`);
  let url: URL;
  try {
    url = new URL(site);
  } catch {
    throw invalid('the site', 'to be an http(s) URL', site);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('the site', 'to be an http(s) URL', site);
  if (url.username !== '' || url.password !== '') throw invalid('the site', 'to be a URL without credentials', { value: site, flaw: 'holds a user name or password' });
  url.hash = '';
  url.search = '';
  return url;
}

export function resolveOptions(options: FromSiteOptions): ResolvedFromSiteOptions {
  const start = siteUrl(options.site);
  const selectorText = options.selector ?? FROM_SITE_DEFAULTS.selector;
  const parsed = parseSelector(selectorText);
  if (!parsed.ok) throw invalid('the selector', 'to be a list of simple selectors', { value: selectorText, flaw: parsed.problem });
  const localeText = options.locale ?? FROM_SITE_DEFAULTS.locale;
  const locale = canonicalLocale(localeText);
  if (locale === undefined) throw invalid('the locale', 'to be a locale such as en-US', localeText);
  const userAgent = options.userAgent ?? FROM_SITE_DEFAULTS.userAgent;
  // eslint-disable-next-line no-control-regex -- a header value may not hold control characters
  if (userAgent.trim() === '' || /[\u0000-\u001f\u007f-\uffff]/.test(userAgent)) throw invalid('the user agent', 'to be printable ASCII', userAgent);
  return {
    start,
    scope: `${start.origin}${start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1)}`,
    selector: parsed.alternatives,
    locale,
    concurrency: positive('concurrency', options.concurrency, FROM_SITE_DEFAULTS.concurrency),
    rate: positive('rate', options.rate, FROM_SITE_DEFAULTS.rate, { integer: false }),
    maxCrawlDelayMs: positive('maxCrawlDelayMs', options.maxCrawlDelayMs, FROM_SITE_DEFAULTS.maxCrawlDelayMs),
    timeoutMs: positive('timeoutMs', options.timeoutMs, FROM_SITE_DEFAULTS.timeoutMs),
    maxPageBytes: positive('maxPageBytes', options.maxPageBytes, FROM_SITE_DEFAULTS.maxPageBytes),
    maxSitemapBytes: positive('maxSitemapBytes', options.maxSitemapBytes, FROM_SITE_DEFAULTS.maxSitemapBytes),
    maxSitemaps: positive('maxSitemaps', options.maxSitemaps, FROM_SITE_DEFAULTS.maxSitemaps),
    maxPages: positive('maxPages', options.maxPages, FROM_SITE_DEFAULTS.maxPages),
    maxRedirects: options.maxRedirects === 0 ? 0 : positive('maxRedirects', options.maxRedirects, FROM_SITE_DEFAULTS.maxRedirects),
    userAgent,
  };
}
