import { z } from 'zod';
import type { CommentItem, MonthGroup, PostDetail, PostListing } from './types.js';

/*
 * The origin's answers (DESIGN §5) as the renderer reads them. They are untrusted input: a wrong type or a null where
 * the pages expect a value would otherwise throw in the middle of a render. Unknown fields are accepted, so the origin
 * can grow its answers before the renderer reads them, and dropped, so page props hold only what the pages know.
 * Sizes and string contents are not limited: the pages render any string or number safely.
 * The annotations tie each schema to the origin's own types: a field the origin adds to those types fails to compile
 * here until the schema knows it.
 */

const postListing: z.ZodType<PostListing> = z.object({
  oid: z.string(),
  title: z.string(),
  pub_date: z.string(),
  categories: z.array(z.string()),
  comments: z.number(),
});

const monthGroup: z.ZodType<MonthGroup> = z.object({ date: z.string(), posts: z.array(postListing) });

const postDetail: z.ZodType<PostDetail> = z.object({
  oid: z.string(),
  title: z.string(),
  body_html: z.string(),
  summary: z.string(),
  pub_date: z.string(),
  categories: z.array(z.string()),
});

const commentItem: z.ZodType<CommentItem> = z.object({ id: z.number(), name: z.string(), comment: z.string(), add_date: z.string() });

/** `GET /api/v1/plog/`. */
export interface ListAnswer {
  groups: MonthGroup[];
}

/** `GET /api/v1/plog/<oid>`. */
export interface PostAnswer {
  post: PostDetail;
  comments: { count: number; items: CommentItem[] };
}

export const listAnswerSchema: z.ZodType<ListAnswer> = z.object({ groups: z.array(monthGroup) });

export const postAnswerSchema: z.ZodType<PostAnswer> = z.object({
  post: postDetail,
  comments: z.object({ count: z.number(), items: z.array(commentItem) }),
});

/** `groups[0].posts`: the way the field would be written in JavaScript. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  return withArticle(Array.isArray(value) ? 'array' : typeof value);
}

/**
 * What is wrong with an answer, for the error of the failed render: the first problem, as
 * `groups[0].posts: expected an array, got null`. Parse with `reportInput` so the wrong value's kind can be named.
 */
export function describeProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'rejected';
  const problem = issue.code === 'invalid_type' ? `expected ${withArticle(issue.expected)}, got ${kindOf(issue.input)}` : issue.message;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${issue.path.length === 0 ? '' : `${fieldPath(issue.path)}: `}${problem}${more}`;
}
