import { crc32, deflateSync } from 'node:zlib';
import { escapeHtml } from '../html-escape.js';
import { CACHED_KINDS, cachingOf, type CachedKind } from './pages/caching.js';
import type { SiteIdentity } from './site.js';
import type { PostAnswer } from './origin-schema.js';
import type { PostListing } from './types.js';

/** The files crawlers and feed readers ask for, beside the pages. */
export const CRAWLER_PATHS = {
  feed: cachingOf('feed').path({ kind: 'feed' }),
  sitemap: cachingOf('sitemap').path({ kind: 'sitemap' }),
  robots: '/robots.txt',
  favicon: '/favicon.ico',
} as const;

/** Posts in the feed. */
export const FEED_ENTRIES = 20;

// XML 1.0 allows no C0 control character but tab, line feed and carriage return, and no lone surrogate.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text safe in XML element content and attribute values. */
export function xmlText(text: string): string {
  return escapeHtml(text.replace(NOT_XML, ''));
}

/** An ISO date as RFC 3339, which Atom and sitemaps read; the text as given when it does not parse. */
function rfc3339(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString();
}

/** The Atom feed (RFC 4287) of the latest posts, newest first, with absolute URLs on `baseUrl`. */
export function atomFeed(posts: readonly PostAnswer['post'][], site: SiteIdentity, baseUrl: string): string {
  const updated = posts[0] === undefined ? new Date(0).toISOString() : rfc3339(posts[0].pub_date);
  const entries = posts.map((post) => {
    const url = xmlText(`${baseUrl}/plog/${post.oid}`);
    return (
      `<entry><title>${xmlText(post.title)}</title><link rel="alternate" type="text/html" href="${url}"/><id>${url}</id>` +
      `<published>${xmlText(rfc3339(post.pub_date))}</published><updated>${xmlText(rfc3339(post.pub_date))}</updated>` +
      post.categories.map((category) => `<category term="${xmlText(category)}"/>`).join('') +
      (post.summary === '' ? '' : `<summary>${xmlText(post.summary)}</summary>`) +
      `<content type="html">${xmlText(post.body_html)}</content></entry>`
    );
  });
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">` +
    `<title>${xmlText(site.name)}</title><subtitle>${xmlText(site.description)}</subtitle>` +
    `<link rel="self" type="application/atom+xml" href="${xmlText(`${baseUrl}${CRAWLER_PATHS.feed}`)}"/>` +
    `<link rel="alternate" type="text/html" href="${xmlText(`${baseUrl}/`)}"/>` +
    `<id>${xmlText(`${baseUrl}/`)}</id><updated>${xmlText(updated)}</updated><author><name>${xmlText(site.name)}</name></author>` +
    `${entries.join('')}</feed>\n`
  );
}

/** The sitemap's entries of one kind, as its registry entry decides. */
function sitemapUrls<K extends CachedKind>(kind: K, posts: readonly PostListing[]): { path: string; lastmod: string | undefined }[] {
  const caching = cachingOf(kind);
  if (!caching.sitemap.listed) return [];
  return caching.sitemap.entries(posts).map(({ route, lastmod }) => ({ path: caching.path(route), lastmod }));
}

// Crawlers meet the listings before the posts they lead to.
const SITEMAP_ORDER: readonly CachedKind[] = [...CACHED_KINDS.filter((kind) => kind !== 'post'), 'post'];

/**
 * The sitemap (sitemaps.org 0.9): the addresses of every kind the page registry lists (the home page, the archive,
 * every category's page, the about page, every post), each dated as its entry decides.
 */
export function sitemap(posts: readonly PostListing[], baseUrl: string): string {
  const url = ({ path, lastmod }: { path: string; lastmod: string | undefined }) =>
    `<url><loc>${xmlText(`${baseUrl}${path}`)}</loc>${lastmod === undefined ? '' : `<lastmod>${xmlText(rfc3339(lastmod))}</lastmod>`}</url>`;
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
    SITEMAP_ORDER.flatMap((kind) => sitemapUrls(kind, posts).map(url)).join('') +
    `</urlset>\n`
  );
}

/** robots.txt: everything may be crawled but the APIs and the client-navigation data; the sitemap is named. */
export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nDisallow: /api/\nDisallow: /_render/data/\n\nSitemap: ${baseUrl}${CRAWLER_PATHS.sitemap}\n`;
}

/**
 * A 16×16 icon in the site's accent colour with a light "s"-like stripe pattern, as an ICO holding a PNG (which every
 * browser reads), built once from pixels so the repository holds no binary file.
 */
function buildFavicon(): Buffer {
  const size = 16;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const corner = (x === 0 || x === size - 1) && (y === 0 || y === size - 1);
      const stripe = x >= 4 && x <= 11 && (y === 4 || y === 5 || y === 7 || y === 8 || y === 10 || y === 11) && !(y === 7 && x === 4) && !(y === 8 && x === 11);
      const [r, g, b] = stripe ? [255, 255, 255] : [11, 87, 208];
      row.set([r, g, b, corner ? 0 : 255], 1 + x * 4);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const directory = Buffer.alloc(22);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(1, 4);
  directory.set([size, size, 0, 0], 6);
  directory.writeUInt16LE(1, 10);
  directory.writeUInt16LE(32, 12);
  directory.writeUInt32LE(png.length, 14);
  directory.writeUInt32LE(22, 18);
  return Buffer.concat([directory, png]);
}

export const FAVICON = buildFavicon();
