/**
 * Finding invalid UTF-8 in a purge body, so that it is refused naming the field instead of its bad bytes being purged
 * as U+FFFD, a pathname no page has. Pure: no I/O.
 */
import { isUtf8 } from 'node:buffer';

const REPLACEMENT = '\ufffd';
/** U+FFFD as UTF-8: a body may hold it well-formed, and then it is no sign of a bad byte. */
const REPLACEMENT_BYTES = Buffer.from(REPLACEMENT, 'utf8');

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence, as the WHATWG decoder judges it
 * (overlong forms, surrogates, code points past U+10FFFF and cut sequences included), or -1 when all of `bytes` is
 * UTF-8. The decoder puts U+FFFD for each bad sequence; the first one the bytes do not hold themselves is the offset.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  const text = new TextDecoder('utf-8').decode(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  let read = 0;
  for (let at = text.indexOf(REPLACEMENT); at !== -1; at = text.indexOf(REPLACEMENT, at + 1)) {
    offset += Buffer.byteLength(text.slice(read, at));
    read = at + 1;
    if (!buffer.subarray(offset, offset + REPLACEMENT_BYTES.length).equals(REPLACEMENT_BYTES)) return offset;
    offset += REPLACEMENT_BYTES.length;
  }
  return -1;
}

/** A string of the JSON text, closed or cut at the end of what is read, or one of the characters that shape a path. */
const TOKEN = /"((?:[^"\\]|\\[\s\S]?)*)("?)|[{}[\],]/g;

/** One object (`index` undefined) or array the read bytes are inside. */
interface Level {
  key: string | undefined;
  expectingKey: boolean;
  index: number | undefined;
}

/** A field name as an error message shows it: a long or odd one is cut, as the name it stands for cannot be that long. */
function fieldName(quoted: string): string {
  try {
    const key = JSON.parse(Buffer.from(quoted, 'latin1').toString('utf8')) as string;
    return key.length <= 40 ? key : `${key.slice(0, 40)}…`;
  } catch {
    return '?';
  }
}

/**
 * Where in a JSON text the byte at `offset` lies: the path of the string value holding it (`pathnames[1]`, `keys[0]`),
 * `a field name in <path>` inside an object's key, or undefined outside any string. Only the bytes before `offset`
 * are read; a text that is not JSON gives a best guess or undefined.
 */
export function jsonPathAt(bytes: Uint8Array, offset: number): string | undefined {
  const read = Buffer.from(bytes.buffer, bytes.byteOffset, offset).toString('latin1');
  const levels: Level[] = [];
  for (const [token, , closing] of read.matchAll(TOKEN)) {
    const level = levels[levels.length - 1];
    if (token.startsWith('"')) {
      const isKey = level !== undefined && level.index === undefined && level.expectingKey;
      if (closing !== '"') return pathText(levels, isKey);
      if (isKey) {
        level.key = fieldName(token);
        level.expectingKey = false;
      }
    } else if (token === '{') levels.push({ key: undefined, expectingKey: true, index: undefined });
    else if (token === '[') levels.push({ key: undefined, expectingKey: false, index: 0 });
    else if (token === '}' || token === ']') levels.pop();
    else if (level?.index !== undefined) level.index++;
    else if (level !== undefined) {
      level.key = undefined;
      level.expectingKey = true;
    }
  }
  return undefined;
}

function pathText(levels: readonly Level[], isKey: boolean): string | undefined {
  let path = '';
  for (const level of levels) {
    if (level.index !== undefined) path += `[${level.index}]`;
    else if (level.key !== undefined) path += path === '' ? level.key : `.${level.key}`;
  }
  if (isKey) return `a field name in ${path === '' ? 'the body' : path}`;
  return path === '' ? undefined : path;
}

/**
 * What a JSON body's invalid UTF-8 makes of it: undefined when the body is UTF-8, else a message naming the field
 * (`keys[0] is not valid UTF-8 (byte 15 of the body)`), or the body when the bad bytes are outside any string value.
 */
export function jsonUtf8Problem(bytes: Uint8Array): string | undefined {
  const offset = firstInvalidUtf8(bytes);
  if (offset < 0) return undefined;
  return `${jsonPathAt(bytes, offset) ?? 'the body'} is not valid UTF-8 (byte ${offset} of the body)`;
}
