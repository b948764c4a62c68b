/**
 * Finding invalid UTF-8 in what clients send, so a request is refused naming the field instead of its bad bytes being
 * stored as U+FFFD. Pure: no I/O.
 */
import { firstInvalidUtf8 } from '@sitestack/page-cache';

// The JSON rule is the page cache's own, which it keeps inside its package for its purge route: one implementation.
export { firstInvalidUtf8, jsonPathAt, jsonUtf8Problem } from '@sitestack/page-cache';

/**
 * Characters as a reader counts them, which is what every text limit counts: code points, so `😀` is one where
 * `length` gives its two UTF-16 units. A lone surrogate counts as one.
 */
export function characterCount(value: string): number {
  let count = 0;
  for (let at = 0; at < value.length; at++) {
    const unit = value.charCodeAt(at);
    const pairsWithPrevious = unit >= 0xdc00 && unit <= 0xdfff && at > 0 && (value.charCodeAt(at - 1) & 0xfc00) === 0xd800;
    if (!pairsWithPrevious) count++;
  }
  return count;
}

const PERCENT = 0x25;
const PLUS = 0x2b;

/** One name or value of a form body as the bytes it stands for: `+` is a space, `%XX` a byte, anything else itself. */
function formBytes(raw: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let at = 0; at < raw.length; at++) {
    const byte = raw[at] as number;
    const hex = byte === PERCENT ? Buffer.from(raw.subarray(at + 1, at + 3)).toString('latin1') : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      at += 2;
    } else out.push(byte === PLUS ? 0x20 : byte);
  }
  return Uint8Array.from(out);
}

/**
 * What invalid UTF-8 makes of an `application/x-www-form-urlencoded` body, raw or percent-encoded (`%FF`), which
 * URLSearchParams would silently turn into U+FFFD: undefined when every name and value is UTF-8, else a message naming
 * the field (`comment is not valid UTF-8`), or `a field name in the form` when a name itself is bad.
 */
export function formUtf8Problem(body: Uint8Array): string | undefined {
  let start = 0;
  while (start <= body.length) {
    const end = body.indexOf(0x26, start) === -1 ? body.length : body.indexOf(0x26, start);
    const pair = body.subarray(start, end);
    const equals = pair.indexOf(0x3d);
    const name = formBytes(equals === -1 ? pair : pair.subarray(0, equals));
    const value = formBytes(equals === -1 ? new Uint8Array() : pair.subarray(equals + 1));
    if (firstInvalidUtf8(name) >= 0) return 'a field name in the form is not valid UTF-8';
    if (firstInvalidUtf8(value) >= 0) return `${Buffer.from(name).toString('utf8').slice(0, 40)} is not valid UTF-8`;
    start = end + 1;
  }
  return undefined;
}
