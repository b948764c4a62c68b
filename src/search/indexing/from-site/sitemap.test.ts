import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseSitemap, sitemapBytes } from './sitemap.js';

describe('parseSitemap', () => {
  it('reads the pages of a urlset and the sitemaps of an index, entities decoded and spaces trimmed', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>
        https://a.test/x?a=1&amp;b=2 </loc><lastmod>2026-11-01</lastmod></url>
      <url><loc><![CDATA[https://a.test/国际]]></loc></url><url><loc></loc></url></urlset>`;
    assert.deepEqual(parseSitemap(xml, 100), { pages: ['https://a.test/x?a=1&b=2', 'https://a.test/国际'], sitemaps: [], truncated: false });
    const index = '<s:sitemapindex xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:sitemap><s:loc>https://a.test/one.xml.gz</s:loc></s:sitemap></s:sitemapindex>';
    assert.deepEqual(parseSitemap(index, 100), { pages: [], sitemaps: ['https://a.test/one.xml.gz'], truncated: false });
  });

  it('reads a text sitemap, one URL a line', () => {
    assert.deepEqual(parseSitemap('https://a.test/a\r\nnot a url\n  https://a.test/b  \n', 10).pages, ['https://a.test/a', 'https://a.test/b']);
  });

  it('stops at maxUrls and says so', () => {
    const xml = `<urlset>${Array.from({ length: 10 }, (_, i) => `<url><loc>https://a.test/${i}</loc></url>`).join('')}</urlset>`;
    const entries = parseSitemap(xml, 3);
    assert.equal(entries.pages.length, 3);
    assert.equal(entries.truncated, true);
  });

  it('reads nothing from what is not a sitemap, and never throws', () => {
    assert.deepEqual(parseSitemap('<html><body><loc>https://a.test/</loc></body></html>', 10), { pages: [], sitemaps: [], truncated: false });
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => void parseSitemap(text, 10)));
    fc.assert(
      fc.property(fc.array(fc.constantFrom('<url>', '</url>', '<loc>', '</loc>', '<sitemap>', 'https://a.test/', '<![CDATA[', ']]>', '&amp;', '<'), { maxLength: 30 }), (parts) => {
        const entries = parseSitemap(parts.join(''), 5);
        assert.ok(entries.pages.length + entries.sitemaps.length <= 5);
      }),
    );
  });
});

describe('sitemapBytes', () => {
  it('gunzips gzip, passes anything else through', () => {
    assert.equal(sitemapBytes(gzipSync('<urlset/>'), 100)?.toString(), '<urlset/>');
    assert.equal(sitemapBytes(Buffer.from('<urlset/>'), 100)?.toString(), '<urlset/>');
  });

  it('refuses gzip that inflates past the bound (a gzip bomb) or is broken', () => {
    assert.equal(sitemapBytes(gzipSync(Buffer.alloc(10_000_000)), 1_000_000), undefined);
    assert.equal(sitemapBytes(Buffer.from([0x1f, 0x8b, 1, 2, 3]), 100), undefined);
  });
});
