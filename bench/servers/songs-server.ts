// A fastify server registering songRoutes exactly as the front's API app will (error mapper + plugin), against an
// iTunes stand-in in this process; or, with `baseline`, a bare fastify route answering the same JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { installErrorMapper } from '../../src/server/error-mapper.js';
import { AFFILIATE_CACHE_CONTROL, DEMO_SONGS, openSongs, songRoutes } from '../../src/songs/index.js';
import { standInCatalogue } from '../../src/songs/test-support/catalogue.js';
import { startItunesStandIn } from '../../src/songs/test-support/itunes-stand-in.js';

const mode = process.argv[2] ?? 'songs';
const logger = silentLogger();
const app = Fastify();
installErrorMapper(app, logger);
const cleanups: (() => unknown)[] = [];

if (mode === 'baseline') {
  const answer = {
    song_id: 1,
    provider: 'itunes',
    match: { title: 'Bohemian Rhapsody (Remastered 2011)', artist: 'Queen', url: 'https://music.apple.com/us/album/x/2012?i=12&uo=4', image: 'https://is1-ssl.mzstatic.com/image/thumb/Music/12/100x100bb.jpg', price: '$1.29' },
  };
  app.get('/api/song/:songId/affiliate/:provider', async (_request, reply) => {
    reply.header('cache-control', AFFILIATE_CACHE_CONTROL);
    return answer;
  });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-songs-'));
  const itunes = await startItunesStandIn(standInCatalogue(DEMO_SONGS));
  const songs = openSongs({ dataDir, config: loadConfig({ DATA_DIR: dataDir, ITUNES_API_BASE: itunes.url }).songs, logger, seed: true });
  await app.register(songRoutes(songs));
  cleanups.push(() => songs.close(), () => itunes.close(), () => rmSync(dataDir, { recursive: true, force: true }));
}

const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${url}`);
process.once('SIGTERM', async () => {
  await app.close();
  for (const cleanup of cleanups) await cleanup();
  process.exit(0);
});
