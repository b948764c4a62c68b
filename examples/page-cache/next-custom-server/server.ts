/**
 * A Next.js custom server with @sitestack/page-cache in front of Next's request handler: each page is rendered (or
 * read from Next's ISR cache) once and then answered from memory, in br or gzip with an ETag, until a purge removes it.
 *
 *   next build && PURGE_SECRET=… node --import tsx server.ts
 *
 * Environment: NEXT_DIR (the Next.js application, default the current folder), PORT (default 3000; 0 picks a free
 * one), HOST (default 127.0.0.1), PURGE_SECRET (the bearer token of `POST /__purge__`; unset, every purge is refused),
 * PURGE_MODE (`delete`, the default, or `soft`).
 *
 * After a content change, revalidate the page in Next first (`res.revalidate(path)`, `revalidatePath`), then purge it
 * here: a purge alone would only fetch Next's own cached copy again. Pages-router pages name their purge keys in a
 * `Surrogate-Key` response header (from getServerSideProps, an API route, or proxy.ts), and a purge by key removes
 * every page that named it:
 *
 *   curl -X POST -H "Authorization: Bearer $PURGE_SECRET" -d '{"pathnames":["/posts/1"],"keys":["posts"]}' localhost:3000/__purge__
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createPageCache } from '@sitestack/page-cache';
import nextModule from 'next';

// Next is CommonJS: Node's ESM loader hands over its module.exports, which is the function its types call `default`.
const next = nextModule as unknown as typeof nextModule.default;

function purgeModeOf(value: string | undefined): 'delete' | 'soft' {
  if (value === undefined || value === 'delete' || value === 'soft') return value ?? 'delete';
  process.stderr.write(`expected PURGE_MODE to be 'delete' or 'soft', got '${value}'\n`);
  process.exit(2);
}

function portOf(value: string | undefined): number {
  if (value === undefined) return 3000;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    process.stderr.write(`expected PORT to be an integer from 0 to 65535, got '${value}'\n`);
    process.exit(2);
  }
  return port;
}

const dir = process.env.NEXT_DIR ?? process.cwd();
const port = portOf(process.env.PORT);
const host = process.env.HOST ?? '127.0.0.1';
const purgeMode = purgeModeOf(process.env.PURGE_MODE);

const app = next({ dev: false, dir });
const handleWithNext = app.getRequestHandler();
await app.prepare();

function renderWithNext(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The cache compresses and keeps br and gzip copies itself; Next's own gzip would be stored as the page and
  // replayed to clients that never asked for it.
  delete req.headers['accept-encoding'];
  return handleWithNext(req, res);
}

const cache = createPageCache({
  purgeSecret: process.env.PURGE_SECRET,
  // Assets are immutable files named by their content (a CDN keeps them), the image optimizer keeps its own cache,
  // and API routes answer each request.
  bypassPrefixes: ['/_next/static/', '/_next/image', '/api/'],
  // Client-side navigation reads a page's props from /_next/data/<buildId>/<page>.json: purging the page purges it too.
  dataRoutePrefix: '/_next/data/',
  // App-router navigation fetches `<page>?_rsc=…`: purging the page purges those as well.
  purgeQueryVariants: true,
  // 'soft': a purged page is served stale while one background render through Next replaces it.
  purgeMode,
  revalidate: renderWithNext,
});

const server = createServer((req, res) => cache.handle(req, res, () => renderWithNext(req, res)));

server.listen(port, host, () => {
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : port;
  process.stdout.write(`listening on http://${host}:${listening}\n`);
});

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void app.close();
});
