import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrateSchema, useWriteAheadLog } from '../sqlite-schema.js';
import type { Match, SavedLookup, Song } from './types.js';

export interface ImportSummary {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Saved lookups dropped because their song's name or artist changed, so they matched another title. */
  lookupsCleared: number;
}

export interface SavedMatch {
  fetchedAt: number;
  match: Match | null;
}

export interface LookupKey {
  songId: number;
  provider: string;
  fetchedAt: number;
}

/** Songs and the provider answers saved for them. */
export interface SongStore {
  getSong(id: number): Song | undefined;
  countSongs(): number;
  /** Inserts or updates every song in one transaction: all or nothing. */
  upsertSongs(songs: readonly Song[]): ImportSummary;
  /** Inserts `songs` when the store holds no song at all; returns whether it did. */
  seedIfEmpty(songs: readonly Song[]): boolean;
  /** The whole saved lookup, with the provider's full answer. */
  getLookup(songId: number, provider: string): SavedLookup | undefined;
  /** Only the chosen match of a saved lookup: the warm path, which never reads the full answer. */
  getSavedMatch(songId: number, provider: string): SavedMatch | undefined;
  /** Saves (or replaces) the lookup of one song and provider. */
  saveLookup(lookup: SavedLookup): void;
  /** Saved lookups fetched before `before` (epoch milliseconds), oldest first. */
  lookupsFetchedBefore(before: number): LookupKey[];
  close(): void;
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE songs (
     id INTEGER PRIMARY KEY CHECK (id > 0),
     name TEXT NOT NULL,
     artist TEXT NOT NULL,
     album TEXT,
     year INTEGER
   );
   CREATE TABLE lookups (
     song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
     provider TEXT NOT NULL,
     fetched_at INTEGER NOT NULL,
     raw_json TEXT NOT NULL,
     matched INTEGER NOT NULL CHECK (matched IN (0, 1)),
     match_json TEXT,
     PRIMARY KEY (song_id, provider)
   );
   CREATE INDEX lookups_fetched_at ON lookups(fetched_at);`,
];

interface LookupRow {
  song_id: number;
  provider: string;
  fetched_at: number;
  raw_json: string;
  match_json: string | null;
}

/** Opens (creating and migrating when needed) the song store at `path`, e.g. `<dataDir>/songs.sqlite`. */
export function openSongStore(path: string): SongStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // First, so that a process opening the file while another creates it waits for it rather than fail.
  db.pragma('busy_timeout = 5000');
  useWriteAheadLog(db);
  db.pragma('foreign_keys = ON');
  try {
    migrateSchema(db, MIGRATIONS, 'songs store');
  } catch (error) {
    db.close();
    throw error;
  }

  const selectSong = db.prepare<[number], Song>('SELECT id, name, artist, album, year FROM songs WHERE id = ?');
  const countSongs = db.prepare<[], { count: number }>('SELECT count(*) AS count FROM songs');
  const insertSong = db.prepare<Song>('INSERT INTO songs (id, name, artist, album, year) VALUES (@id, @name, @artist, @album, @year)');
  const updateSong = db.prepare<Song>('UPDATE songs SET name = @name, artist = @artist, album = @album, year = @year WHERE id = @id');
  const deleteLookups = db.prepare<[number]>('DELETE FROM lookups WHERE song_id = ?');
  const selectLookup = db.prepare<[number, string], LookupRow>(
    'SELECT song_id, provider, fetched_at, raw_json, match_json FROM lookups WHERE song_id = ? AND provider = ?',
  );
  const selectMatch = db.prepare<[number, string], { fetched_at: number; match_json: string | null }>(
    'SELECT fetched_at, match_json FROM lookups WHERE song_id = ? AND provider = ?',
  );
  const upsertLookup = db.prepare<{ song_id: number; provider: string; fetched_at: number; raw_json: string; matched: number; match_json: string | null }>(
    `INSERT INTO lookups (song_id, provider, fetched_at, raw_json, matched, match_json)
     VALUES (@song_id, @provider, @fetched_at, @raw_json, @matched, @match_json)
     ON CONFLICT (song_id, provider) DO UPDATE SET
       fetched_at = excluded.fetched_at, raw_json = excluded.raw_json, matched = excluded.matched, match_json = excluded.match_json`,
  );
  const selectStale = db.prepare<[number], { song_id: number; provider: string; fetched_at: number }>(
    'SELECT song_id, provider, fetched_at FROM lookups WHERE fetched_at < ? ORDER BY fetched_at, song_id, provider',
  );

  const upsertAll = db.transaction((songs: readonly Song[]): ImportSummary => {
    const summary: ImportSummary = { inserted: 0, updated: 0, unchanged: 0, lookupsCleared: 0 };
    for (const song of songs) {
      const existing = selectSong.get(song.id);
      if (existing === undefined) {
        insertSong.run(song);
        summary.inserted++;
      } else if (existing.name === song.name && existing.artist === song.artist && existing.album === song.album && existing.year === song.year) {
        summary.unchanged++;
      } else {
        updateSong.run(song);
        summary.updated++;
        if (existing.name !== song.name || existing.artist !== song.artist) summary.lookupsCleared += deleteLookups.run(song.id).changes;
      }
    }
    return summary;
  });
  const seed = db.transaction((songs: readonly Song[]): boolean => {
    if ((countSongs.get()?.count ?? 0) > 0) return false;
    for (const song of songs) insertSong.run(song);
    return true;
  });
  // Immediate: two fronts seeding one new file at once would otherwise both read it empty.
  const seedOnce = (songs: readonly Song[]) => seed.immediate(songs);

  return {
    getSong: (id) => selectSong.get(id),
    countSongs: () => countSongs.get()?.count ?? 0,
    upsertSongs: (songs) => upsertAll(songs),
    seedIfEmpty: seedOnce,
    getLookup(songId, provider) {
      const row = selectLookup.get(songId, provider);
      if (row === undefined) return undefined;
      return {
        songId: row.song_id,
        provider: row.provider,
        fetchedAt: row.fetched_at,
        raw: JSON.parse(row.raw_json) as unknown,
        match: row.match_json === null ? null : (JSON.parse(row.match_json) as Match),
      };
    },
    getSavedMatch(songId, provider) {
      const row = selectMatch.get(songId, provider);
      if (row === undefined) return undefined;
      return { fetchedAt: row.fetched_at, match: row.match_json === null ? null : (JSON.parse(row.match_json) as Match) };
    },
    saveLookup(lookup) {
      upsertLookup.run({
        song_id: lookup.songId,
        provider: lookup.provider,
        fetched_at: lookup.fetchedAt,
        raw_json: JSON.stringify(lookup.raw) ?? 'null',
        matched: lookup.match === null ? 0 : 1,
        match_json: lookup.match === null ? null : JSON.stringify(lookup.match),
      });
    },
    lookupsFetchedBefore: (before) =>
      selectStale.all(before).map((row) => ({ songId: row.song_id, provider: row.provider, fetchedAt: row.fetched_at })),
    close: () => db.close(),
  };
}
