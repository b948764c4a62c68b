import type { RedisClient } from './connection.js';
import type { FleetKeys } from './options.js';
import { MEMBERS_SCRIPT } from './scripts.js';
import { isStreamId } from './stream-ids.js';

/** What a front announces in its heartbeat. */
export interface Announcement {
  /** The front's own address (scheme, host, port). */
  address: string;
  /** The last stream entry it applied. */
  lastId: string;
  /** When it started (ms since the epoch, its own clock). */
  startedAt: number;
  pid: number;
  host: string;
}

/** A live front as the fleet sees it. */
export interface FleetFront extends Announcement {
  id: string;
  /** Stream entries after its last applied id (at most the listing's bound; -1: its announcement names no id). */
  lag: number;
  /** Time since its last heartbeat, by Redis's clock (ms). */
  heartbeatAgeMs: number;
}

/** The most entries counted as one front's lag: a front further behind shows this many. */
export const LAG_COUNT_LIMIT = 1_000;

function text(value: unknown, fallback: string, maxLength = 512): string {
  return typeof value === 'string' ? value.slice(0, maxLength) : fallback;
}

function whole(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;
}

/** An announcement as written by anyone: fields of the wrong kind read as empty, never as a failure. */
export function parseAnnouncement(json: string): Announcement {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = {};
  }
  const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const lastId = text(fields['lastId'], '');
  return {
    address: text(fields['address'], ''),
    lastId: isStreamId(lastId) ? lastId : '',
    startedAt: whole(fields['startedAt']),
    pid: whole(fields['pid']),
    host: text(fields['host'], '', 255),
  };
}

/** The fronts alive (heartbeat within `ttlMs`), oldest heartbeat first; trims the ones gone as it reads. */
export async function liveFronts(redis: RedisClient, keys: FleetKeys, ttlMs: number): Promise<FleetFront[]> {
  const reply = (await redis.eval(MEMBERS_SCRIPT, 3, keys.members, keys.announcements, keys.stream, ttlMs, LAG_COUNT_LIMIT)) as unknown[];
  const now = Number(reply[0]);
  const fronts: FleetFront[] = [];
  for (let index = 1; index + 3 < reply.length; index += 4) {
    const id = String(reply[index]);
    const heartbeat = Number(reply[index + 1]);
    fronts.push({ id, ...parseAnnouncement(String(reply[index + 2])), lag: Number(reply[index + 3]), heartbeatAgeMs: Math.max(0, now - heartbeat) });
  }
  return fronts;
}
