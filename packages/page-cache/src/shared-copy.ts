import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { restoreEntry, type CacheEntry, type EntryShape } from './entry.js';
import type { Compressed } from './negotiate.js';
import { purgeTargets, type PurgeRules } from './purge-match.js';
import type { SharedCopy } from './shared-tier.js';

/*
 * How an entry travels through the shared tier: its shape as JSON text and its bodies end to end. The compressed
 * copies are what is shared when the entry has them (a fraction of the identity body, which any process gets back
 * by decompressing one); an entry with none shares its identity body. Pure: no I/O, no clock.
 */

/** The layout version of `head`: a copy of another version is not read (a fleet mid-upgrade renders instead). */
const VERSION = 1;
/** The most pathnames a copy is found by; a key with more (contrived data-route keys) is not shared. */
const MAX_TARGETS = 64;
/** The largest identity body rebuilt from a compressed copy when the cache sets no byte bound of its own. */
const DEFAULT_MAX_IDENTITY_BYTES = 64 * 1024 * 1024;

type Part = 'identity' | Compressed;

interface Head {
  v: number;
  base: [string, string][];
  vary: string | null;
  chunked: boolean;
  compressible: boolean;
  keys: string[];
  /** null: fresh until purged (JSON has no Infinity). */
  freshUntil: number | null;
  swr: number;
  sie: number;
  parts: [Part, number][];
}

/**
 * The copy of `entry`, stored under `key`, that the tier keeps; undefined when `key` cannot be found by a purge cheaply,
 * or when the entry has a lifetime: the tier holds copies until a purge removes them, and knows nothing of clocks.
 */
export function sharedCopyOf(key: string, entry: CacheEntry, rules: PurgeRules): SharedCopy | undefined {
  if (entry.freshUntil !== Infinity) return undefined;
  const targets = purgeTargets(key, rules, MAX_TARGETS);
  if (targets === undefined) return undefined;
  const encoded = (['br', 'gzip'] as const).flatMap((coding) => (entry[coding] === undefined ? [] : [[coding, entry[coding].body] as const]));
  const bodies: (readonly [Part, Buffer])[] = encoded.length > 0 ? encoded : [['identity', entry.identity.body]];
  const head: Head = {
    v: VERSION,
    base: entry.base.map(([name, value]) => [name, value]),
    vary: entry.vary ?? null,
    chunked: entry.chunked,
    compressible: entry.compressible,
    keys: [...entry.keys],
    freshUntil: entry.freshUntil === Infinity ? null : entry.freshUntil,
    swr: entry.staleWhileRevalidateMs,
    sie: entry.staleIfErrorMs,
    parts: bodies.map(([part, body]) => [part, body.length]),
  };
  return { head: JSON.stringify(head), body: Buffer.concat(bodies.map(([, body]) => body)), targets, keys: entry.keys };
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function headOf(text: string): Head | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const head = value as Partial<Record<keyof Head, unknown>>;
  const pair = (item: unknown) => Array.isArray(item) && item.length === 2 && isString(item[0]) && isString(item[1]);
  const part = (item: unknown) => Array.isArray(item) && item.length === 2 && ['identity', 'br', 'gzip'].includes(item[0] as string) && isCount(item[1]);
  const valid =
    head.v === VERSION &&
    Array.isArray(head.base) &&
    head.base.every(pair) &&
    (head.vary === null || isString(head.vary)) &&
    typeof head.chunked === 'boolean' &&
    typeof head.compressible === 'boolean' &&
    Array.isArray(head.keys) &&
    head.keys.every(isString) &&
    (head.freshUntil === null || Number.isFinite(head.freshUntil)) &&
    isCount(head.swr) &&
    isCount(head.sie) &&
    Array.isArray(head.parts) &&
    head.parts.length > 0 &&
    head.parts.every(part);
  return valid ? (value as Head) : undefined;
}

/**
 * The entry a shared copy holds, or undefined when the copy is not one this version wrote, its bodies do not add up,
 * or a compressed body does not decompress within `maxIdentityBytes`: the cache then renders as if the tier had none.
 */
export function entryOfSharedCopy(copy: SharedCopy, maxIdentityBytes = DEFAULT_MAX_IDENTITY_BYTES): CacheEntry | undefined {
  const head = headOf(copy.head);
  if (head === undefined) return undefined;
  const bodies = new Map<Part, Buffer>();
  let offset = 0;
  for (const [part, length] of head.parts) {
    if (bodies.has(part) || offset + length > copy.body.length) return undefined;
    bodies.set(part, copy.body.subarray(offset, offset + length));
    offset += length;
  }
  if (offset !== copy.body.length) return undefined;
  const identity = bodies.get('identity') ?? decompressed(bodies, maxIdentityBytes);
  if (identity === undefined) return undefined;
  const shape: EntryShape = {
    base: head.base,
    vary: head.vary ?? undefined,
    chunked: head.chunked,
    compressible: head.compressible,
    keys: head.keys,
    freshUntil: head.freshUntil ?? Infinity,
    staleWhileRevalidateMs: head.swr,
    staleIfErrorMs: head.sie,
  };
  return restoreEntry(shape, identity, { br: bodies.get('br'), gzip: bodies.get('gzip') });
}

function decompressed(bodies: ReadonlyMap<Part, Buffer>, maxOutputLength: number): Buffer | undefined {
  try {
    const br = bodies.get('br');
    if (br !== undefined) return brotliDecompressSync(br, { maxOutputLength });
    const gzip = bodies.get('gzip');
    return gzip === undefined ? undefined : gunzipSync(gzip, { maxOutputLength });
  } catch {
    return undefined;
  }
}
