/**
 * Song ids in URLs and catalogues: a positive decimal integer without sign, exponent or leading zeros, at most
 * Number.MAX_SAFE_INTEGER. Leading zeros are refused so that each song has exactly one URL (and one proxy cache entry).
 */
const SONG_ID = /^[1-9][0-9]{0,15}$/;

/** Returns the id `text` denotes, or undefined when it is not a valid song id. */
export function parseSongId(text: string): number | undefined {
  if (!SONG_ID.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}
