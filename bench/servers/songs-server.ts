// The real front (`front`: its API app serves the song routes) against an iTunes stand-in in this process; or, with
// `baseline`, a bare fastify route answering the same JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { installErrorMapper } from '../../src/http/index.js';
import { startFront } from '../../src/server/front-command.js';
import { AFFILIATE_CACHE_CONTROL, DEMO_SONGS } from '../../src/songs/index.js';
import { standInCatalogue } from '../../src/songs/test-support/catalogue.js';
import { startItunesStandIn } from '../../src/songs/test-support/itunes-stand-in.js';

const mode = process.argv[2] ?? 'front';
const logger = silentLogger();
const cleanups: (() => unknown)[] = [];

if (mode === 'baseline') {
  const app = Fastify();
  installErrorMapper(app, logger);
  const answer = {
    song_id: 1,
    provider: 'itunes',
    match: { title: 'Bohemian Rhapsody (Remastered 2011)', artist: 'Queen', url: 'https://music.apple.com/us/album/x/2012?i=12&uo=4', image: 'https://is1-ssl.mzstatic.com/image/thumb/Music/12/100x100bb.jpg', price: '$1.29' },
  };
  app.get('/api/song/:songId/affiliate/:provider', async (_request, reply) => {
    reply.header('cache-control', AFFILIATE_CACHE_CONTROL);
    return answer;
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(`listening ${url}`);
  cleanups.push(() => app.close());
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-songs-'));
  const itunes = await startItunesStandIn(standInCatalogue(DEMO_SONGS));
  // The origin is never asked: only /api/song/… is requested, and the API app answers it before the page cache.
  const config = loadConfig({ DATA_DIR: dataDir, ITUNES_API_BASE: itunes.url, API_BASE: 'http://127.0.0.1:9' });
  const front = await startFront({ config, logger, port: 0 });
  console.log(`listening ${front.url}`);
  cleanups.push(() => front.close(), () => itunes.close(), () => rmSync(dataDir, { recursive: true, force: true }));
}

process.once('SIGTERM', async () => {
  for (const cleanup of cleanups) await cleanup();
  process.exit(0);
});
