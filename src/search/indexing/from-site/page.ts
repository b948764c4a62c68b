import { createHash } from 'node:crypto';
import { escapeHtml } from '../../../html-escape.js';
import { canonicalLocale } from '../../../locale.js';
import type { PostIndexJson } from '../content-build.js';
import { popularityKey } from '../popularity.js';
import { pageUrl } from './discover.js';
import { extractPage } from './extract.js';
import type { ResolvedFromSiteOptions } from './options.js';

/** A page read into a build document, or why it is skipped. */
export type PageOutcome = { kind: 'page'; url: string; path: string; json: PostIndexJson } | { kind: 'skipped'; reason: string; detail: string };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** How far into a page a `<meta charset>` is looked for, as browsers look (HTML's prescan reads 1024 bytes). */
const CHARSET_PRESCAN_BYTES = 1024;

/** The charset of an answer: its Content-Type's, else a `<meta charset>` near the start, else UTF-8. */
function charsetOf(contentType: string, body: Buffer): string {
  const declared = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (declared !== undefined) return declared;
  const head = body.subarray(0, CHARSET_PRESCAN_BYTES).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)/i.exec(head)?.[1] ?? 'utf-8';
}

/** The text of a page in its charset; undefined when its bytes are not that charset (or it names none known). */
function decodePage(contentType: string, body: Buffer): string | undefined {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charsetOf(contentType, body), { fatal: true });
  } catch {
    decoder = new TextDecoder('utf-8', { fatal: true });
  }
  try {
    return decoder.decode(body);
  } catch {
    return undefined;
  }
}

/** Where a document lives in the build: by a hash of its URL, so no URL however strange makes a path. */
export function pagePath(locale: string, url: string): string {
  return `${locale.toLowerCase()}/site/${createHash('sha256').update(url).digest('hex').slice(0, 16)}/index.json`;
}

const skipped = (reason: string, detail: string): PageOutcome => ({ kind: 'skipped', reason, detail });

/**
 * Turns a fetched answer into the content build's document: HTML only, `noindex` honoured (meta or `X-Robots-Tag`),
 * a title required. The document's URL is the page's path and query on the site — the canonical URL's when that is on
 * the site — so search results link within the site whichever host serves it.
 */
export function readPage(
  fetched: { url: URL; headers: Headers; body: Buffer },
  options: ResolvedFromSiteOptions,
  popularity: ReadonlyMap<string, number>,
): PageOutcome {
  const contentType = fetched.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!HTML_TYPES.has(mediaType)) return skipped('not-html', mediaType === '' ? 'no Content-Type' : mediaType.slice(0, 100));
  if (/(^|[\s,:])(noindex|none)([\s,]|$)/i.test(fetched.headers.get('x-robots-tag') ?? '')) return skipped('noindex', 'X-Robots-Tag');
  const html = decodePage(contentType, fetched.body);
  if (html === undefined) return skipped('undecodable', `not ${charsetOf(contentType, fetched.body).slice(0, 40)}`);
  const page = extractPage(html, options.selector);
  if (page.noindex) return skipped('noindex', '<meta name="robots">');
  if (page.title === '') return skipped('untitled', 'no <title>, og:title or <h1>');
  const canonical = page.canonical === undefined ? undefined : pageUrl(page.canonical, fetched.url);
  const kept = canonical !== undefined && canonical.href.startsWith(options.scope) ? canonical : fetched.url;
  const url = `${kept.pathname}${kept.search}`;
  const locale = canonicalLocale(page.lang) ?? options.locale;
  const json: PostIndexJson = {
    doc: {
      // The build's titles and summaries are HTML, as the reader strips them: text is escaped to stay text.
      title: escapeHtml(page.title),
      summary: escapeHtml(page.description),
      url,
      locale,
      popularity: popularity.get(popularityKey(url) ?? '') ?? 0,
      pub_date: null,
      body: page.sections.map((section) => ({ type: 'prose', value: { ...section, title: escapeHtml(section.title) } })),
    },
  };
  return { kind: 'page', url, path: pagePath(locale, url), json };
}
