/**
 * How the documents table stores a page's body: a text of Latin-1 characters only (every ASCII page, and most pages
 * of Western European languages) as one byte per character in a BLOB, as V8 keeps such a string in memory; any other
 * text as UTF-8. Reading such a body back copies its bytes into a one-byte string, where UTF-8 is decoded character
 * by character, and highlighting reads the bodies of every page of results. Pure: no I/O.
 */

// eslint-disable-next-line no-control-regex -- the class is everything past Latin-1
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/** The value a body is stored as. */
export function storedBody(text: string): string | Buffer {
  return BEYOND_LATIN1.test(text) ? text : Buffer.from(text, 'latin1');
}

/** The text of a stored body, or of its beginning read as bytes (see readHits); NULL (the beginning of an empty body) is empty. */
export function bodyText(stored: string | Buffer | null | undefined): string {
  if (stored === null || stored === undefined) return '';
  return typeof stored === 'string' ? stored : stored.toString('latin1');
}
