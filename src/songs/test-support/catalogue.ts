import type { Song } from '../types.js';

/** A recording the stand-ins sell. */
export interface StandInTrack {
  id: number;
  title: string;
  artist: string;
  album: string;
  price: number;
  currency: string;
}

/**
 * What the stand-ins sell for a song list: for every song a karaoke cover listed before the real recording (so taking
 * the first row would pick the wrong one), and the real recording, on odd ids with a remaster annotation as stores
 * write it.
 */
export function standInCatalogue(songs: readonly Song[]): StandInTrack[] {
  return songs.flatMap((song) => [
    { id: song.id * 10 + 1, title: `${song.name} (Karaoke Version)`, artist: 'Party Tyme Karaoke', album: `Sing Like ${song.artist}`, price: 0.99, currency: 'USD' },
    {
      id: song.id * 10 + 2,
      title: song.id % 2 === 1 ? `${song.name} (Remastered 2011)` : song.name,
      artist: song.artist,
      album: song.album ?? song.name,
      price: 1.29,
      currency: 'USD',
    },
  ]);
}
