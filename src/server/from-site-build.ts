import { resolve } from 'node:path';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import { loadPopularity, runFromSite, skippedPhrase, type FromSiteReport } from '../search/index.js';
import { nonNegativeInteger } from './cli-args.js';

/** The options `sitestack content-build` takes for `--from-site` (parseArgs's shape). */
export const FROM_SITE_ARGS = {
  'from-site': { type: 'string' },
  sitemap: { type: 'string', multiple: true },
  selector: { type: 'string' },
  locale: { type: 'string' },
  concurrency: { type: 'string' },
  rate: { type: 'string' },
} as const;

export const FROM_SITE_USAGE = '[--from-site <url> [--sitemap <url>]... [--selector <css>] [--locale <code>] [--concurrency <n>] [--rate <per second>]]';

interface FromSiteValues {
  'from-site'?: string;
  sitemap?: string[];
  selector?: string;
  locale?: string;
  concurrency?: string;
  rate?: string;
}

function positiveNumber(option: string, value: string, usage: string): number {
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(value) || Number(value) === 0) throw ERRORS.USAGE(`${option} expects a positive number, got '${value}'`, usage);
  return Number(value);
}

function positiveInteger(option: string, value: string, usage: string): number {
  const count = nonNegativeInteger(option, value, usage);
  if (count === 0) throw ERRORS.USAGE(`${option} expects a positive integer, got '${value}'`, usage);
  return count;
}

/** Refuses the options of --from-site given without it: they would be ignored without a word otherwise. */
export function refuseFromSiteOptionsAlone(values: FromSiteValues, usage: string): void {
  const alone = Object.keys(FROM_SITE_ARGS).find((name) => name !== 'from-site' && values[name as keyof FromSiteValues] !== undefined);
  if (values['from-site'] === undefined && alone !== undefined) throw ERRORS.USAGE(`--${alone} goes with --from-site`, usage);
}

/** The summary line of a from-site build. */
export function fromSiteSummary(report: FromSiteReport, seconds: number): string {
  const rate = seconds > 0 ? (report.pages / seconds).toFixed(1) : '0';
  const offSite = report.offSite === 0 ? '' : `, ${report.offSite} URLs off the site left out`;
  const sitemapProblems = report.sitemapProblemCount === 0 ? '' : `, ${report.sitemapProblemCount} sitemap problems`;
  return `content build from ${report.site}: ${report.pages} pages written to ${report.out} (${report.fetched} fetched, ${report.unchanged} unchanged), ` +
    `${skippedPhrase(report.skipped)}${offSite}${sitemapProblems}; ${report.sitemaps} sitemaps, robots.txt ${report.robots}; ${seconds.toFixed(1)} s, ${rate} pages/s\n`;
}

/** `sitestack content-build --from-site <url>`: the site's pages into the build, then the summary and a few skipped pages. */
export async function fromSiteBuild(
  values: FromSiteValues & { out?: string },
  context: { dataDir: string; logger: Logger; out: NodeJS.WritableStream },
  usage: string,
): Promise<number> {
  const site = values['from-site'] ?? '';
  if (site.trim() === '') throw ERRORS.USAGE('--from-site needs the URL of a site', usage);
  const started = performance.now();
  const report = await runFromSite({
    site,
    out: resolve(values.out ?? 'build'),
    ...(values.sitemap === undefined ? {} : { sitemaps: values.sitemap }),
    ...(values.selector === undefined ? {} : { selector: values.selector }),
    ...(values.locale === undefined ? {} : { locale: values.locale }),
    ...(values.concurrency === undefined ? {} : { concurrency: positiveInteger('--concurrency', values.concurrency, usage) }),
    ...(values.rate === undefined ? {} : { rate: positiveNumber('--rate', values.rate, usage) }),
    popularity: loadPopularity(context.dataDir),
    logger: context.logger,
  });
  context.out.write(fromSiteSummary(report, (performance.now() - started) / 1000));
  for (const example of report.examples.slice(0, 10)) context.out.write(`  skipped ${example.url}: ${example.reason} (${example.detail})\n`);
  return 0;
}
