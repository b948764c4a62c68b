// sitestack's page cache in front of the renderer (`react` or `static`), holding at most argv[3] entries (default
// 1000), with its stats at /__cache__/stats; argv[4] `identity` turns compression off; argv[5] is its eviction.
import { createPageCache, createStatsHandler, type Eviction } from '@sitestack/page-cache';
import { listen } from './listen.js';
import { renderer } from './renderer.js';

const render = renderer(process.argv[2]);
const cache = createPageCache({ maxEntries: Number(process.argv[3] ?? 1000), compress: process.argv[4] !== 'identity', eviction: process.argv[5] as Eviction | undefined });
const stats = createStatsHandler(cache, { secret: 'bench' });
listen((req, res) => {
  if (req.url === '/__cache__/stats') stats(req, res);
  else cache.handle(req, res, () => render(req, res));
});
