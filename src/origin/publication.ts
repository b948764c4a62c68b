import { ERRORS } from '../error-codes.js';

/*
 * The publication rules: which posts readers see, and what a state change makes of a post's dates. Pure: the store
 * applies them inside its transactions, the scheduler asks when to run next.
 */

/** A draft is the editor's alone; a scheduled post becomes visible at its `publish_at`; a published one is visible. */
export type PostState = 'draft' | 'scheduled' | 'published';

export const POST_STATES: readonly PostState[] = ['draft', 'scheduled', 'published'];

/** Where a post stands: its state, and its time when scheduled (ISO 8601 UTC as `toISOString` writes it, else null). */
export interface Standing {
  state: PostState;
  publish_at: string | null;
}

/** What a write asks for: a state, its time when scheduled, and the post's publication date. */
export interface StandingInput {
  state?: PostState | undefined;
  publish_at?: string | null | undefined;
  pub_date: string;
}

/**
 * Whether readers see a post at `now` (an ISO string as `toISOString` writes it): published, or scheduled and due. A
 * due post is visible before the scheduler has announced it, so every read agrees with the clock; the scheduler's
 * sweep only brings the caches and search in line.
 */
export function isVisible(standing: Standing, now: string): boolean {
  return standing.state === 'published' || (standing.state === 'scheduled' && standing.publish_at !== null && standing.publish_at <= now);
}

/**
 * The same rule in SQL over the `posts` columns, with the time as the named parameter `@now`. ISO strings of years
 * 1970–9999 all have one length, so they compare as the times they name.
 */
export const VISIBLE_SQL = `(state = 'published' OR (state = 'scheduled' AND publish_at <= @now))`;

/**
 * What is stored for a write at `now`: a scheduled post is dated its `publish_at` (it appears in listings and the feed
 * at that time); one whose time has already come is published at once with that date, as the sweep would publish it.
 * Any other state keeps no time.
 */
export function settle(input: StandingInput, now: string): Standing & { pub_date: string } {
  const state = input.state ?? 'published';
  if (state !== 'scheduled') return { state, publish_at: null, pub_date: input.pub_date };
  const at = input.publish_at;
  if (at === null || at === undefined) throw ERRORS.INVALID_INPUT('publish_at', 'is required when state is "scheduled"');
  return at <= now ? { state: 'published', publish_at: null, pub_date: at } : { state, publish_at: at, pub_date: at };
}

/** A state change without the body (Publish, Unpublish, Schedule): what the post becomes at `now`. */
export function changeStanding(
  current: Standing & { pub_date: string },
  target: PostState,
  publishAt: string | undefined,
  now: string,
): Standing & { pub_date: string } {
  if (target === 'published') {
    // Publishing what readers already see changes nothing; otherwise the post is dated the moment it appears.
    return isVisible(current, now) ? { state: 'published', publish_at: null, pub_date: current.pub_date } : { state: 'published', publish_at: null, pub_date: now };
  }
  if (target === 'draft') return { state: 'draft', publish_at: null, pub_date: current.pub_date };
  return settle({ state: 'scheduled', publish_at: publishAt, pub_date: current.pub_date }, now);
}

/**
 * What a change does to readers: nothing; shows a post they could not see (`appears`: a draft or a scheduled post
 * published, whose publication warms the fronts; `created`: a new post written as published, as before states, which
 * does not); hides it; or changes what they see.
 */
export type Visibility = 'unseen' | 'appears' | 'created' | 'disappears' | 'changes';

export function visibilityChange(before: Standing | undefined, after: Standing | undefined, now: string): Visibility {
  const was = before !== undefined && isVisible(before, now);
  const is = after !== undefined && isVisible(after, now);
  if (was && is) return 'changes';
  if (was) return 'disappears';
  if (!is) return 'unseen';
  return before === undefined ? 'created' : 'appears';
}

/** A state that must be given: one of the three names, nothing else. */
export function requireState(value: unknown): PostState {
  if (typeof value !== 'string' || !POST_STATES.includes(value as PostState)) {
    throw ERRORS.INVALID_INPUT('state', `must be one of ${POST_STATES.map((name) => `"${name}"`).join(', ')}`);
  }
  return value as PostState;
}

/** The API's `state`: left out or null it is `published`, as before states. */
export function parseState(value: unknown): PostState {
  return value === undefined || value === null ? 'published' : requireState(value);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A publication time: an ISO 8601 date-time with its zone (a bare date or a time without a zone would leave the
 * moment to guess), a real one from 1970 to 9999, answered in UTC as `toISOString` writes it.
 */
export function parsePublishAt(value: unknown): string {
  const problem = 'must be an ISO 8601 date-time with a zone, such as 2026-12-01T09:30:00Z or 2026-12-01T10:30:00+01:00';
  if (typeof value !== 'string') throw ERRORS.INVALID_INPUT('publish_at', problem);
  const match = DATE_TIME.exec(value);
  if (match === null) throw ERRORS.INVALID_INPUT('publish_at', problem);
  const [, year, month, day, hour, minute, second, , zone] = match;
  const date = new Date(value);
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const zoneOk = zone === 'Z' || (Number(zone?.slice(1, 3)) <= 23 && Number(zone?.slice(4, 6)) <= 59);
  if (
    Number.isNaN(date.getTime()) ||
    !zoneOk ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second ?? 0) > 59 ||
    calendar.getUTCMonth() !== Number(month) - 1 ||
    calendar.getUTCDate() !== Number(day) ||
    date.getUTCFullYear() < 1970 ||
    date.getUTCFullYear() > 9999
  ) {
    throw ERRORS.INVALID_INPUT('publish_at', 'is not a real date-time between 1970 and 9999');
  }
  return date.toISOString();
}
