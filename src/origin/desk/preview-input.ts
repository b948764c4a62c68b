import { isCategoryName } from '../../categories.js';
import { ERRORS } from '../../error-codes.js';
import { characterCount } from '../../http/index.js';
import { imagesWithoutAlt, POST_FORMATS, renderPostBody, type ImageResolver, type PostFormat } from '../markdown/index.js';
import type { Post } from '../store.js';
import { LIMITS, parsePubDate, requireObject } from '../validation.js';
import { ALT_PLACEHOLDER, categoryList, type EditorValues } from './editor-form.js';

/*
 * What the preview renders: the post as typed, however unfinished. A preview refuses only what it cannot show (a body
 * over the limit, a field of the wrong type); an empty title or an unknown category is shown as it would be, and said
 * by the save. Pure: no I/O.
 */

/** Images listed in a warning at most: a body of a hundred bare images needs no hundred lines. */
const MISSING_ALT_SHOWN = 20;

/** The fields `POST /admin/preview` takes, as its JSON. */
export const PREVIEW_FIELDS = ['oid', 'title', 'body', 'format', 'summary', 'categories', 'pub_date'] as const;

/** What a post's preview is made of. */
export interface DraftPost {
  oid: string;
  title: string;
  format: PostFormat;
  body: string;
  summary: string;
  categories: string[];
  pub_date: string;
}

function stringField(record: Record<string, unknown>, name: string, max: number): string {
  const value = record[name] ?? '';
  if (typeof value !== 'string') throw ERRORS.INVALID_INPUT(name, 'must be a string');
  if (characterCount(value) > max) throw ERRORS.INVALID_INPUT(name, `must be at most ${max} characters`);
  return value;
}

/** The JSON of `POST /admin/preview`: every field optional; `categories` an array of names, `pub_date` ISO 8601. */
export function parsePreviewRequest(body: unknown, now: Date): DraftPost {
  const record = requireObject(body, PREVIEW_FIELDS);
  const format = record.format ?? 'markdown';
  if (!POST_FORMATS.includes(format as PostFormat)) throw ERRORS.INVALID_INPUT('format', `must be one of ${POST_FORMATS.map((name) => `"${name}"`).join(', ')}`);
  const categories = record.categories ?? [];
  if (!Array.isArray(categories) || categories.length > LIMITS.categories * 4 || categories.some((name) => typeof name !== 'string')) {
    throw ERRORS.INVALID_INPUT('categories', 'must be an array of at most 40 strings');
  }
  return {
    oid: stringField(record, 'oid', 100),
    title: stringField(record, 'title', LIMITS.titleLength * 4),
    format: format as PostFormat,
    body: stringField(record, 'body', LIMITS.bodyLength),
    summary: stringField(record, 'summary', LIMITS.summaryLength * 4),
    categories: categories as string[],
    pub_date: record.pub_date === undefined ? now.toISOString() : parsePubDate(record.pub_date),
  };
}

/** The editor's form as a draft post; `pubDate` is its publication time (publicationTime), or now when it has none. */
export function draftOfValues(values: EditorValues, pubDate: string): DraftPost {
  return { oid: values.slug, title: values.title, format: values.format, body: values.body, summary: values.summary, categories: categoryList(values.categories), pub_date: pubDate };
}

/**
 * The post readers would get of a draft: its body rendered and sanitised by the store's own renderPostBody (its
 * uploaded images with their widths, through `images`), its title and categories as the save would keep them
 * (trimmed, NFC; unknown categories left out).
 */
export function previewPost(draft: DraftPost, images?: ImageResolver): Post {
  const title = draft.title.normalize('NFC').trim();
  return {
    oid: /^[a-z0-9-]{1,100}$/.test(draft.oid) ? draft.oid : 'preview',
    title: title === '' ? 'Untitled' : [...title].slice(0, LIMITS.titleLength).join(''),
    body_html: renderPostBody(draft.format, draft.body, images),
    summary: draft.summary.trim(),
    categories: [...new Set(draft.categories.map((name) => name.normalize('NFC').trim()).filter((name) => isCategoryName(name)))].slice(0, LIMITS.categories),
    pub_date: draft.pub_date,
  };
}

/** Images of a Markdown body with no alt text, or with the upload's placeholder still in, by address (at most 20). */
export function imagesNeedingAlt(format: PostFormat, body: string): string[] {
  if (format !== 'markdown') return [];
  const placeholder = new RegExp(`!\\[${ALT_PLACEHOLDER}\\]\\(([^)\\s]+)`, 'g');
  const found = [...imagesWithoutAlt(body), ...[...body.matchAll(placeholder)].map((match) => match[1] ?? '')];
  return [...new Set(found)].slice(0, MISSING_ALT_SHOWN).map((src) => [...src].slice(0, 200).join(''));
}
