import { ERRORS } from '../error-codes.js';
import { CATEGORY_NAME_MAX_LENGTH, isCategoryName } from '../categories.js';
import { characterCount } from '../http/index.js';
import { POST_FORMATS, type PostFormat } from './markdown/index.js';
import { parsePublishAt, parseState, type PostState } from './publication.js';

/** A post identifier: a lower-case slug, so it is safe in a URL path and in a cache key as it stands. */
export const OID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const OID_MAX_LENGTH = 100;

export const LIMITS = {
  titleLength: 200,
  summaryLength: 1_000,
  bodyLength: 500_000,
  categories: 10,
  categoryLength: CATEGORY_NAME_MAX_LENGTH,
  nameLength: 80,
  commentLength: 5_000,
} as const;

/** Bytes of JSON's longest spelling of one character: two `\\uXXXX` escapes (a surrogate pair), as ASCII-only encoders write. */
const MAX_JSON_BYTES_PER_CHARACTER = 12;
/** Field names, punctuation, dates and whitespace around the text fields. */
const JSON_FRAME_BYTES = 4096;

/**
 * Request body limits in bytes, derived from the character limits above: every text field at its limit fits, however
 * its characters are spelled in JSON (raw UTF-8 of up to 4 bytes, or escapes). So a client meets a character limit
 * (400 naming the field) before it meets a byte limit (413), whatever characters it writes.
 */
export const BODY_LIMITS = {
  // The body counts twice: GET's answer sent back holds the source (body) and its HTML (body_html).
  post: (LIMITS.titleLength + LIMITS.summaryLength + 2 * LIMITS.bodyLength + LIMITS.categories * LIMITS.categoryLength) * MAX_JSON_BYTES_PER_CHARACTER + JSON_FRAME_BYTES,
  comment: (LIMITS.nameLength + LIMITS.commentLength) * MAX_JSON_BYTES_PER_CHARACTER + JSON_FRAME_BYTES,
} as const;

export interface PostInput {
  title: string;
  /** How `body` is read. @default 'html' */
  format?: PostFormat;
  /** The source as written: Markdown or HTML, rendered and sanitised into the HTML readers get when stored. */
  body: string;
  summary: string;
  categories: string[];
  /** ISO 8601, UTC, millisecond precision. A scheduled post is dated its `publish_at` when stored. */
  pub_date: string;
  /** Who sees the post (publication.ts). @default 'published' */
  state?: PostState;
  /** When a scheduled post appears (ISO 8601 UTC); required with state `scheduled`, absent with any other. */
  publish_at?: string;
}

export interface CommentInput {
  name: string;
  comment: string;
}

const invalid = ERRORS.INVALID_INPUT;

// Control characters (C0 and C1) except tab, line feed and carriage return, plus lone surrogates.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// In one-line fields (titles, names) tabs, line breaks and bidi overrides, which can disguise a name, are refused too.
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function parseOid(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > OID_MAX_LENGTH || !OID_PATTERN.test(value)) {
    throw ERRORS.INVALID_OID(OID_MAX_LENGTH);
  }
  return value;
}

export function parseCommentId(value: unknown): number {
  const id = typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw ERRORS.INVALID_COMMENT_ID();
  return id;
}

export function requireObject(body: unknown, fields: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('body', `must be a JSON object with ${fields.join(', ')}`);
  }
  const unknownFields = Object.keys(body).filter((key) => !fields.includes(key));
  if (unknownFields.length > 0) throw invalid('unknown field(s):', `${unknownFields.slice(0, 5).map((f) => JSON.stringify(f.slice(0, 40))).join(', ')}`);
  return body as Record<string, unknown>;
}

function text(
  record: Record<string, unknown>,
  field: string,
  options: { min: number; max: number; multiline: boolean },
): string {
  const raw = record[field];
  if (raw === undefined) throw invalid(field, 'is required');
  if (typeof raw !== 'string') throw invalid(field, 'must be a string');
  const value = raw.normalize('NFC').trim();
  if (value.length < options.min) throw invalid(field, 'must not be empty');
  if (characterCount(value) > options.max) throw invalid(field, `must be at most ${options.max} characters`);
  if ((options.multiline ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(value)) {
    throw invalid(field, 'must not contain control characters');
  }
  return value;
}

const CATEGORY_NAME_RULE = `1-${LIMITS.categoryLength} letters, digits, spaces or . _ + # -, starting with a letter or digit`;

function categories(record: Record<string, unknown>): string[] {
  const raw = record.categories ?? [];
  if (!Array.isArray(raw)) throw invalid('categories', 'must be an array of strings');
  if (raw.length > LIMITS.categories) throw invalid('categories', `must hold at most ${LIMITS.categories} entries`);
  const seen = new Set<string>();
  for (const entry of raw) {
    if (typeof entry !== 'string') throw invalid('categories', 'must be an array of strings');
    const value = entry.normalize('NFC').trim();
    if (!isCategoryName(value)) throw invalid('each category', `must be ${CATEGORY_NAME_RULE}`);
    seen.add(value);
  }
  return [...seen];
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Accepts `YYYY-MM-DD` (midnight UTC) or a full ISO 8601 date-time with a zone; answers the UTC ISO form. */
export function parsePubDate(value: unknown): string {
  const match = typeof value === 'string' ? DATE_PATTERN.exec(value) : null;
  if (match === null || typeof value !== 'string') {
    throw invalid('pub_date', 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone');
  }
  const [, year, month, day] = match;
  const date = new Date(match[4] === undefined ? `${value}T00:00:00Z` : value);
  const calendarDay = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (
    Number.isNaN(date.getTime()) ||
    calendarDay.getUTCMonth() !== Number(month) - 1 ||
    calendarDay.getUTCDate() !== Number(day) ||
    Number(year) < 1970 ||
    Number(year) > 9999
  ) {
    throw invalid('pub_date', 'is not a real calendar date between 1970 and 9999');
  }
  return date.toISOString();
}

const POST_FIELDS = ['title', 'format', 'body', 'body_html', 'summary', 'categories', 'pub_date', 'state', 'publish_at'] as const;

/**
 * What a write is compared with to tell which of `body` and `body_html` an editor changed; its `pub_date` dates a draft
 * saved without one.
 */
export type StoredBody = Pick<PostInput, 'body'> & { body_html: string; pub_date?: string };

/**
 * The state and its dates. A published post needs its `pub_date` (as before states); a scheduled one needs
 * `publish_at` and is dated by it (a `pub_date` given too is checked, then replaced); a draft may leave `pub_date` out
 * (it keeps the stored one, or is dated `now`). `publish_at` with another state than `scheduled` is refused unless null,
 * so a client that meant to schedule a post never publishes it by mistake.
 */
function standing(record: Record<string, unknown>, stored: StoredBody | undefined, now: Date): Pick<PostInput, 'state' | 'pub_date' | 'publish_at'> {
  const state = parseState(record.state);
  const given = record.pub_date;
  if (state === 'scheduled') {
    if (record.publish_at === undefined || record.publish_at === null) throw invalid('publish_at', 'is required when state is "scheduled"');
    if (given !== undefined && given !== null) parsePubDate(given);
    const publishAt = parsePublishAt(record.publish_at);
    return { state, publish_at: publishAt, pub_date: publishAt };
  }
  if (record.publish_at !== undefined && record.publish_at !== null) {
    throw invalid('publish_at', `is only for a scheduled post (state "scheduled"); with state "${state}" leave it out or null`);
  }
  if (state === 'draft' && (given === undefined || given === null)) return { state, pub_date: stored?.pub_date ?? now.toISOString() };
  // Left out, the state is the default one, and the input is what it was before states.
  return record.state === undefined || record.state === null ? { pub_date: parsePubDate(given) } : { state, pub_date: parsePubDate(given) };
}

function format(record: Record<string, unknown>): PostFormat {
  const value = record.format ?? 'html';
  if (!POST_FORMATS.includes(value as PostFormat)) throw invalid('format', `must be one of ${POST_FORMATS.map((name) => `"${name}"`).join(', ')}`);
  return value as PostFormat;
}

/**
 * Which field holds the source. `body` is the source and `body_html` what it renders to, so GET's answer sent back
 * holds both: the one the editor changed since (compared with the stored post) is the source. `body_html` alone is a
 * client from before formats, whose body was always HTML.
 */
function sourceField(record: Record<string, unknown>, postFormat: PostFormat, stored: StoredBody | undefined): 'body' | 'body_html' {
  const { body, body_html: html } = record;
  if (body === undefined && html === undefined) throw invalid('body', 'is required (as body, or as body_html)');
  let field: 'body' | 'body_html';
  if (html === undefined || body === html || (stored !== undefined && html === stored.body_html)) field = 'body';
  else if (body === undefined || (stored !== undefined && body === stored.body)) field = 'body_html';
  else throw invalid('body', 'must be given as body or as body_html, not both (body_html is rendered from body: change one of them)');
  if (field === 'body_html' && postFormat === 'markdown') {
    throw invalid('body_html', 'is rendered from body in a Markdown post: change body, or set format to "html"');
  }
  return field;
}

/**
 * Checks an admin's post fields. The source is `body`, or `body_html` as `GET` names the HTML (see sourceField);
 * `format` says how to read it (`html` when left out, as before formats). The source is stored as written; what
 * readers get is rendered from it and sanitised when stored.
 */
export function parsePostInput(body: unknown, stored?: StoredBody, now: Date = new Date()): PostInput {
  const record = requireObject(body, POST_FIELDS);
  const postFormat = format(record);
  return {
    title: text(record, 'title', { min: 1, max: LIMITS.titleLength, multiline: false }),
    format: postFormat,
    body: text(record, sourceField(record, postFormat, stored), { min: 1, max: LIMITS.bodyLength, multiline: true }),
    summary: record.summary === undefined ? '' : text(record, 'summary', { min: 0, max: LIMITS.summaryLength, multiline: true }),
    categories: categories(record),
    ...standing(record, stored, now),
  };
}

/** Checks a reader's comment. Comments are untrusted text: stored as text and always rendered escaped. */
export function parseCommentInput(body: unknown): CommentInput {
  const record = requireObject(body, ['name', 'comment']);
  return {
    name: text(record, 'name', { min: 1, max: LIMITS.nameLength, multiline: false }),
    comment: text(record, 'comment', { min: 1, max: LIMITS.commentLength, multiline: true }),
  };
}

/**
 * The list endpoint's query: `category` narrows the list to that category's posts (the name as stored, compared
 * exactly, so `web` is not `Web`; NFC-normalized first, as writes are). Empty or absent: every post. Any other
 * parameter is refused, so a misspelt one does not quietly answer every post.
 */
export function parseListQuery(query: unknown): { category: string | undefined } {
  const record = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const unknownNames = Object.keys(record).filter((name) => name !== 'category');
  if (unknownNames.length > 0) {
    throw invalid('unknown query parameter(s):', `${unknownNames.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40))).join(', ')}; use category`);
  }
  const value = record.category;
  if (value === undefined || value === '') return { category: undefined };
  if (typeof value !== 'string') throw invalid('category', 'must be given once');
  const name = value.normalize('NFC');
  if (!isCategoryName(name)) throw invalid('category', `must be ${CATEGORY_NAME_RULE}, with no space at either end`);
  return { category: name };
}
