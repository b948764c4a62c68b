// sitestack's page cache in front of a renderer that answers argv[3] ms after it is asked (a renderer that far away),
// with purgeMode argv[2] (`delete` or `soft`), its stats at /__cache__/stats and its purge route behind the bearer
// `bench`. Every page names `post:hot listing:home` and shows the content version current when its render started and
// that moment (`data-version`, `data-rendered-at`, ms since the epoch); each purge stands for an edit, so it moves the
// version on before the cache handles it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPageCache, createStatsHandler, PURGE_MODES, type PurgeMode } from '@sitestack/page-cache';
import { listen } from './listen.js';
import { PAGE_BYTES, PAGE_HEADERS } from './page.js';

const BENCH_SECRET = 'bench';
const HOT_KEY = 'post:hot';

const purgeMode = process.argv[2] as PurgeMode;
if (!PURGE_MODES.includes(purgeMode)) throw new Error(`purge mode must be one of ${PURGE_MODES.join(', ')}, got ${process.argv[2]}`);
const delayMs = Number(process.argv[3] ?? 200);

const template = PAGE_BYTES.toString('utf8');
let version = 1;

function render(req: IncomingMessage, res: ServerResponse): void {
  const shown = `data-url="${req.url ?? '/'}" data-version="${version}" data-rendered-at="${Date.now()}"`;
  setTimeout(() => {
    res.writeHead(200, { ...PAGE_HEADERS, 'surrogate-key': `${HOT_KEY} listing:home` });
    res.end(template.replace('data-url="/"', shown));
  }, delayMs);
}

const cache = createPageCache({ purgeMode, revalidate: render, purgeSecret: BENCH_SECRET });
const stats = createStatsHandler(cache, { secret: BENCH_SECRET });
listen((req, res) => {
  if (req.url === '/__cache__/stats') return stats(req, res);
  if (req.url === '/__purge__' && req.method === 'POST') version++;
  cache.handle(req, res, () => render(req, res));
});
