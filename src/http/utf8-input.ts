/**
 * Finding invalid UTF-8 in what clients send, so a request is refused naming the field instead of its bad bytes being
 * stored as U+FFFD. Pure: no I/O.
 */
import { isUtf8 } from 'node:buffer';

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence (overlong forms, surrogates, code points
 * past U+10FFFF and cut sequences included, as the WHATWG decoder judges them), or -1 when all of `bytes` is UTF-8.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  // Nearly every body is UTF-8: the native check answers that at once; only a bad one is walked to find the offset.
  if (isUtf8(bytes)) return -1;
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at] as number;
    if (lead < 0x80) {
      at++;
      continue;
    }
    let following: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) following = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      following = 2;
      if (lead === 0xe0) lower = 0xa0;
      if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      following = 3;
      if (lead === 0xf0) lower = 0x90;
      if (lead === 0xf4) upper = 0x8f;
    } else return at;
    for (let k = 1; k <= following; k++) {
      const next = bytes[at + k];
      if (next === undefined || next < (k === 1 ? lower : 0x80) || next > (k === 1 ? upper : 0xbf)) return at;
    }
    at += following + 1;
  }
  return -1;
}

type Frame = { kind: 'object'; key: string | undefined; expectingKey: boolean } | { kind: 'array'; index: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function pathOf(stack: readonly Frame[]): string {
  let path = '';
  for (const frame of stack) {
    if (frame.kind === 'array') path += `[${frame.index}]`;
    else if (frame.key !== undefined) path += path === '' ? frame.key : `.${frame.key}`;
  }
  return path;
}

/**
 * Where in a JSON text the byte at `offset` lies: the path of the string value holding it (`title`,
 * `categories[2]`, `pathnames[0]`), `a field name in <path>` inside an object's key, or undefined outside any string
 * (between values, or a JSON text that is a bare string). Only the bytes before `offset` are read, so they may be
 * anything after it; a text that is not JSON gives a best guess or undefined.
 */
export function jsonPathAt(bytes: Uint8Array, offset: number): string | undefined {
  const stack: Frame[] = [];
  let stringStart = -1;
  let isKey = false;
  for (let at = 0; at < offset; at++) {
    const byte = bytes[at] as number;
    const top = stack[stack.length - 1];
    if (stringStart >= 0) {
      if (byte === BACKSLASH) at++;
      else if (byte === QUOTE) {
        if (isKey && top?.kind === 'object') {
          top.key = keyText(bytes.subarray(stringStart, at + 1));
          top.expectingKey = false;
        }
        stringStart = -1;
      }
      continue;
    }
    if (byte === QUOTE) {
      stringStart = at;
      isKey = top?.kind === 'object' && top.expectingKey;
    } else if (byte === 0x7b) stack.push({ kind: 'object', key: undefined, expectingKey: true });
    else if (byte === 0x5b) stack.push({ kind: 'array', index: 0 });
    else if (byte === 0x7d || byte === 0x5d) stack.pop();
    else if (byte === 0x2c && top !== undefined) {
      if (top.kind === 'array') top.index++;
      else {
        top.key = undefined;
        top.expectingKey = true;
      }
    }
  }
  if (stringStart < 0) return undefined;
  const path = pathOf(stack);
  if (isKey) return `a field name in ${path === '' ? 'the body' : path}`;
  return path === '' ? undefined : path;
}

function keyText(quoted: Uint8Array): string {
  try {
    const key = JSON.parse(Buffer.from(quoted).toString('utf8')) as string;
    // A key is shown in an error message: a long or odd one is cut, as the field name it stands for cannot be that long.
    return key.length <= 40 ? key : `${key.slice(0, 40)}…`;
  } catch {
    return '?';
  }
}

/**
 * What a JSON body's invalid UTF-8 makes of it: undefined when the body is UTF-8, else a message naming the field
 * (`title is not valid UTF-8 (byte 17 of the body)`), or the body when the bad bytes are outside any string value.
 */
export function jsonUtf8Problem(bytes: Uint8Array): string | undefined {
  const offset = firstInvalidUtf8(bytes);
  if (offset < 0) return undefined;
  const where = jsonPathAt(bytes, offset) ?? 'the body';
  return `${where} is not valid UTF-8 (byte ${offset} of the body)`;
}

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
