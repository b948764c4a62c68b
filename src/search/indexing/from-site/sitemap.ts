import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

/**
 * Reading sitemaps (sitemaps.org): a `<urlset>` lists pages, a `<sitemapindex>` lists further sitemaps, and a plain
 * text sitemap lists one page URL a line. Pure: bytes in, URLs (as written, not yet resolved or checked) out.
 */
export interface SitemapEntries {
  pages: string[];
  sitemaps: string[];
  /** More `<loc>` entries than `maxUrls`: the rest were not read. */
  truncated: boolean;
}

/** The local name of an XML element: `<s:loc>` → `loc`. */
const localName = (name: string): string => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/** Reads at most `maxUrls` locations from a sitemap or sitemap index; whatever is not a sitemap yields nothing. */
export function parseSitemap(text: string, maxUrls: number): SitemapEntries {
  const entries: SitemapEntries = { pages: [], sitemaps: [], truncated: false };
  const add = (list: string[], value: string) => {
    const location = value.trim();
    if (location === '') return;
    if (entries.pages.length + entries.sitemaps.length >= maxUrls) entries.truncated = true;
    else list.push(location);
  };
  if (!text.trimStart().startsWith('<')) {
    for (const line of text.split(/\r?\n/)) if (/^https?:\/\//i.test(line.trim())) add(entries.pages, line);
    return entries;
  }
  const open: string[] = [];
  let location: string | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        open.push(local);
        if (local === 'loc') location = '';
      },
      ontext(data) {
        if (location !== undefined) location += data;
      },
      oncdatastart() {
        if (location !== undefined) location = '';
      },
      onclosetag() {
        const local = open.pop();
        if (local !== 'loc' || location === undefined) return;
        const parent = open[open.length - 1];
        if (parent === 'url') add(entries.pages, location);
        else if (parent === 'sitemap') add(entries.sitemaps, location);
        location = undefined;
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  parser.end(text);
  return entries;
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * The bytes of a sitemap, gunzipped when they are gzip (whatever the URL or headers say), at most `maxBytes` once
 * inflated; undefined when they inflate to more or are not valid gzip.
 */
export function sitemapBytes(bytes: Buffer, maxBytes: number): Buffer | undefined {
  if (bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch {
    return undefined;
  }
}
