import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadConfig, type Config } from '../config.js';
import { silentLogger } from '../log.js';
import { DEMO_SONGS, openSongStore } from '../songs/index.js';
import { standInCatalogue } from '../songs/test-support/catalogue.js';
import { startItunesStandIn } from '../songs/test-support/itunes-stand-in.js';
import type { StandIn } from '../songs/test-support/stand-in.js';
import { songsCommand } from './songs-command.js';

async function run(config: Config, args: string[]): Promise<{ code: number; out: string }> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const code = await songsCommand.run({ args, config, logger: silentLogger(), out });
  return { code, out: text };
}

describe('sitestack songs', () => {
  let dir: string;
  let config: Config;
  let itunes: StandIn;
  const file = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const songsIn = () => {
    const store = openSongStore(join(dir, 'data', 'songs.sqlite'));
    try {
      return Array.from({ length: 40 }, (_, i) => store.getSong(i + 1)).filter((song) => song !== undefined);
    } finally {
      store.close();
    }
  };

  before(async () => {
    itunes = await startItunesStandIn(standInCatalogue(DEMO_SONGS));
  });
  after(() => itunes.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'songs-command-'));
    config = loadConfig({ DATA_DIR: join(dir, 'data'), ITUNES_API_BASE: itunes.url, SONG_PROVIDER_TIMEOUT_MS: '5000' }, dir);
    itunes.behave('normal');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('import', () => {
    it('adds songs and updates a repeated id when the file is valid', async () => {
      const first = await run(config, ['import', file('a.csv', 'id,name,artist,album,year\n1,Imagine,John Lennon,Imagine,1971\n2,"Hey, Jude",The Beatles,,\n')]);
      assert.equal(first.code, 0);
      assert.match(first.out, /imported 2 song\(s\) .*: 2 new, 0 updated, 0 unchanged/);
      const second = await run(config, ['import', file('b.csv', 'id,name,artist,album,year\r\n2,"Hey Jude",The Beatles,"Hey Jude",1968\r\n1,Imagine,John Lennon,Imagine,1971\r\n')]);
      assert.match(second.out, /0 new, 1 updated, 1 unchanged/);
      assert.deepEqual(songsIn(), [
        { id: 1, name: 'Imagine', artist: 'John Lennon', album: 'Imagine', year: 1971 },
        { id: 2, name: 'Hey Jude', artist: 'The Beatles', album: 'Hey Jude', year: 1968 },
      ]);
    });

    it('reports every bad row by line and imports nothing, good rows included', async () => {
      const path = file('bad.csv', 'id,name,artist,album,year\n1,Good,Artist,,\n-4,Bad id,A,,\n2,,No name,,\n3,"Bad quote"x,A,,\n4,Good too,B,,\n');
      await assert.rejects(run(config, ['import', path]), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'SONGS_FILE_INVALID');
        assert.match(error.message, /3 bad row\(s\); nothing was imported/);
        assert.match(error.message, /line 3: id "-4"/);
        assert.match(error.message, /line 4: name is empty/);
        assert.match(error.message, /line 5: unexpected text after the closing quote/);
        return true;
      });
      assert.deepEqual(songsIn(), []);
    });

    it('explains a missing file, a file that is not UTF-8 and a missing argument', async () => {
      await assert.rejects(run(config, ['import', join(dir, 'nope.csv')]), /cannot read .*nope\.csv: ENOENT/);
      await assert.rejects(run(config, ['import', file('latin1.csv', Buffer.from('id,name,artist,album,year\n1,Caf\xe9,A,,\n', 'latin1'))]), /is not UTF-8 text/);
      await assert.rejects(run(config, ['import']), { code: 'USAGE' });
      await assert.rejects(run(config, ['export']), /unknown action 'export'/);
    });

    it('exits non-zero with the bad lines on stderr when run as the CLI', () => {
      const path = file('cli.csv', 'id,name,artist,album,year\n1,"never closed,A,,\n');
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'songs', 'import', path], {
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' },
      });
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /line 2: unterminated quoted field 2/);
    });
  });

  describe('refresh', () => {
    const seedLookups = (fetchedAt: number) => {
      const store = openSongStore(join(dir, 'data', 'songs.sqlite'));
      store.seedIfEmpty(DEMO_SONGS);
      store.saveLookup({ songId: 1, provider: 'itunes', fetchedAt, raw: { old: true }, match: null });
      store.saveLookup({ songId: 2, provider: 'itunes', fetchedAt: Date.now(), raw: { fresh: true }, match: null });
      store.close();
    };
    const lookup = (songId: number) => {
      const store = openSongStore(join(dir, 'data', 'songs.sqlite'));
      try {
        return store.getLookup(songId, 'itunes');
      } finally {
        store.close();
      }
    };

    it('asks the provider again only for lookups older than the duration', async () => {
      seedLookups(Date.now() - 2 * 3_600_000);
      const before = itunes.searches;
      const result = await run(config, ['refresh', '--older-than', '1h']);
      assert.equal(result.code, 0, result.out);
      assert.match(result.out, /refreshed 1 saved lookup\(s\); 0 failed/);
      assert.equal(itunes.searches - before, 1);
      assert.equal(lookup(1)?.match?.artist, 'Queen');
      assert.deepEqual(lookup(2)?.raw, { fresh: true });
    });

    it('keeps the saved answer and exits 1 when the provider fails', async () => {
      seedLookups(0);
      itunes.behave('status-500');
      const result = await run(config, ['refresh', '--older-than=30d']);
      assert.equal(result.code, 1);
      assert.match(result.out, /song 1 on itunes: provider itunes: answered 500/);
      assert.deepEqual(lookup(1)?.raw, { old: true });
    });

    it('refuses a malformed duration with a clear message', async () => {
      for (const args of [['--older-than', '30x'], ['--older-than'], ['--older-than=0d'], ['--since', '1d']]) {
        await assert.rejects(run(config, ['refresh', ...args]), (error: Error & { code?: string }) => {
          assert.equal(error.code, 'USAGE');
          assert.match(error.message, /older-than|unknown argument/);
          return true;
        });
      }
    });
  });
});
