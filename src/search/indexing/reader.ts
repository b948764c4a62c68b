import { closeSync, fstatSync, openSync, readSync, readdirSync, type Dirent } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { join } from 'node:path';
import { ERRORS } from '../../error-codes.js';
import type { IndexedDocument } from '../engines/types.js';
import { stripHtml, stripHtmlParts } from './strip-html.js';

/** Options of reading a content build. */
export interface ReadOptions {
  /**
   * An `index.json` larger than this is reported and skipped (the largest real page is far smaller; a 10 MB file is a
   * broken build, and reading it would hold the run up).
   * @default 5 MiB
   */
  maxFileBytes?: number;
  /** Files under this folder path (relative to the root, case-insensitive, e.g. `en-us/`) come first. @default none */
  priorityPrefix?: string;
}

export const READ_DEFAULTS = {
  maxFileBytes: 5 * 1024 * 1024,
} as const;

/** One `index.json` read: the document, or why the file was skipped. `path` is relative to the root, `/`-separated. */
export type ReadResult = { path: string; document: IndexedDocument } | { path: string; problem: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The folder path of a relative `index.json` path: `en-us/docs/a/index.json` → `en-us/docs/a`. */
function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The path part of an identifier, which may be an absolute URL. */
function identifierPath(identifier: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(identifier)) {
    try {
      return decodeURIComponent(new URL(identifier).pathname);
    } catch {
      return identifier;
    }
  }
  return identifier;
}

/**
 * The slug of a document: its identifier's path without the leading slash, the locale segment (when the path starts
 * with it) and a trailing slash. `/en-US/docs/Web/API` with locale `en-US` → `docs/Web/API`; `/plog/hello` → `plog/hello`.
 */
export function slugOf(identifier: string, locale: string): string {
  const segments = identifierPath(identifier).split('/').filter((segment) => segment !== '');
  if (segments[0]?.toLowerCase() === locale.toLowerCase()) segments.shift();
  return segments.join('/');
}

class Problem extends Error {}

function optionalString(doc: Record<string, unknown>, field: string): string | undefined {
  const value = doc[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new Problem(`doc.${field} is not a string`);
  return value;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (!Array.isArray(body)) throw new Problem('doc.body is not an array');
  const fragments: string[] = [];
  body.forEach((block: unknown, i) => {
    if (!isObject(block)) throw new Problem(`doc.body[${i}] is not an object`);
    if (block.type !== 'prose') return;
    const value = block.value;
    if (!isObject(value)) throw new Problem(`doc.body[${i}].value is not an object`);
    const { title, content } = value;
    if (title !== undefined && title !== null && typeof title !== 'string') throw new Problem(`doc.body[${i}].value.title is not a string`);
    if (content !== undefined && content !== null && typeof content !== 'string') {
      throw new Problem(`doc.body[${i}].value.content is not a string`);
    }
    if (typeof title === 'string') fragments.push(title);
    if (typeof content === 'string') fragments.push(content);
  });
  return stripHtmlParts(fragments);
}

/**
 * Turns the bytes of one `index.json` into an indexed document (DESIGN §7): identifier `doc.url`, else `doc.mdn_url`,
 * else the folder path; locale `doc.locale`, else the first folder; id lower-cased; body and summary stripped of HTML.
 * Returns a problem for a file that is not UTF-8 JSON, lacks `doc.title`, or has a field of the wrong type.
 */
export function parseIndexJson(path: string, bytes: Uint8Array): ReadResult {
  try {
    if (bytes.includes(0)) throw new Problem('not a text file (contains NUL bytes)');
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new Problem('not valid UTF-8');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Problem(`not valid JSON: ${(error as Error).message}`);
    }
    if (!isObject(json) || !isObject(json.doc)) throw new Problem('no doc object');
    const doc = json.doc;
    const title = optionalString(doc, 'title');
    if (title === undefined || title.trim() === '') throw new Problem('doc.title is missing or empty');
    const summary = optionalString(doc, 'summary') ?? '';
    const url = optionalString(doc, 'url');
    const mdnUrl = optionalString(doc, 'mdn_url');
    const popularity = doc.popularity ?? 0;
    if (typeof popularity !== 'number' || !(popularity >= 0 && popularity <= 1)) {
      throw new Problem('doc.popularity is not a number from 0 to 1');
    }
    const folder = folderOf(path);
    const identifier = url ?? mdnUrl ?? `/${folder}`;
    const locale = optionalString(doc, 'locale') ?? folder.split('/')[0] ?? '';
    if (locale === '') throw new Problem('no locale: doc.locale is absent and the file is at the build root');
    return {
      path,
      document: {
        id: identifier.toLowerCase(),
        url: identifier,
        title: stripHtml(title),
        summary: stripHtml(summary),
        body: bodyText(doc.body),
        popularity,
        locale,
        slug: slugOf(identifier, locale),
      },
    };
  } catch (error) {
    if (error instanceof Problem) return { path, problem: error.message };
    throw error;
  }
}

function under(path: string, prefix: string): boolean {
  return path.toLowerCase().startsWith(prefix);
}

/** Directories read between two yields to the event loop, so a walk of a large build never blocks it for long. */
const DIRECTORIES_PER_SLICE = 128;

/**
 * Depth-first walk with one blocking `readdir` per directory: for a build of one folder per document, that is several
 * times faster than asynchronous directory reads (each a round trip through libuv's pool), and the event loop gets a
 * turn every DIRECTORIES_PER_SLICE directories.
 */
async function* walk(root: string, keepDirectory: (path: string) => boolean, keepFile: (path: string) => boolean): AsyncGenerator<string> {
  const stack: string[] = [''];
  let sliced = 0;
  while (stack.length > 0) {
    const relative = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(relative === '' ? root : join(root, relative), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw ERRORS.BUILD_UNREADABLE.with({ cause: error }, relative === '' ? root : relative, code);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const directories: string[] = [];
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (keepDirectory(`${path}/`)) directories.push(path);
      } else if (entry.isFile() && entry.name === 'index.json' && keepFile(path)) {
        yield path;
      }
    }
    for (let i = directories.length - 1; i >= 0; i--) stack.push(directories[i] as string);
    if (++sliced % DIRECTORIES_PER_SLICE === 0) await setImmediatePromise();
  }
}

/**
 * Every `index.json` under `root`, as `/`-separated paths relative to it, in a stable order (sorted by name within
 * each folder); files under `priorityPrefix` first. Symbolic links are not followed.
 */
export async function* walkIndexFiles(root: string, priorityPrefix?: string): AsyncGenerator<string> {
  const trimmed = priorityPrefix?.toLowerCase().replace(/^\/+/, '') ?? '';
  if (trimmed === '') {
    yield* walk(root, () => true, () => true);
    return;
  }
  const prefix = trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
  yield* walk(root, (path) => under(path, prefix) || prefix.startsWith(path.toLowerCase()), (path) => under(path, prefix));
  yield* walk(root, (path) => !under(path, prefix), (path) => !under(path, prefix));
}

/** Reads one `index.json` of the build, reporting a file over the size cap without reading it. */
export async function readIndexFile(root: string, path: string, maxFileBytes: number = READ_DEFAULTS.maxFileBytes): Promise<ReadResult> {
  const full = join(root, path);
  try {
    const { size } = await stat(full);
    if (size > maxFileBytes) return { path, problem: `file is larger than ${maxFileBytes} bytes (${size})` };
    return parseIndexJson(path, await readFile(full));
  } catch (error) {
    return { path, problem: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

/**
 * readIndexFile with blocking I/O, for reading threads: one open, fstat and read per file, without the round trips
 * through libuv's thread pool that dominate the cost of small files.
 */
export function readIndexFileSync(root: string, path: string, maxFileBytes: number = READ_DEFAULTS.maxFileBytes): ReadResult {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(join(root, path), 'r');
    const { size } = fstatSync(descriptor);
    if (size > maxFileBytes) return { path, problem: `file is larger than ${maxFileBytes} bytes (${size})` };
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const count = readSync(descriptor, bytes, read, size - read, read);
      if (count === 0) break;
      read += count;
    }
    return parseIndexJson(path, bytes.subarray(0, read));
  } catch (error) {
    return { path, problem: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Reads every `index.json` under `root` in walk order, one file at a time, so memory stays flat however large the build. */
export async function* readContentBuild(root: string, options: ReadOptions = {}): AsyncGenerator<ReadResult> {
  for await (const path of walkIndexFiles(root, options.priorityPrefix)) {
    yield await readIndexFile(root, path, options.maxFileBytes);
  }
}
