import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { isAppError } from '../../../errors.js';
import { silentLogger } from '../../../log.js';
import { sitePage, sitemapIndex, startStubSite, urlset, type StubSite } from '../../test-support/site-stub.js';
import { readContentBuild } from '../reader.js';
import { runFromSite, type FromSiteReport } from './run.js';
import type { IndexedDocument } from '../../engines/types.js';

const FAST = { rate: 1000, timeoutMs: 2000, logger: silentLogger() };

async function documents(root: string): Promise<IndexedDocument[]> {
  const found: IndexedDocument[] = [];
  for await (const result of readContentBuild(root)) {
    assert.ok('document' in result, `a bad file: ${JSON.stringify(result)}`);
    found.push(result.document);
  }
  return found.sort((a, b) => (a.url < b.url ? -1 : 1));
}

describe('runFromSite', () => {
  let site: StubSite;
  let dir: string;
  let out: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-from-site-'));
    out = join(dir, 'build');
    site = await startStubSite();
  });
  afterEach(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pageAt = (title: string, body: string, extra: { lang?: string; canonical?: string; etag?: string } = {}) => ({
    body: sitePage({ title, body, ...(extra.lang === undefined ? {} : { lang: extra.lang }), ...(extra.canonical === undefined ? {} : { canonical: extra.canonical }) }),
    ...(extra.etag === undefined ? {} : { etag: extra.etag }),
  });

  it('reads the pages a sitemap index lists, gzip sitemaps included, into documents the reader takes', async () => {
    const u = site.url;
    site.routes.set('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nDisallow: /private\nSitemap: ${u}/index.xml\n` });
    site.routes.set('/index.xml', { headers: { 'content-type': 'application/xml' }, body: sitemapIndex([`${u}/a.xml`, `${u}/b.xml.gz`, `${u}/index.xml`]) });
    site.routes.set('/a.xml', { headers: { 'content-type': 'application/xml' }, body: urlset([`${u}/docs/puffins`, `${u}/private/secret`, `${u}/%E5%9B%BD%E9%99%85`]) });
    site.routes.set('/b.xml.gz', { headers: { 'content-type': 'application/gzip' }, body: gzipSync(urlset([`${u}/docs/terns`, `${u}/docs/puffins#again`])) });
    site.routes.set('/docs/puffins', pageAt('Puffins', '<nav>Menu</nav><main><h1>Puffins</h1><p>Sea parrots.</p><h2 id="food">Food</h2><p>Sand eels.</p></main>', { lang: 'en-gb' }));
    site.routes.set('/docs/terns', pageAt('Terns &amp; gulls', '<article><p>Long flights.</p></article>'));
    site.routes.set('/%E5%9B%BD%E9%99%85', pageAt('国际化', '<main><p>国际化（i18n）路由</p></main>', { lang: 'zh-hans' }));
    site.routes.set('/private/secret', pageAt('Secret', '<main>no</main>'));
    const report = await runFromSite({ site: `${u}/`, out, ...FAST });
    assert.equal(report.fetched, 3);
    assert.deepEqual(report.skipped, { robots: 1 });
    assert.equal(report.sitemaps, 3);
    const docs = await documents(out);
    assert.deepEqual(docs.map((doc) => [doc.url, doc.title, doc.locale, doc.body]), [
      ['/%E5%9B%BD%E9%99%85', '国际化', 'zh-Hans', '国际化（i18n）路由'],
      ['/docs/puffins', 'Puffins', 'en-GB', 'Puffins Sea parrots. Food Sand eels.'],
      ['/docs/terns', 'Terns & gulls', 'en-US', 'Long flights.'],
    ]);
    assert.ok(!site.requests.some((request) => request.path.startsWith('/private')), 'robots.txt is honoured');
    assert.ok(site.requests.every((request) => /^sitestack\//.test(request.headers['user-agent'] ?? '')));
  });

  it('asks again with the validators of the previous run and reuses the unchanged pages', async () => {
    site.routes.set('/sitemap.xml', { body: urlset([`${site.url}/a`, `${site.url}/b`]) });
    site.routes.set('/a', pageAt('Alpha', '<main>first</main>', { etag: '"a1"' }));
    site.routes.set('/b', { ...pageAt('Beta', '<main>second</main>'), headers: { 'last-modified': 'Wed, 25 Nov 2026 10:00:00 GMT' } });
    const first = await runFromSite({ site: site.url, out, ...FAST });
    assert.deepEqual([first.fetched, first.unchanged], [2, 0]);
    site.routes.set('/b', { ...pageAt('Beta two', '<main>changed</main>'), headers: { 'last-modified': 'Thu, 26 Nov 2026 10:00:00 GMT' } });
    site.requests.length = 0;
    const second = await runFromSite({ site: site.url, out, ...FAST });
    assert.deepEqual([second.fetched, second.unchanged, second.pages], [1, 1, 2]);
    const asked = Object.fromEntries(site.requests.map((request) => [request.path, request.headers]));
    assert.equal(asked['/a']?.['if-none-match'], '"a1"');
    assert.equal(asked['/b']?.['if-modified-since'], 'Wed, 25 Nov 2026 10:00:00 GMT');
    assert.deepEqual((await documents(out)).map((doc) => doc.title), ['Alpha', 'Beta two']);
    site.requests.length = 0;
    const third = await runFromSite({ site: site.url, out, ...FAST });
    assert.equal(third.unchanged, 1, 'the page reused stays remembered');
    assert.equal(site.requests.find((request) => request.path === '/a')?.headers['if-none-match'], '"a1"');
  });

  it('skips each page that fails with its reason and goes on', async () => {
    const u = site.url;
    const paths = ['/ok', '/gone', '/pdf', '/big', '/slow', '/broken', '/noindex', '/noindex-header', '/untitled', '/latin1', '/moved', '/away', '/loop', '/dup', '/server-error'];
    site.routes.set('/sitemap.xml', { body: urlset([...paths.map((path) => `${u}${path}`), 'https://elsewhere.test/page', 'javascript:alert(1)', 'not a url']) });
    site.routes.set('/ok', pageAt('Okay', '<main>fine</main>'));
    site.routes.set('/pdf', { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' });
    site.routes.set('/big', pageAt('Big', `<main>${'x'.repeat(300_000)}</main>`));
    site.routes.set('/slow', { ...pageAt('Slow', '<main>late</main>'), delayMs: 3000 });
    site.routes.set('/broken', { body: Buffer.from([0x3c, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x3e, 0xff, 0xfe, 0x3c]) });
    site.routes.set('/noindex', pageAt('No', '<main>hidden</main>'));
    site.routes.get('/noindex')!.body = sitePage({ title: 'No', head: '<meta name="robots" content="noindex">', body: 'x' });
    site.routes.set('/noindex-header', { ...pageAt('No header', '<main>x</main>'), headers: { 'x-robots-tag': 'noindex' } });
    site.routes.set('/untitled', { body: '<p>no title here</p>' });
    site.routes.set('/latin1', { headers: { 'content-type': 'text/html; charset=iso-8859-1' }, body: Buffer.from('<title>Caf\xe9</title><main>cr\xe8me</main>', 'latin1') });
    site.routes.set('/moved', { status: 301, headers: { location: '/ok-too' } });
    site.routes.set('/ok-too', pageAt('Okay too', '<main>moved here</main>'));
    site.routes.set('/away', { status: 302, headers: { location: 'https://elsewhere.test/' } });
    site.routes.set('/loop', { status: 302, headers: { location: '/loop' } });
    site.routes.set('/dup', pageAt('Dup', '<main>same</main>', { canonical: '/ok' }));
    site.routes.set('/server-error', { status: 503, body: 'down' });
    const report = await runFromSite({ site: u, out, ...FAST, timeoutMs: 1000, maxPageBytes: 100_000, concurrency: 3 });
    assert.deepEqual(report.skipped, {
      'http-404': 1, 'not-html': 1, 'too-large': 1, timeout: 1, undecodable: 1, noindex: 2, untitled: 1, 'redirect-off-site': 1,
      'too-many-redirects': 1, duplicate: 1, 'http-503': 1,
    });
    assert.equal(report.offSite, 1);
    assert.deepEqual(report.sitemapProblems, ["'javascript:alert(1)' is not an http(s) URL", "'not a url' is not an http(s) URL"]);
    assert.deepEqual((await documents(out)).map((doc) => [doc.url, doc.title, doc.body]), [
      ['/latin1', 'Café', 'crème'],
      ['/ok', 'Okay', 'fine'],
      ['/ok-too', 'Okay too', 'moved here'],
    ]);
    assert.ok(site.maxInFlight <= 3, `at most 3 requests in flight, saw ${site.maxInFlight}`);
    assert.ok(!site.requests.some((request) => request.path.includes('elsewhere')));
  });

  it('waits once for a Retry-After the build accepts, and skips a page whose wait is too long', async () => {
    const u = site.url;
    site.routes.set('/sitemap.xml', { body: urlset([`${u}/busy`, `${u}/away-long`, `${u}/café`]) });
    site.routes.set('/busy', { status: 429, headers: { 'retry-after': '0' }, then: pageAt('Busy once', '<main>served</main>') });
    site.routes.set('/away-long', { status: 503, headers: { 'retry-after': '3600' }, then: pageAt('Never asked again', '<main>x</main>') });
    site.routes.set('/caf%C3%A9', pageAt('Café', '<main>crème brûlée</main>'));
    const report = await runFromSite({ site: u, out, ...FAST, concurrency: 1 });
    assert.deepEqual(report.skipped, { 'http-503': 1 });
    assert.deepEqual((await documents(out)).map((doc) => [doc.url, doc.title]), [['/busy', 'Busy once'], ['/caf%C3%A9', 'Café']]);
    assert.equal(site.requests.filter((request) => request.path === '/busy').length, 2);
    assert.equal(site.requests.filter((request) => request.path === '/away-long').length, 1);
  });

  it('fails without touching the previous build when no page can be read', async () => {
    site.routes.set('/sitemap.xml', { body: urlset([`${site.url}/a`]) });
    site.routes.set('/a', pageAt('Alpha', '<main>first</main>'));
    await runFromSite({ site: site.url, out, ...FAST });
    site.routes.delete('/a');
    await assert.rejects(runFromSite({ site: site.url, out, ...FAST }), (error) => isAppError(error) && error.code === 'SITE_NOTHING_READ' && /1 skipped \(http-404 1\)/.test(error.message));
    assert.deepEqual((await documents(out)).map((doc) => doc.title), ['Alpha']);
  });

  it('reads nothing when robots.txt is unavailable (5xx), as RFC 9309 asks, and everything when it is garbage', async () => {
    site.routes.set('/sitemap.xml', { body: urlset([`${site.url}/a`]) });
    site.routes.set('/a', pageAt('Alpha', '<main>first</main>'));
    site.routes.set('/robots.txt', { status: 500 });
    await assert.rejects(runFromSite({ site: site.url, out, ...FAST }), (error) => isAppError(error) && /robots 1/.test(error.message));
    site.routes.set('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: Buffer.concat([Buffer.from('\xff\xfe\0garbage\nDisallow /a\n:::\nUser-agent\n', 'latin1'), Buffer.alloc(600_000, 'x')]) });
    const report = await runFromSite({ site: site.url, out, ...FAST });
    assert.equal(report.fetched, 1);
    assert.match(report.robots, /first 524288 bytes/);
  });

  it('reads the start page alone when there is no sitemap, and keeps to the path of the site URL', async () => {
    site.routes.set('/docs/', pageAt('Docs home', '<main>welcome</main>'));
    const alone = await runFromSite({ site: `${site.url}/docs/`, out, ...FAST });
    assert.equal(alone.pages, 1);
    site.routes.set('/sitemap.xml', { body: urlset([`${site.url}/docs/a`, `${site.url}/blog/b`]) });
    site.routes.set('/docs/a', pageAt('A', '<main>a</main>'));
    const scoped = await runFromSite({ site: `${site.url}/docs/`, out, ...FAST });
    assert.deepEqual([scoped.pages, scoped.offSite], [1, 1]);
  });

  it('ends sitemap loops and bounds sitemaps, their bytes and the pages listed', async () => {
    const u = site.url;
    site.routes.set('/sitemap.xml', { body: sitemapIndex([`${u}/s1.xml`, `${u}/sitemap.xml`, `${u}/huge.xml`, `${u}/bomb.xml.gz`, 'https://elsewhere.test/s.xml']) });
    site.routes.set('/s1.xml', { body: sitemapIndex([`${u}/sitemap.xml`, `${u}/s2.xml`]) });
    site.routes.set('/s2.xml', { body: urlset(Array.from({ length: 30 }, (_, i) => `${u}/p${i}`)) });
    site.routes.set('/huge.xml', { body: urlset(Array.from({ length: 5000 }, (_, i) => `${u}/h${i}`)) });
    site.routes.set('/bomb.xml.gz', { body: gzipSync(Buffer.alloc(5_000_000, ' ')) });
    for (let i = 0; i < 30; i++) site.routes.set(`/p${i}`, pageAt(`Page ${i}`, '<main>x</main>'));
    const report = await runFromSite({ site: u, out, ...FAST, maxSitemapBytes: 100_000, maxPages: 20 });
    assert.equal(report.pages, 20);
    assert.equal(report.sitemaps, 5);
    assert.equal(report.offSite, 1);
    assert.ok(report.sitemapProblems.some((problem) => /huge\.xml: too-large/.test(problem)), report.sitemapProblems.join('\n'));
    assert.ok(report.sitemapProblems.some((problem) => /bomb\.xml\.gz: gzip/.test(problem)), report.sitemapProblems.join('\n'));
  });

  it('refuses an output folder that is not a build, and options out of range, before fetching anything', async () => {
    mkdirSync(out);
    writeFileSync(join(out, 'precious.txt'), 'keep me');
    site.routes.set('/sitemap.xml', { body: urlset([`${site.url}/a`]) });
    site.routes.set('/a', pageAt('Alpha', '<main>first</main>'));
    await assert.rejects(runFromSite({ site: site.url, out, ...FAST }), (error) => isAppError(error) && error.code === 'BUILD_OUT_NOT_OURS');
    assert.equal(readFileSync(join(out, 'precious.txt'), 'utf8'), 'keep me');
    site.requests.length = 0;
    for (const options of [{ concurrency: 0 }, { rate: -1 }, { selector: 'main > p' }, { locale: 'not a locale' }, { maxPages: 1.5 }]) {
      await assert.rejects(runFromSite({ site: site.url, out: join(dir, 'other'), ...FAST, ...options }), (error) => isAppError(error) && error.code === 'SITE_BUILD_OPTIONS_INVALID');
    }
    for (const bad of ['ftp://x.test/', 'not a url', 'http://user:pw@x.test/', 'javascript:alert(1)', `${site.url}/${'國'.repeat(3000)}`, '']) {
      await assert.rejects(runFromSite({ site: bad, out: join(dir, 'other'), ...FAST }), (error) => isAppError(error) && error.code === 'SITE_BUILD_OPTIONS_INVALID');
    }
    assert.equal(site.requests.length, 0);
    assert.equal(existsSync(join(dir, 'other')), false);
  });
});

describe('runFromSite report', () => {
  let report: FromSiteReport;
  let site: StubSite;
  let dir: string;
  before(async () => {
    site = await startStubSite({ '/sitemap.xml': { body: urlset([]) } });
    dir = mkdtempSync(join(tmpdir(), 'sitestack-from-site-report-'));
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts a site whose sitemap is empty as its start page', async () => {
    site.routes.set('/', { body: sitePage({ title: 'Home', body: '<main>home</main>' }) });
    report = await runFromSite({ site: site.url, out: join(dir, 'b'), ...FAST });
    assert.deepEqual([report.pages, report.site], [1, `${site.url}/`]);
  });
});
