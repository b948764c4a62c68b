import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../config.js';
import { silentLogger } from '../log.js';
import { installErrorMapper } from '../http/index.js';
import { DEMO_SONGS, openSongs, songRoutes } from '../songs/index.js';

describe('openSongs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'songs-wiring-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds the demo catalogue into <dataDir>/songs.sqlite on the first start only when asked to', () => {
    const config = loadConfig({ DATA_DIR: dir }).songs;
    const unseeded = openSongs({ dataDir: dir, config, logger: silentLogger(), seed: false });
    assert.equal(unseeded.store.countSongs(), 0);
    unseeded.close();
    const seeded = openSongs({ dataDir: dir, config, logger: silentLogger(), seed: true });
    assert.equal(seeded.store.countSongs(), DEMO_SONGS.length);
    seeded.close();
  });

  it('gives the front a plugin whose amazon answers 503 when no Amazon keys are configured', async () => {
    const songs = openSongs({ dataDir: dir, config: loadConfig({}).songs, logger: silentLogger(), seed: true });
    const app = Fastify();
    installErrorMapper(app, silentLogger());
    await app.register(songRoutes(songs));
    try {
      assert.deepEqual(
        songs.providers.map((provider) => provider.name),
        ['itunes', 'amazon'],
      );
      const response = await app.inject({ method: 'GET', url: '/api/song/1/affiliate/amazon' });
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'PROVIDER_UNAVAILABLE');
      assert.match(response.json().error, /AMAZON_ACCESS_KEY/);
      assert.equal(response.headers['cache-control'], 'no-store');
    } finally {
      await app.close();
      songs.close();
    }
  });
});
