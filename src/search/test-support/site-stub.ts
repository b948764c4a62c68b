import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One answer of the stub site. A `delayMs` holds the headers back (a slow page); `etag` answers 304 to a match; `then`
 * replaces the answer once it was given (a site busy once, fine the next time).
 */
export interface SiteAnswer {
  then?: SiteAnswer;
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  delayMs?: number;
  etag?: string;
}

export interface StubSite {
  url: string;
  /** Answers by path and query (`/a?b=1`); a path not here is a 404. Change it between runs. */
  routes: Map<string, SiteAnswer>;
  /** Every request, in the order received. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** The most requests ever in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** A local site of fixed answers for the from-site build: a real HTTP server on 127.0.0.1, port 0. */
export async function startStubSite(routes: Record<string, SiteAnswer> = {}): Promise<StubSite> {
  let inFlight = 0;
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    stub.requests.push({ path, headers: request.headers });
    inFlight++;
    stub.maxInFlight = Math.max(stub.maxInFlight, inFlight);
    response.on('close', () => inFlight--);
    const answer = stub.routes.get(path) ?? { status: 404, body: 'not found' };
    if (answer.then !== undefined) stub.routes.set(path, answer.then);
    const send = () => {
      if (answer.etag !== undefined && request.headers['if-none-match'] === answer.etag) {
        response.writeHead(304, { etag: answer.etag }).end();
        return;
      }
      const headers = { 'content-type': 'text/html; charset=utf-8', ...(answer.etag === undefined ? {} : { etag: answer.etag }), ...answer.headers };
      response.writeHead(answer.status ?? 200, headers).end(answer.body ?? '');
    };
    if (answer.delayMs === undefined) send();
    else setTimeout(send, answer.delayMs).unref();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stub: StubSite = {
    url: `http://127.0.0.1:${port}`,
    routes: new Map(Object.entries(routes)),
    requests: [],
    maxInFlight: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stub;
}

/** A page of the stub site: a head with the fields given and the body HTML as it is. */
export function sitePage(options: { title?: string; lang?: string; description?: string; canonical?: string; head?: string; body: string }): string {
  const head = [
    options.title === undefined ? '' : `<title>${options.title}</title>`,
    options.description === undefined ? '' : `<meta name="description" content="${options.description}">`,
    options.canonical === undefined ? '' : `<link rel="canonical" href="${options.canonical}">`,
    options.head ?? '',
  ].join('');
  return `<!doctype html><html${options.lang === undefined ? '' : ` lang="${options.lang}"`}><head><meta charset="utf-8">${head}</head><body>${options.body}</body></html>`;
}

/** A sitemap `<urlset>` of the locations given. */
export function urlset(locations: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locations.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`;
}

/** A sitemap index of the sitemaps given. */
export function sitemapIndex(locations: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locations.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;
}
