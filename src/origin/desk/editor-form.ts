import type { PostFormat } from '../markdown/index.js';
import type { PostWithSource } from '../store.js';
import type { PostState } from '../publication.js';
import { utcToWallTime, wallTimeToUtc } from './wall-time.js';

/*
 * The editor's form as values: what a browser posts, what a stored post shows, and the API fields a save sends
 * through the same validation as `PUT /api/v1/plog/<oid>`. Pure: no I/O.
 */

/** What the editor's buttons do; the button's `name="action"` value. */
export const EDITOR_ACTIONS = ['save-draft', 'publish', 'schedule', 'preview', 'unpublish'] as const;
export type EditorAction = (typeof EDITOR_ACTIONS)[number];

/** Each button's accessible name, exactly as the acceptance names it. */
export const ACTION_LABELS: Readonly<Record<EditorAction, string>> = {
  'save-draft': 'Save draft',
  publish: 'Publish',
  schedule: 'Schedule',
  preview: 'Preview',
  unpublish: 'Unpublish',
};

export type { PostState } from '../publication.js';

/**
 * The buttons a post in `state` shows (undefined: a post not yet saved). A published post is saved by Publish and
 * hidden by Unpublish; a draft or scheduled one can be kept back, published now or (re)scheduled.
 */
export function actionsFor(state: PostState | undefined): EditorAction[] {
  if (state === 'published') return ['publish', 'preview', 'unpublish'];
  return ['save-draft', 'publish', 'schedule', 'preview'];
}

/** The editor's fields as typed, all text, so a refused save shows each one back as it was. */
export interface EditorValues {
  title: string;
  slug: string;
  body: string;
  format: PostFormat;
  /** Comma-separated, as typed. */
  categories: string;
  summary: string;
  /** A `datetime-local` value, on the wall clock of `zone`; empty: now. */
  publishAt: string;
  /** The IANA zone of `publishAt`: the browser's, set by the desk's script; UTC without it. */
  zone: string;
}

/** The form fields of the editor, as named in its HTML. */
export const EDITOR_FIELDS = ['title', 'slug', 'body', 'format', 'categories', 'summary', 'publish_at', 'zone'] as const;
export type EditorField = (typeof EDITOR_FIELDS)[number];

export const EMPTY_VALUES: EditorValues = { title: '', slug: '', body: '', format: 'markdown', categories: '', summary: '', publishAt: '', zone: 'UTC' };

/** The values of a posted form (a parsed urlencoded body, or the preview's JSON); anything missing is empty. */
export function editorValues(body: unknown): EditorValues {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const field = (name: string, fallback = '') => (typeof record[name] === 'string' ? record[name] : fallback);
  return {
    title: field('title'),
    slug: field('slug').trim(),
    // Browsers send a textarea's line breaks as CRLF; the source is stored with the LF it was typed with.
    body: field('body').replace(/\r\n?/g, '\n'),
    format: field('format') === 'html' ? 'html' : 'markdown',
    categories: field('categories'),
    summary: field('summary').replace(/\r\n?/g, '\n'),
    publishAt: field('publish_at').trim(),
    zone: field('zone', 'UTC').trim() || 'UTC',
  };
}

/** The action a posted form asks for: its button's value; Enter in a field saves as Save draft would (the first button). */
export function editorAction(body: unknown): EditorAction | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).action : undefined;
  return EDITOR_ACTIONS.find((action) => action === value);
}

/** A stored post as the editor shows it: its publication time in UTC until the desk's script moves it to the browser's zone. */
export function valuesOfPost(post: PostWithSource): EditorValues {
  return {
    title: post.title,
    slug: post.oid,
    body: post.body,
    format: post.format,
    categories: post.categories.join(', '),
    summary: post.summary,
    publishAt: utcToWallTime(post.pub_date, 'UTC'),
    zone: 'UTC',
  };
}

/** A problem of one field, said next to it. */
export interface FieldProblem {
  field: EditorField | 'form';
  message: string;
}

/** The alt text the desk's script puts in for an uploaded image, selected so the editor types over it; flagged until then. */
export const ALT_PLACEHOLDER = 'alt text';

/** The categories as the API takes them: the comma-separated names, trimmed, empty ones dropped. */
export function categoryList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * The publication instant of the form, in UTC: `publishAt` on the wall clock of `zone`, or `now` when it is empty.
 * A FieldProblem when it is no real date-time or the zone is unknown.
 */
export function publicationTime(values: EditorValues, now: Date): string | FieldProblem {
  if (values.publishAt === '') return now.toISOString();
  const instant = wallTimeToUtc(values.publishAt, values.zone);
  if (instant !== undefined) return instant;
  return wallTimeToUtc(values.publishAt, 'UTC') === undefined
    ? { field: 'publish_at', message: 'Publish at must be a real date and time, like 2026-06-01 09:30.' }
    : { field: 'publish_at', message: `Publish at is in a time zone this server does not know (${values.zone.slice(0, 64)}): reload the page and try again.` };
}

/** The post's fields as the API takes them (`PUT /api/v1/plog/<oid>`), for its one validation. */
export function apiFields(values: EditorValues, pubDate: string): Record<string, unknown> {
  return {
    title: values.title,
    format: values.format,
    body: values.body,
    summary: values.summary,
    categories: categoryList(values.categories),
    pub_date: pubDate,
  };
}

/** The API's names of fields in its messages (`title must not be empty`), and the editor's field of each. */
const MESSAGE_FIELDS: readonly (readonly [string, EditorField])[] = [
  ['title ', 'title'],
  ['body_html ', 'body'],
  ['body ', 'body'],
  ['format ', 'format'],
  ['summary ', 'summary'],
  ['categories ', 'categories'],
  ['each category ', 'categories'],
  ['pub_date ', 'publish_at'],
  ['oid ', 'slug'],
  ['slug ', 'slug'],
];

/** The editor's names of the API's fields, so a message names the control the editor sees. */
const LABELS: Readonly<Record<EditorField, string>> = {
  title: 'Title',
  slug: 'Slug',
  body: 'Body',
  format: 'Format',
  categories: 'Categories',
  summary: 'Summary',
  publish_at: 'Publish at',
  zone: 'Publish at',
};

/** A refused save's message, put next to the field it is about (the whole form when it names none). */
export function problemOf(message: string): FieldProblem {
  const found = MESSAGE_FIELDS.find(([prefix]) => message.startsWith(prefix));
  if (found === undefined) return { field: 'form', message: sentence(message) };
  const [prefix, field] = found;
  const label = prefix === 'each category ' ? 'Each category' : LABELS[field];
  return { field, message: sentence(`${label} ${message.slice(prefix.length)}`) };
}

function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
