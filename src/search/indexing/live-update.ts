import { ERRORS } from '../../error-codes.js';
import type { Logger } from '../../log.js';
import { CONTENT_BUILD_DEFAULTS, postIndexJson, type PostDetail } from './content-build.js';
import type { IndexedDocument, SearchEngine } from '../engines/types.js';
import { DEFAULT_INDEX_PREFIX } from './index-names.js';
import { popularityKey } from './popularity.js';
import { parseIndexJson } from './reader.js';

/** A post to bring search in line with: as it is now, or undefined when it no longer exists. */
export interface LivePostChange {
  oid: string;
  post: PostDetail | undefined;
}

/** Options of {@link createLiveUpdater}. */
export interface LiveUpdaterOptions {
  engine: SearchEngine;
  /** The alias whose index is updated: the indexer's prefix. @default 'site_docs' */
  prefix?: string;
  /** The locale of every post, as the content build gives it. @default 'en-US' */
  locale?: string;
  /** Normalised popularity (0–1) of a popularity key. @default every key 0 */
  popularityOf?: (key: string) => number;
  logger?: Logger;
}

export const LIVE_UPDATER_DEFAULTS = { prefix: DEFAULT_INDEX_PREFIX, locale: CONTENT_BUILD_DEFAULTS.locale } as const;

/** What one call changed in the live index. */
export interface LiveUpdateReport {
  index: string;
  /** Ids written (created or replaced). */
  indexed: string[];
  /** Ids removed (whether or not the index held them). */
  removed: string[];
}

/**
 * The search document of a post exactly as a content build and an index run would make it: the post's `index.json`
 * (sections, popularity) read back by the indexer's own reader (stripped HTML, id, slug). A post the reader would skip
 * (an empty title, say) has no document: undefined.
 */
export function liveDocumentOf(post: PostDetail, locale: string, popularityOf: (key: string) => number): IndexedDocument | undefined {
  const url = `/plog/${post.oid}`;
  const key = popularityKey(url);
  const popularity = new Map(key === undefined ? [] : [[key, popularityOf(key)]]);
  const json = postIndexJson(post, locale, popularity);
  const read = parseIndexJson(`${locale.toLowerCase()}/plog/${post.oid}/index.json`, Buffer.from(JSON.stringify(json)));
  return 'document' in read ? read.document : undefined;
}

/** The search id of a post's document: its URL, lower-cased, as the reader makes it. */
export function liveDocumentId(oid: string): string {
  return `/plog/${oid}`.toLowerCase();
}

/**
 * Makes the function the origin's search outbox calls with changed posts: each existing post's document is written to
 * the index the alias points at, each gone post's document removed, and the index refreshed so the next search sees
 * both. Rejects (for the outbox to retry) when the engine cannot be reached or no index is live yet; a document the
 * engine refuses as invalid is logged and removed, as an index run would report and skip it.
 */
export function createLiveUpdater(options: LiveUpdaterOptions): (changes: readonly LivePostChange[]) => Promise<LiveUpdateReport> {
  const { engine, logger } = options;
  const prefix = options.prefix ?? LIVE_UPDATER_DEFAULTS.prefix;
  const locale = options.locale ?? LIVE_UPDATER_DEFAULTS.locale;
  const popularityOf = options.popularityOf ?? (() => 0);
  return async (changes) => {
    const live = (await engine.listIndices(`${prefix}_`)).find((info) => info.aliases.includes(prefix));
    if (live === undefined) {
      throw ERRORS.SEARCH_INDEX_MISSING(prefix, 'live');
    }
    const documents: IndexedDocument[] = [];
    const removed: string[] = [];
    for (const change of changes) {
      const document = change.post === undefined ? undefined : liveDocumentOf(change.post, locale, popularityOf);
      if (document === undefined) removed.push(liveDocumentId(change.oid));
      else documents.push(document);
    }
    const indexed: string[] = [];
    if (documents.length > 0) {
      const results = await engine.bulk(live.name, documents);
      const refused = results.filter((result) => !result.ok && result.error?.type === 'invalid_document');
      const failed = results.find((result) => !result.ok && result.error?.type !== 'invalid_document');
      if (failed !== undefined) {
        throw ERRORS.SEARCH_UPDATE_FAILED(failed.id, failed.error?.reason ?? 'no reason given');
      }
      for (const result of refused) {
        logger?.error({ id: result.id, reason: result.error?.reason }, 'search refused a document; it is not searchable');
        // An index run would skip it: no older version of it stays findable either.
        removed.push(result.id);
      }
      indexed.push(...results.filter((result) => result.ok).map((result) => result.id));
    }
    if (removed.length > 0) await engine.deleteDocuments(live.name, removed);
    await engine.refresh(live.name);
    return { index: live.name, indexed, removed };
  };
}
