// A static site for `npm run bench from-site`: `static-site.ts <pages>` serves that many generated documentation pages
// (about 15 KB of HTML each: navigation, header and footer around a main element of sections, lists and code), their
// sitemap and a robots.txt, each page with an ETag so that a second build asks conditionally and gets 304s.
import { createHash } from 'node:crypto';
import { staticSitePage } from '../corpus/static-site-pages.js';
import { listen } from './listen.js';

const count = Number(process.argv[2] ?? 1000);

const pages = Array.from({ length: count }, (_, i) => {
  const body = Buffer.from(staticSitePage(i));
  return { body, etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"` };
});

listen((request, response) => {
  const path = request.url ?? '/';
  const host = `http://${request.headers.host ?? '127.0.0.1'}`;
  if (path === '/robots.txt') return response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
  if (path === '/sitemap.xml') {
    const urls = pages.map((_, i) => `<url><loc>${host}/docs/page-${i}</loc></url>`).join('');
    return response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
  }
  const page = pages[Number(/^\/docs\/page-(\d+)$/.exec(path)?.[1] ?? -1)];
  if (page === undefined) return response.writeHead(404).end();
  if (request.headers['if-none-match'] === page.etag) return response.writeHead(304, { etag: page.etag }).end();
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: page.etag, 'content-length': String(page.body.length) }).end(page.body);
});
