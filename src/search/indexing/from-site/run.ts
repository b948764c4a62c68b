import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ERRORS } from '../../../error-codes.js';
import { BUILD_MARKER, replaceOutput } from '../content-build.js';
import { discoverPages } from './discover.js';
import { Pacer, SiteFetcher } from './fetcher.js';
import { FROM_SITE_DEFAULTS, resolveOptions, type FromSiteOptions } from './options.js';
import { readPage } from './page.js';
import { readRobots } from './robots.js';
import { readState, STATE_FILE, validatorsOf, type RememberedPage, type SiteState } from './state.js';

/** What a from-site build did. */
export interface FromSiteReport {
  out: string;
  /** The scope read: the site's origin and path. */
  site: string;
  /** Documents in the new build: fetched + unchanged. */
  pages: number;
  /** Pages fetched and read anew. */
  fetched: number;
  /** Pages the site answered 304 for, taken from the previous build. */
  unchanged: number;
  /** Pages skipped, by reason (`robots`, `not-html`, `too-large`, `http-404`, `timeout`, …). */
  skipped: Record<string, number>;
  /** The first few skipped pages, with their reasons. */
  examples: { url: string; reason: string; detail: string }[];
  /** URLs the sitemaps named off the site. */
  offSite: number;
  sitemaps: number;
  /** Sitemaps or entries that could not be read (the first of them in `sitemapProblems`). */
  sitemapProblemCount: number;
  sitemapProblems: string[];
  /** How robots.txt was read. */
  robots: string;
}

const MAX_EXAMPLES = 20;

/** The report's skipped pages as one phrase: `7 skipped (robots 3, not-html 2, http-404 2)`. */
export function skippedPhrase(skipped: Readonly<Record<string, number>>): string {
  const entries = Object.entries(skipped).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  return total === 0 ? '0 skipped' : `${total} skipped (${entries.map(([reason, count]) => `${reason} ${count}`).join(', ')})`;
}

/**
 * `content-build --from-site`: reads the site's sitemaps, fetches each page politely (robots.txt, bounded concurrency
 * and rate, conditional requests against the previous build) and writes the content build's `index.json` per page,
 * swapped in whole as the content build does. A page that fails is skipped with its reason; the run fails
 * (SITE_NOTHING_READ, the previous build kept) only when no page could be read.
 */
export async function runFromSite(options: FromSiteOptions): Promise<FromSiteReport> {
  const resolved = resolveOptions(options);
  const { start, scope } = resolved;
  const logger = options.logger;
  const out = resolve(options.out);
  const popularity = options.popularity ?? new Map<string, number>();
  const previous = await readState(out, scope);
  if (previous.problem !== undefined) logger?.warn({ problem: previous.problem }, 'the previous build\'s memory of the site is unreadable; every page is fetched');
  const pacer = new Pacer(1000 / resolved.rate);
  const fetcher = new SiteFetcher({
    fetch: options.fetch ?? fetch,
    userAgent: resolved.userAgent,
    timeoutMs: resolved.timeoutMs,
    maxRedirects: resolved.maxRedirects,
    maxRetryAfterMs: resolved.maxCrawlDelayMs,
    pacer,
    onSite: (url) => url.origin === start.origin,
  });
  const robots = await readRobots(fetcher, start.origin, FROM_SITE_DEFAULTS.maxRobotsBytes, resolved.userAgent);
  if (robots.crawlDelayMs !== undefined) {
    const delay = Math.min(robots.crawlDelayMs, resolved.maxCrawlDelayMs);
    if (delay < robots.crawlDelayMs) logger?.warn({ crawlDelayMs: robots.crawlDelayMs, obeyedMs: delay }, 'robots.txt asks for a longer Crawl-delay than maxCrawlDelayMs; the shorter is kept');
    pacer.intervalMs = Math.max(pacer.intervalMs, delay);
  }
  const discovery = await discoverPages(fetcher, robots, resolved, options.sitemaps, logger);
  for (const problem of discovery.problems) logger?.warn({ problem }, 'sitemap problem');
  if (discovery.truncated) logger?.warn({ maxPages: resolved.maxPages }, 'the sitemaps list more pages than maxPages; the first are read');
  if (discovery.pages.length === 0) {
    logger?.warn({ site: start.href }, 'no sitemap lists a page of the site: the start page alone is read');
    discovery.pages.push(start);
  }

  const report: FromSiteReport = {
    out, site: scope, pages: 0, fetched: 0, unchanged: 0, skipped: {}, examples: [], offSite: discovery.offSite,
    sitemaps: discovery.sitemaps, sitemapProblemCount: discovery.problemCount, sitemapProblems: discovery.problems, robots: robots.status,
  };
  const skip = (url: URL, reason: string, detail: string) => {
    report.skipped[reason] = (report.skipped[reason] ?? 0) + 1;
    if (report.examples.length < MAX_EXAMPLES) report.examples.push({ url: url.href, reason, detail });
    logger?.warn({ url: url.href.slice(0, 500), reason, detail }, 'page skipped');
  };
  const next: SiteState = { version: 1, scope, pages: {} };
  const claimed = new Set<string>();
  const staging = `${out}.staging-${randomBytes(4).toString('hex')}`;
  await mkdir(staging, { recursive: true });
  try {
    await writeFile(join(staging, BUILD_MARKER), 'written by sitestack content-build --from-site; replaced by each build\n');
    const write = async (path: string, bytes: string | Buffer) => {
      await mkdir(dirname(join(staging, path)), { recursive: true });
      await writeFile(join(staging, path), bytes);
    };
    const readOne = async (url: URL) => {
      if (!robots.allows(url)) return skip(url, 'robots', 'disallowed by robots.txt');
      const remembered: RememberedPage | undefined = previous.state.pages[url.href];
      const previousBytes = remembered === undefined ? undefined : await readFile(join(out, remembered.path)).catch(() => undefined);
      const validators = remembered !== undefined && previousBytes !== undefined && (remembered.etag ?? remembered.lastModified) !== undefined ? remembered : undefined;
      const answer = await fetcher.get(url, { maxBytes: resolved.maxPageBytes, accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1', ...(validators === undefined ? {} : { validators }) });
      if (answer.kind === 'failed') return skip(url, answer.reason, answer.detail);
      if (answer.kind === 'not-modified') {
        const kept = remembered as RememberedPage;
        if (claimed.has(kept.url)) return skip(url, 'duplicate', `the same page as ${kept.url}`);
        claimed.add(kept.url);
        await write(kept.path, previousBytes as Buffer);
        next.pages[url.href] = kept;
        report.unchanged++;
        return;
      }
      const outcome = readPage(answer, resolved, popularity);
      if (outcome.kind === 'skipped') return skip(url, outcome.reason, outcome.detail);
      if (claimed.has(outcome.url)) return skip(url, 'duplicate', `the same page as ${outcome.url}`);
      claimed.add(outcome.url);
      await write(outcome.path, JSON.stringify(outcome.json));
      next.pages[url.href] = { path: outcome.path, url: outcome.url, ...validatorsOf(answer.headers) };
      report.fetched++;
    };
    const queue = discovery.pages.values();
    const worker = async () => {
      for (const url of queue) {
        try {
          await readOne(url);
        } catch (error) {
          // One page's surprise (a disk error included) is that page's; a run where every page fails ends below.
          skip(url, 'error', (error as Error).message);
        }
      }
    };
    await Promise.all(Array.from({ length: resolved.concurrency }, worker));
    report.pages = report.fetched + report.unchanged;
    if (report.pages === 0) throw ERRORS.SITE_NOTHING_READ(scope, `${skippedPhrase(report.skipped)}; robots.txt ${robots.status}; ${discovery.sitemaps} sitemaps read`);
    await writeFile(join(staging, STATE_FILE), JSON.stringify(next));
    await replaceOutput(staging, out);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return report;
}
