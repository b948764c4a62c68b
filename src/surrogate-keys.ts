import { createHash } from 'node:crypto';
import { MAX_KEY_LENGTH } from '@sitestack/page-cache';

/**
 * Surrogate keys: the names the renderer gives what a response shows (`Surrogate-Key`), and the origin purges by. One
 * module names them for both sides, so a key the origin purges is the key a page was stored under; each is a valid
 * key of the page cache (1–256 visible ASCII characters). Pure.
 */

/**
 * Longest `Surrogate-Key` value the renderer sends. nginx reads every header of an upstream answer into one buffer of
 * a memory page (4 KB) and answers 502 when they do not fit, so the keys keep to half of that.
 */
export const SURROGATE_KEY_HEADER_MAX_LENGTH = 2_048;

/** RFC 3986's unreserved characters, the only ones a key part keeps as they are. */
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * The UTF-8 bytes of one code point, lone surrogates included (WTF-8): `TextEncoder` would turn every lone surrogate
 * into U+FFFD and so give two different strings one key.
 */
function codePointBytes(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  return [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
}

/** `!` never appears in a percent-encoding, so it marks a part cut short and ended by a hash. */
const HASH_MARK = '!';
const HASH_LENGTH = 43;

/**
 * Any text as a key part of visible ASCII at most `maxLength` long (which leaves room for the hash): each code point's bytes
 * percent-encoded (upper-case hex) unless unreserved, so `Web` stays `Web` and `Café au lait` is `Caf%C3%A9%20au%20lait`.
 * Different texts give different parts: an encoding longer than `maxLength` is cut at a code point and ends with `!`
 * and the SHA-256 of the whole text's bytes (base64url), which no encoding that fits contains.
 */
export function encodeKeyPart(text: string, maxLength: number): string {
  const pieces: string[] = [];
  const bytes: number[] = [];
  let length = 0;
  for (let index = 0; index < text.length; ) {
    const codePoint = text.codePointAt(index) ?? 0;
    index += codePoint > 0xffff ? 2 : 1;
    const character = String.fromCodePoint(codePoint);
    const encoded = codePointBytes(codePoint);
    bytes.push(...encoded);
    const piece = UNRESERVED.test(character) ? character : encoded.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    pieces.push(piece);
    length += piece.length;
  }
  if (length <= maxLength) return pieces.join('');
  const hash = createHash('sha256').update(Uint8Array.from(bytes)).digest('base64url');
  let kept = '';
  for (const piece of pieces) {
    if (kept.length + piece.length > maxLength - HASH_LENGTH - HASH_MARK.length) break;
    kept += piece;
  }
  return `${kept}${HASH_MARK}${hash}`;
}

/**
 * A surrogate key before it is encoded: a fixed key as it is sent, or a prefix and any text, which {@link surrogateKey}
 * encodes. The page registry names every key this way (renderer/pages/), since the encoding's hash cannot go into the
 * client bundle that shares the registry's addresses.
 */
export type KeyName = string | readonly [prefix: string, text: string];

/** The key `name` names: a fixed key as it is, a prefix followed by its text as a key part (`category:Caf%C3%A9`). */
export function surrogateKey(name: KeyName): string {
  if (typeof name === 'string') return name;
  const [prefix, text] = name;
  return `${prefix}${encodeKeyPart(text, MAX_KEY_LENGTH - prefix.length)}`;
}

/** `post:<oid>`: every response that shows the post (its page, a listing, the feed) carries it. */
export function postKey(oid: string): string {
  return surrogateKey(['post:', oid]);
}

/** `category:<name>`, the name percent-encoded: the category's page carries it. */
export function categoryKey(name: string): string {
  return surrogateKey(['category:', name]);
}

/**
 * The `Surrogate-Key` value of `keys`: each once, in the order given, space-separated, at most `maxLength` long. Keys
 * past the bound are left out, so callers put first the keys a purge must be able to find the page by.
 */
export function surrogateKeyHeader(keys: Iterable<string>, maxLength = SURROGATE_KEY_HEADER_MAX_LENGTH): string {
  const seen = new Set<string>();
  let value = '';
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    const next = value === '' ? key : `${value} ${key}`;
    if (next.length > maxLength) break;
    value = next;
  }
  return value;
}
