import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Validators } from './fetcher.js';

/**
 * What a from-site build remembers of each page for the next run, in `<out>/.from-site.json` beside its pages: the
 * validators the site sent (for a conditional request) and where the page's `index.json` is in the build.
 */
export interface RememberedPage extends Validators {
  /** The `index.json`, relative to the build root. */
  path: string;
  /** The document's `doc.url`, so that an unchanged page still claims its URL against duplicates. */
  url: string;
}

export interface SiteState {
  version: 1;
  /** The site scope the build read: a build of another site or scope shares nothing. */
  scope: string;
  pages: Record<string, RememberedPage>;
}

export const STATE_FILE = '.from-site.json';
const MAX_STATE_BYTES = 64 * 1024 * 1024;
/** The only paths a remembered page may have: what pagePath() writes, so a tampered file reads nothing else. */
const PAGE_PATH = /^[a-z0-9-]{2,40}\/site\/[0-9a-f]{16}\/index\.json$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown): value is string | undefined => value === undefined || (typeof value === 'string' && value.length <= 1024);

function rememberedPage(value: unknown): RememberedPage | undefined {
  if (!isObject(value)) return undefined;
  const { path, url, etag, lastModified } = value;
  if (typeof path !== 'string' || !PAGE_PATH.test(path) || typeof url !== 'string' || !optionalString(etag) || !optionalString(lastModified)) return undefined;
  return { path, url, ...(etag === undefined ? {} : { etag }), ...(lastModified === undefined ? {} : { lastModified }) };
}

/** The previous build's memory of the site, or an empty one when there is none, it is of another scope or unreadable. */
export async function readState(out: string, scope: string): Promise<{ state: SiteState; problem?: string }> {
  const empty: SiteState = { version: 1, scope, pages: {} };
  let text: string;
  try {
    const bytes = await readFile(join(out, STATE_FILE));
    if (bytes.byteLength > MAX_STATE_BYTES) return { state: empty, problem: `${STATE_FILE} is larger than ${MAX_STATE_BYTES} bytes` };
    text = bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { state: empty } : { state: empty, problem: `${STATE_FILE}: ${code ?? (error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: empty, problem: `${STATE_FILE} is not JSON` };
  }
  if (!isObject(json) || json.version !== 1 || json.scope !== scope || !isObject(json.pages)) return { state: empty };
  const pages: Record<string, RememberedPage> = {};
  for (const [url, value] of Object.entries(json.pages)) {
    const page = rememberedPage(value);
    if (page !== undefined) pages[url] = page;
  }
  return { state: { version: 1, scope, pages } };
}

/** The validators of an answer worth remembering: none when the site sent neither. */
export function validatorsOf(headers: Headers): Validators {
  const etag = headers.get('etag') ?? undefined;
  const lastModified = headers.get('last-modified') ?? undefined;
  return { ...(etag !== undefined && etag.length <= 1024 ? { etag } : {}), ...(lastModified !== undefined && lastModified.length <= 1024 ? { lastModified } : {}) };
}
