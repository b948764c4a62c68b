import { isAscii, transcode } from 'node:buffer';

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

/** The text of a stored body (see readHits); NULL (the beginning of an empty body) is empty. */
export function bodyText(stored: string | Buffer | null | undefined): string {
  if (stored === null || stored === undefined) return '';
  return typeof stored === 'string' ? stored : stored.toString('latin1');
}

/**
 * The text of a body's first bytes as stored (see readHits): Latin-1, or UTF-8 where `utf8`, short of a character
 * that `cut` (the bytes are a beginning of a longer body) would cut. UTF-8 is converted to UTF-16 by ICU and read as
 * such: V8 decodes UTF-8 other than ASCII several times slower than ICU converts it, and decoding the beginnings of
 * a page of long Russian or Japanese results was most of a search's time.
 */
export function beginningText(bytes: Buffer | null | undefined, utf8: boolean, cut: boolean): string {
  if (bytes === null || bytes === undefined) return '';
  if (!utf8) return bytes.toString('latin1');
  const whole = cut ? bytes.subarray(0, characterStart(bytes, bytes.length)) : bytes;
  // ASCII read as Latin-1 stays a one-byte string, which later regular expressions read faster.
  return isAscii(whole) ? whole.toString('latin1') : transcode(whole, 'utf8', 'utf16le').toString('utf16le');
}

/** `end`, or the start of the UTF-8 character that the first `end` bytes would cut. */
function characterStart(bytes: Buffer, end: number): number {
  let lead = end - 1;
  while (lead > 0 && end - lead < 4 && ((bytes[lead] as number) & 0xc0) === 0x80) lead--;
  const first = bytes[lead] as number;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + length > end ? lead : end;
}
