import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_SONGS } from './demo-songs.js';
import { openSongStore, type SongStore } from './store.js';

const MATCH = { title: 'Imagine', artist: 'John Lennon', url: 'https://x/1', image: null, price: '$1.29' };

describe('openSongStore', () => {
  let dir: string;
  let path: string;
  let store: SongStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'songs-store-'));
    path = join(dir, 'nested', 'songs.sqlite');
    store = openSongStore(path);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the file and migrates it to the current schema when opened the first time', () => {
    const db = new Database(path, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), 1);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
      assert.deepEqual(tables.map((table) => table.name), ['lookups', 'songs']);
    } finally {
      db.close();
    }
  });

  it('seeds the demo songs only into an empty store', () => {
    assert.equal(store.seedIfEmpty(DEMO_SONGS), true);
    assert.equal(store.countSongs(), DEMO_SONGS.length);
    assert.equal(store.seedIfEmpty([{ id: 999, name: 'x', artist: 'y', album: null, year: null }]), false);
    assert.equal(store.getSong(999), undefined);
    assert.deepEqual(store.getSong(21), DEMO_SONGS[20]);
  });

  it('keeps songs and lookups when reopened', () => {
    store.upsertSongs([{ id: 5, name: 'Imagine', artist: 'John Lennon', album: null, year: 1971 }]);
    store.saveLookup({ songId: 5, provider: 'itunes', fetchedAt: 1000, raw: { resultCount: 1, results: [{ trackName: 'Imagine' }] }, match: MATCH });
    store.close();
    store = openSongStore(path);
    assert.equal(store.getSong(5)?.name, 'Imagine');
    assert.deepEqual(store.getLookup(5, 'itunes'), {
      songId: 5,
      provider: 'itunes',
      fetchedAt: 1000,
      raw: { resultCount: 1, results: [{ trackName: 'Imagine' }] },
      match: MATCH,
    });
    assert.deepEqual(store.getSavedMatch(5, 'itunes'), { fetchedAt: 1000, match: MATCH });
    assert.equal(store.getSavedMatch(5, 'amazon'), undefined);
  });

  it('counts inserts, updates and unchanged rows and drops lookups of renamed songs', () => {
    store.upsertSongs([
      { id: 1, name: 'A', artist: 'X', album: null, year: null },
      { id: 2, name: 'B', artist: 'Y', album: null, year: null },
    ]);
    store.saveLookup({ songId: 1, provider: 'itunes', fetchedAt: 1, raw: {}, match: null });
    store.saveLookup({ songId: 2, provider: 'itunes', fetchedAt: 1, raw: {}, match: null });
    const summary = store.upsertSongs([
      { id: 1, name: 'A (renamed)', artist: 'X', album: null, year: null },
      { id: 2, name: 'B', artist: 'Y', album: 'An album', year: 2001 },
      { id: 3, name: 'C', artist: 'Z', album: null, year: null },
      { id: 3, name: 'C', artist: 'Z', album: null, year: null },
    ]);
    assert.deepEqual(summary, { inserted: 1, updated: 2, unchanged: 1, lookupsCleared: 1 });
    assert.equal(store.getLookup(1, 'itunes'), undefined);
    assert.notEqual(store.getLookup(2, 'itunes'), undefined);
  });

  it('saves nothing of an import when one song is refused by the database', () => {
    assert.throws(() =>
      store.upsertSongs([
        { id: 1, name: 'A', artist: 'X', album: null, year: null },
        { id: 0, name: 'Zero', artist: 'X', album: null, year: null },
      ]),
    );
    assert.equal(store.countSongs(), 0);
  });

  it('replaces the lookup of a song and provider and lists lookups older than a time', () => {
    store.upsertSongs([
      { id: 1, name: 'A', artist: 'X', album: null, year: null },
      { id: 2, name: 'B', artist: 'Y', album: null, year: null },
    ]);
    store.saveLookup({ songId: 1, provider: 'itunes', fetchedAt: 100, raw: { n: 1 }, match: null });
    store.saveLookup({ songId: 1, provider: 'itunes', fetchedAt: 300, raw: { n: 2 }, match: MATCH });
    store.saveLookup({ songId: 2, provider: 'amazon', fetchedAt: 200, raw: { n: 3 }, match: null });
    assert.deepEqual(store.getLookup(1, 'itunes')?.raw, { n: 2 });
    assert.deepEqual(store.lookupsFetchedBefore(301), [
      { songId: 2, provider: 'amazon', fetchedAt: 200 },
      { songId: 1, provider: 'itunes', fetchedAt: 300 },
    ]);
    assert.deepEqual(store.lookupsFetchedBefore(200), []);
  });

  it('refuses a lookup for a song it does not hold', () => {
    assert.throws(() => store.saveLookup({ songId: 42, provider: 'itunes', fetchedAt: 1, raw: {}, match: null }), /FOREIGN KEY/);
  });

  it('refuses a database written by a newer sitestack', () => {
    store.close();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    assert.throws(() => openSongStore(path), /schema version 99 is newer/);
    store = openSongStore(':memory:');
  });
});
