/**
 * Search insights: what readers search for, counted per search intent (the last query of a burst), with how many
 * results it had and which result was opened. No cookie, address or identifier is part of it: a count is a query text
 * and a day. This file is the wire format between the fronts (which count) and the origin (which keeps), and the one
 * normalisation both apply. Pure.
 */
import { ERRORS } from '../../error-codes.js';
import { isObject } from '../merge-patch.js';

export const INSIGHT_LIMITS = {
  /** Characters (code points) of a query kept; longer ones are cut. */
  queryLength: 100,
  /** Characters of an opened result's path. */
  urlLength: 300,
  /** Opened results counted per query and day: the most opened are what an editor reads. */
  opensPerQuery: 5,
  /** Entries one flush from a front carries. */
  entriesPerBatch: 1_000,
  /** A count in one entry: far above what a front counts in a flush. */
  maxCount: 1_000_000,
} as const;

/** One query's counts for one day, as a front sends them. */
export interface InsightEntry {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** Normalised (normaliseQuery). */
  q: string;
  /** Search intents. */
  searches: number;
  /** Those of them that found nothing. */
  no_results: number;
  /** Those of them after which a result was opened. */
  clicks: number;
  /** Results of the latest search. */
  results: number;
  /** Opened result path → times. */
  opens: Record<string, number>;
}

/** NFKC, lower case, trimmed, white space runs as one space, at most INSIGHT_LIMITS.queryLength code points. */
export function normaliseQuery(text: string): string {
  const normal = text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  const points = [...normal];
  return points.length <= INSIGHT_LIMITS.queryLength ? normal : points.slice(0, INSIGHT_LIMITS.queryLength).join('').trimEnd();
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A result path a reader may have opened: a path on the site, visible ASCII, bounded. */
export function validOpenedPath(value: unknown): value is string {
  return typeof value === 'string' && value.length <= INSIGHT_LIMITS.urlLength && /^\/(?!\/)[\x21-\x7e]*$/.test(value);
}

const invalid = ERRORS.INVALID_INPUT;
// Control characters and lone surrogates: a query is shown to editors as text, and must be one line of it.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNREADABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a reader's query is text an editor can be shown: no control characters or lone surrogates. */
export function readableQuery(text: string): boolean {
  return !UNREADABLE.test(text);
}

function count(record: Record<string, unknown>, name: string, where: string): number {
  const value = record[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > INSIGHT_LIMITS.maxCount) {
    throw invalid(`${where}.${name}`, `must be a whole number from 0 to ${INSIGHT_LIMITS.maxCount}`);
  }
  return value;
}

function entry(value: unknown, where: string): InsightEntry {
  if (!isObject(value)) throw invalid(where, 'must be an object');
  const day = value.day;
  if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw invalid(`${where}.day`, 'must be a date YYYY-MM-DD');
  if (typeof value.q !== 'string' || !readableQuery(value.q)) throw invalid(`${where}.q`, 'must be a string without control characters');
  const q = normaliseQuery(value.q);
  if (q === '') throw invalid(`${where}.q`, 'must not be empty');
  const searches = count(value, 'searches', where);
  const opens: Record<string, number> = {};
  const given = value.opens ?? {};
  if (!isObject(given) || Object.keys(given).length > INSIGHT_LIMITS.opensPerQuery) throw invalid(`${where}.opens`, `must be an object of at most ${INSIGHT_LIMITS.opensPerQuery} paths`);
  for (const path of Object.keys(given)) {
    if (!validOpenedPath(path)) throw invalid(`${where}.opens`, 'must name site paths (/…, visible ASCII)');
    opens[path] = count(given, path, `${where}.opens`);
  }
  return { day, q, searches, no_results: Math.min(count(value, 'no_results', where), searches), clicks: count(value, 'clicks', where), results: count(value, 'results', where), opens };
}

/** A front's flush: `{ "entries": [InsightEntry…] }`, each field checked, queries normalised again. */
export function parseInsightBatch(body: unknown): InsightEntry[] {
  if (!isObject(body) || !Array.isArray(body.entries)) throw invalid('body', 'must be an object with an entries array');
  if (body.entries.length > INSIGHT_LIMITS.entriesPerBatch) throw invalid('entries', `must hold at most ${INSIGHT_LIMITS.entriesPerBatch} entries`);
  return body.entries.map((item, index) => entry(item, `entries[${index}]`));
}
