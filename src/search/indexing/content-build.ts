import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Parser } from 'htmlparser2';
import { ERRORS } from '../../error-codes.js';
import { isAppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { discardBody, readBoundedText } from '../../http/index.js';
import { popularityKey } from './popularity.js';

/** A `prose` block of a built document. */
export interface ProseSection {
  id: string;
  title: string;
  content: string;
}

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The ids of a page's sections, one call per heading in order: the heading's own anchor, else a slug of its title,
 * else `section_<n>`, made unique within the page by `_2`, `_3`…
 */
export function sectionIds(): (anchor: string | undefined, title: string, n: number) => string {
  const used = new Set<string>();
  return (anchor, title, n) => {
    const id = anchor?.trim() || slugify(title) || `section_${n}`;
    let candidate = id;
    for (let k = 2; used.has(candidate); k++) candidate = `${id}_${k}`;
    used.add(candidate);
    return candidate;
  };
}

/**
 * Splits a post's HTML into sections at its top-level `<h2>` headings: each section's id is the heading's `id`
 * attribute (else a slug of its text, made unique), its title the heading's text and its content the HTML up to the
 * next heading. Content before the first heading is a section with an empty id and title. Empty sections are dropped.
 */
export function splitSections(html: string): ProseSection[] {
  const headings: { start: number; end: number; id: string | undefined; title: string }[] = [];
  let depth = 0;
  let current: { start: number; id: string | undefined; text: string[] } | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'h2' && depth === 0 && current === undefined) {
          current = { start: parser.startIndex, id: attributes.id, text: [] };
        }
        depth++;
      },
      ontext(text) {
        current?.text.push(text);
      },
      onclosetag(name) {
        depth--;
        if (name === 'h2' && depth === 0 && current !== undefined) {
          const implied = parser.endIndex < current.start;
          const end = implied ? parser.startIndex : parser.endIndex + 1;
          headings.push({ start: current.start, end, id: current.id, title: current.text.join('').replace(/\s+/g, ' ').trim() });
          current = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  const sections: ProseSection[] = [];
  const sectionId = sectionIds();
  const intro = html.slice(0, headings[0]?.start ?? html.length).trim();
  if (intro !== '') sections.push({ id: '', title: '', content: intro });
  headings.forEach((heading, i) => {
    const content = html.slice(heading.end, headings[i + 1]?.start ?? html.length).trim();
    const id = sectionId(heading.id, heading.title, i + 1);
    sections.push({ id, title: heading.title, content });
  });
  return sections;
}

/** The `index.json` of one post, in the content build's shape (spec §2). */
export interface PostIndexJson {
  doc: {
    title: string;
    summary: string;
    url: string;
    locale: string;
    popularity: number;
    pub_date: string | null;
    body: { type: 'prose'; value: ProseSection }[];
  };
}

interface ListedPost {
  oid: string;
}

/** What the content build reads of a post (the origin's `post` object). */
export interface PostDetail {
  oid: string;
  title: string;
  body_html: string;
  summary: string;
  pub_date: string | null;
}

/** Options of the content build. */
export interface ContentBuildOptions {
  /** The origin, e.g. `http://127.0.0.1:4000`. */
  apiBase: string;
  /**
   * The output folder. The build owns it: it is replaced as a whole, and a non-empty folder that is not an earlier
   * build is refused.
   */
  out: string;
  /** Normalised popularity (0–1) by popularity key; absent keys are 0. @default empty */
  popularity?: ReadonlyMap<string, number>;
  /** The locale of every post. @default 'en-US' */
  locale?: string;
  /** Post details fetched at once. @default 8 */
  concurrency?: number;
  /** Per-request timeout, for the headers and the whole body. @default 10000 */
  timeoutMs?: number;
  /** Largest origin answer read, in bytes; a longer one fails the build (UPSTREAM_ANSWER_TOO_LARGE). @default 4194304 */
  maxAnswerBytes?: number;
  fetch?: typeof fetch;
  logger?: Logger;
}

export const CONTENT_BUILD_DEFAULTS = { locale: 'en-US', concurrency: 8, timeoutMs: 10_000, maxAnswerBytes: 4 * 1024 * 1024 } as const;

/** Marks a folder as the content build's own output, so a rebuild may replace it. */
export const BUILD_MARKER = '.sitestack-build';

export interface ContentBuildReport {
  out: string;
  posts: number;
  /** Posts listed but gone (404) by the time their detail was fetched. */
  skipped: string[];
}

const badResponse = ERRORS.ORIGIN_BAD_RESPONSE;

type Reader = { fetch: typeof fetch; timeoutMs: number; maxAnswerBytes: number };

async function getJson(reader: Reader, url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await reader.fetch(url, { signal: AbortSignal.timeout(reader.timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    throw ERRORS.ORIGIN_UNAVAILABLE.with({ cause: error }, url, { reaching: (error as Error).message });
  }
  if (response.status === 404) {
    await discardBody(response);
    return undefined;
  }
  if (!response.ok) {
    await discardBody(response);
    throw ERRORS.ORIGIN_UNAVAILABLE(url, response.status);
  }
  let text: string;
  try {
    text = await readBoundedText(response, reader.maxAnswerBytes, url);
  } catch (error) {
    if (isAppError(error)) throw error;
    throw ERRORS.ORIGIN_UNAVAILABLE.with({ cause: error }, url, { reading: (error as Error).message });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badResponse(url, 'a body that is not JSON');
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function listedPosts(url: string, body: unknown): ListedPost[] {
  if (!isObject(body) || !Array.isArray(body.groups)) throw badResponse(url, 'no groups array');
  const posts: ListedPost[] = [];
  for (const group of body.groups) {
    if (!isObject(group) || !Array.isArray(group.posts)) throw badResponse(url, 'a group without a posts array');
    for (const post of group.posts) {
      if (!isObject(post) || typeof post.oid !== 'string' || post.oid === '') throw badResponse(url, 'a post without an oid');
      posts.push({ oid: post.oid });
    }
  }
  return posts;
}

function postDetail(url: string, body: unknown): PostDetail {
  if (!isObject(body) || !isObject(body.post)) throw badResponse(url, 'no post object');
  const { oid, title, body_html: bodyHtml, summary, pub_date: pubDate } = body.post;
  if (typeof oid !== 'string' || typeof title !== 'string' || typeof bodyHtml !== 'string') {
    throw badResponse(url, 'a post without a string oid, title or body_html');
  }
  return {
    oid,
    title,
    body_html: bodyHtml,
    summary: typeof summary === 'string' ? summary : '',
    pub_date: typeof pubDate === 'string' ? pubDate : null,
  };
}

/** A post id that is safe as one folder name. */
function safeSegment(oid: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/.test(oid);
}

export function postIndexJson(post: PostDetail, locale: string, popularity: ReadonlyMap<string, number>): PostIndexJson {
  const url = `/plog/${post.oid}`;
  return {
    doc: {
      title: post.title,
      summary: post.summary,
      url,
      locale,
      popularity: popularity.get(popularityKey(url) ?? '') ?? 0,
      pub_date: post.pub_date,
      body: splitSections(post.body_html).map((section) => ({ type: 'prose', value: section })),
    },
  };
}

/** Swaps a finished staging folder in for `out`, refusing an `out` that holds something other than a build. */
export async function replaceOutput(staging: string, out: string): Promise<void> {
  if (existsSync(out)) {
    const entries = await readdir(out);
    if (entries.length > 0 && !entries.includes(BUILD_MARKER)) {
      throw ERRORS.BUILD_OUT_NOT_OURS(out);
    }
    const old = `${out}.old-${randomBytes(4).toString('hex')}`;
    await rename(out, old);
    await rename(staging, out);
    await rm(old, { recursive: true, force: true });
  } else {
    await rename(staging, out);
  }
}

/**
 * The content build: every published post of the origin becomes `<out>/<locale>/plog/<oid>/index.json`. The new
 * build is written beside `out` and swapped in only when complete, so a failed build leaves the previous one whole.
 */
export async function runContentBuild(options: ContentBuildOptions): Promise<ContentBuildReport> {
  const reader: Reader = {
    fetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? CONTENT_BUILD_DEFAULTS.timeoutMs,
    maxAnswerBytes: options.maxAnswerBytes ?? CONTENT_BUILD_DEFAULTS.maxAnswerBytes,
  };
  const locale = options.locale ?? CONTENT_BUILD_DEFAULTS.locale;
  const popularity = options.popularity ?? new Map<string, number>();
  const out = resolve(options.out);
  const base = options.apiBase.replace(/\/+$/, '');
  const listUrl = `${base}/api/v1/plog/`;
  const list = await getJson(reader, listUrl);
  if (list === undefined) throw ERRORS.ORIGIN_UNAVAILABLE(listUrl, 404);
  const posts = listedPosts(listUrl, list);
  const unsafe = posts.filter((post) => !safeSegment(post.oid));
  if (unsafe.length > 0) {
    throw badResponse(listUrl, `post ids that cannot be folder names: ${unsafe.slice(0, 5).map((post) => JSON.stringify(post.oid)).join(', ')}`);
  }
  const staging = `${out}.staging-${randomBytes(4).toString('hex')}`;
  await mkdir(staging, { recursive: true });
  const skipped: string[] = [];
  let written = 0;
  try {
    await writeFile(join(staging, BUILD_MARKER), 'written by sitestack content-build; replaced by each build\n');
    let next = 0;
    let stopped = false;
    const worker = async () => {
      while (!stopped && next < posts.length) {
        const { oid } = posts[next++] as ListedPost;
        const url = `${listUrl}${encodeURIComponent(oid)}`;
        const body = await getJson(reader, url);
        if (body === undefined) {
          skipped.push(oid);
          options.logger?.warn({ oid }, 'a listed post is gone; skipped');
          continue;
        }
        const detail = postDetail(url, body);
        const folder = join(staging, locale.toLowerCase(), 'plog', oid);
        await mkdir(folder, { recursive: true });
        await writeFile(join(folder, 'index.json'), JSON.stringify(postIndexJson({ ...detail, oid }, locale, popularity)));
        written++;
      }
    };
    const stopOnFailure = (error: unknown) => {
      stopped = true;
      throw error;
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? CONTENT_BUILD_DEFAULTS.concurrency) }, () => worker().catch(stopOnFailure)));
    await replaceOutput(staging, out);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return { out, posts: written, skipped };
}
