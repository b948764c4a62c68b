import { stat } from 'node:fs/promises';
import { ERRORS } from '../../error-codes.js';
import { isAppError, type AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { BulkItemError, IndexedDocument, IndexInfo, SearchEngine } from '../engines/types.js';
import { DEFAULT_INDEX_PREFIX, isRunIndexName, runIndexName } from './index-names.js';
import { readBuild, type ReadPoolOptions } from './read-pool.js';
import { walkIndexFiles } from './reader.js';

export type IndexMode = 'full' | 'update' | 'recreate';

/** Options of one indexing run. */
export interface IndexRunOptions {
  engine: SearchEngine;
  /** The content build to read. */
  root: string;
  /** Index and alias prefix. @default 'site_docs' */
  prefix?: string;
  /**
   * `full`: build a new index and swap the alias to it; `update`: add or replace documents in the live index;
   * `recreate`: the daily variant — a new live index at once, filled while searches see it grow.
   * @default 'full'
   */
  mode?: IndexMode;
  /** Failed items accepted before a full run gives up (deleting its new index, leaving the alias alone). @default 0 */
  maxFailures?: number;
  /**
   * Folder path (relative to the root) published first in a `recreate` run, so the primary locale is searchable first.
   * @default 'en-us/'
   */
  priorityPrefix?: string;
  /** Documents per bulk call. @default 1000 */
  chunkSize?: number;
  /** Reading threads. @default see READ_POOL_DEFAULTS */
  workers?: number;
  /** Files larger than this are reported and skipped. @default 5 MiB */
  maxFileBytes?: number;
  /** Delete the older `<prefix>_<timestamp>` indices after a full run's swap. @default true */
  deleteOldIndices?: boolean;
  /**
   * Let a full or `recreate` run make live an index with no documents, or with fewer than half the documents of the
   * live index it replaces. Without it such a run throws `INDEX_EMPTY_REFUSED` or `INDEX_SHRINK_REFUSED`, deletes its
   * new index and leaves the alias where it was: a build half written or read from the wrong folder must not empty
   * every search.
   * @default false
   */
  allowShrink?: boolean;
  logger?: Logger;
  /** The clock of the index name. @default () => new Date() */
  now?: () => Date;
  /** Called after every bulk call. */
  onProgress?: (progress: IndexProgress) => void;
}

export const INDEX_RUN_DEFAULTS = {
  prefix: DEFAULT_INDEX_PREFIX,
  mode: 'full',
  maxFailures: 0,
  priorityPrefix: 'en-us/',
  chunkSize: 1000,
  deleteOldIndices: true,
  allowShrink: false,
} as const satisfies Partial<IndexRunOptions>;

export interface IndexProgress {
  /** Files read so far, good or bad. */
  files: number;
  documents: number;
  failures: number;
  badFiles: number;
}

export interface ItemFailure {
  id: string;
  /** The file the document came from. */
  path: string;
  error: BulkItemError;
}

export interface BadFile {
  path: string;
  problem: string;
}

export interface IndexRunReport {
  mode: IndexMode;
  /** The index written to. */
  index: string;
  alias: string;
  /** Whether the alias now points at `index`. */
  aliasLive: boolean;
  files: number;
  /** Documents published successfully (a repeated id counts each time). */
  documents: number;
  /** Failed items (the first 1000; `failureCount` is exact). */
  failures: ItemFailure[];
  failureCount: number;
  /** Files skipped (the first 1000; `badFileCount` is exact). */
  badFiles: BadFile[];
  badFileCount: number;
  /** Older run indices deleted after the swap. */
  deletedIndices: string[];
  elapsedMs: number;
  documentsPerSecond: number;
  /** Whether the run met its bar: failures within `maxFailures`. */
  ok: boolean;
}

/** Failures kept in the report; the count stays exact beyond it. */
const MAX_REPORTED = 1000;

async function checkHealth(engine: SearchEngine): Promise<void> {
  const health = await engine.health();
  if (health !== 'green' && health !== 'yellow') {
    throw ERRORS.SEARCH_UNHEALTHY(health, 'indexing');
  }
}

async function createRunIndex(engine: SearchEngine, prefix: string, at: Date): Promise<string> {
  for (let attempt = 1; attempt <= 100; attempt++) {
    const name = runIndexName(prefix, at, attempt);
    try {
      await engine.createIndex(name);
      return name;
    } catch (error) {
      if (!(isAppError(error) && error.code === ERRORS.INDEX_EXISTS.code)) throw error;
    }
  }
  throw ERRORS.INDEX_NAMES_EXHAUSTED(runIndexName(prefix, at), 100);
}

interface Publication {
  files: number;
  documents: number;
  failureCount: number;
  failures: ItemFailure[];
  badFiles: BadFile[];
  badFileCount: number;
}

/** Reads the build and bulk-publishes it into `index` with the explicit index name, in chunks. */
async function publish(index: string, options: IndexRunOptions, priorityPrefix: string | undefined): Promise<Publication> {
  const { engine } = options;
  const chunkSize = Math.max(1, options.chunkSize ?? INDEX_RUN_DEFAULTS.chunkSize);
  const state: Publication = { files: 0, documents: 0, failureCount: 0, failures: [], badFiles: [], badFileCount: 0 };
  let chunk: IndexedDocument[] = [];
  let paths: string[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const results = await engine.bulk(index, chunk);
    results.forEach((result, i) => {
      if (result.ok) state.documents++;
      else {
        state.failureCount++;
        if (state.failures.length < MAX_REPORTED) {
          state.failures.push({ id: result.id, path: paths[i] ?? '', error: result.error ?? { type: 'unknown', reason: 'no error given' } });
        }
      }
    });
    chunk = [];
    paths = [];
    options.onProgress?.({ files: state.files, documents: state.documents, failures: state.failureCount, badFiles: state.badFileCount });
  };
  const readOptions: ReadPoolOptions = { priorityPrefix };
  if (options.workers !== undefined) readOptions.workers = options.workers;
  if (options.maxFileBytes !== undefined) readOptions.maxFileBytes = options.maxFileBytes;
  for await (const result of readBuild(options.root, readOptions)) {
    state.files++;
    if ('problem' in result) {
      state.badFileCount++;
      if (state.badFiles.length < MAX_REPORTED) state.badFiles.push({ path: result.path, problem: result.problem });
      options.logger?.warn({ path: result.path, problem: result.problem }, 'skipped a bad index.json');
      continue;
    }
    chunk.push(result.document);
    paths.push(result.path);
    if (chunk.length >= chunkSize) await flush();
  }
  await flush();
  return state;
}

/**
 * Force merge, then refresh: the embedded engine rebuilds its term statistics at the first of the two after writes,
 * and reading them from one merged segment is faster than from the segments of every bulk call.
 */
async function mergeAndRefresh(engine: SearchEngine, index: string): Promise<void> {
  await engine.forceMerge(index);
  await engine.refresh(index);
}

async function requireRoot(root: string): Promise<void> {
  const info = await stat(root).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw ERRORS.BUILD_ROOT_MISSING(root);
  }
}

/** The build's `index.json` files, counted up to `limit`; a root without any is refused, as it is surely not a build. */
async function countIndexFiles(root: string, limit: number): Promise<number> {
  let count = 0;
  for await (const _path of walkIndexFiles(root)) {
    if (++count >= limit) break;
  }
  if (count === 0) throw ERRORS.BUILD_EMPTY(root);
  return count;
}

/**
 * The refusal of a run that would make live `documents` documents in place of the `replaced` live indices, or
 * undefined when it may go on. `subject` and `aftermath` word the message for the step that checks.
 */
function shrinkRefusal(subject: string, documents: number, replaced: readonly IndexInfo[], aftermath: string): AppError | undefined {
  const replacedDocuments = replaced.reduce((sum, info) => sum + info.docCount, 0);
  if (documents > 0 && documents * 2 >= replacedDocuments) return undefined;
  const place = replaced.length === 0 ? 'with no live index to replace' : `in place of the ${replacedDocuments} of ${replaced.map((info) => info.name).join(', ')}`;
  const details = { details: { documents, replacedDocuments } };
  if (documents === 0) return ERRORS.INDEX_EMPTY_REFUSED.with(details, subject, place, aftermath);
  return ERRORS.INDEX_SHRINK_REFUSED.with(details, subject, documents, place, aftermath);
}

/** The documents an index holds, as its engine counts them once refreshed. */
async function docCountOf(engine: SearchEngine, index: string): Promise<number> {
  return (await engine.listIndices(index)).find((info) => info.name === index)?.docCount ?? 0;
}

/**
 * One indexing run (spec §3). Full: health must be green or yellow; a new `<prefix>_<timestamp>` index is filled and,
 * when failures stay within `maxFailures`, one atomic alias update points `<prefix>` at it and away from every other
 * `<prefix>_*` index, whose run indices are then deleted; otherwise the new index is deleted and the alias untouched.
 * Update: documents are added or replaced in the index the alias points at (else the newest `<prefix>_*`), then
 * force-merged. Recreate: a new index becomes live at once and is filled priority folder first; the old ones go after.
 *
 * Unless `allowShrink`, a full or recreate run never leaves live an empty index or one with fewer than half the
 * documents of the live index it replaces. A full run checks its new index before the swap. A recreate run makes its
 * index live before it is filled, so it checks twice: before anything is created, the build's `index.json` count (an
 * upper bound of its documents, cheap to walk) against the live index; after the fill, the documents really indexed,
 * which, when too few, point the alias back at the replaced index (kept until then) and delete the new one.
 * Throws `BUILD_EMPTY` when the root holds no `index.json` at all, in every mode.
 */
export async function runIndexer(options: IndexRunOptions): Promise<IndexRunReport> {
  const started = performance.now();
  const { engine, logger } = options;
  const prefix = options.prefix ?? INDEX_RUN_DEFAULTS.prefix;
  const mode = options.mode ?? INDEX_RUN_DEFAULTS.mode;
  const maxFailures = options.maxFailures ?? INDEX_RUN_DEFAULTS.maxFailures;
  const deleteOld = options.deleteOldIndices ?? INDEX_RUN_DEFAULTS.deleteOldIndices;
  const allowShrink = options.allowShrink ?? INDEX_RUN_DEFAULTS.allowShrink;
  await requireRoot(options.root);
  const indexFiles = await countIndexFiles(options.root, mode === 'recreate' && !allowShrink ? Number.POSITIVE_INFINITY : 1);
  await checkHealth(engine);
  const existing = await engine.listIndices(`${prefix}_`);
  const live = existing.filter((info) => info.aliases.includes(prefix));

  let index: string;
  let aliasLive = false;
  let publication: Publication;
  const deletedIndices: string[] = [];
  const deleteOlder = async () => {
    for (const info of existing) {
      if (info.name === index || !isRunIndexName(prefix, info.name)) continue;
      try {
        await engine.deleteIndex(info.name);
        deletedIndices.push(info.name);
      } catch (error) {
        logger?.warn({ err: error, index: info.name }, 'could not delete an old index');
      }
    }
  };
  const swapActions = () => [
    { add: { index, alias: prefix } },
    ...live.filter((info) => info.name !== index).map((info) => ({ remove: { index: info.name, alias: prefix } })),
  ];

  if (mode === 'update') {
    const target = live[0] ?? existing.filter((info) => isRunIndexName(prefix, info.name)).at(-1);
    if (target === undefined) {
      throw ERRORS.SEARCH_INDEX_MISSING(prefix, 'to update');
    }
    index = target.name;
    aliasLive = target.aliases.includes(prefix);
    publication = await publish(index, options, undefined);
    await mergeAndRefresh(engine, index);
  } else if (mode === 'recreate') {
    const early = allowShrink ? undefined : shrinkRefusal('to recreate from a build of at most', indexFiles, live, 'nothing was created and the alias left as it was');
    if (early !== undefined) throw early;
    index = await createRunIndex(engine, prefix, (options.now ?? (() => new Date()))());
    await engine.updateAliases(swapActions());
    aliasLive = true;
    publication = await publish(index, options, options.priorityPrefix ?? INDEX_RUN_DEFAULTS.priorityPrefix);
    await mergeAndRefresh(engine, index);
    const refusal = allowShrink
      ? undefined
      : shrinkRefusal(`to keep ${index} live with`, await docCountOf(engine, index), live, 'the alias is back where it was and the new index was deleted');
    if (refusal !== undefined) {
      await engine.updateAliases([{ remove: { index, alias: prefix } }, ...live.map((info) => ({ add: { index: info.name, alias: prefix } }))]);
      await engine.deleteIndex(index);
      throw refusal;
    }
    await deleteOlder();
  } else {
    index = await createRunIndex(engine, prefix, (options.now ?? (() => new Date()))());
    try {
      publication = await publish(index, options, undefined);
    } catch (error) {
      await engine.deleteIndex(index).catch(() => undefined);
      throw error;
    }
    if (publication.failureCount > maxFailures) {
      await engine.deleteIndex(index);
    } else {
      await mergeAndRefresh(engine, index);
      const refusal = allowShrink
        ? undefined
        : shrinkRefusal(`to make ${index} live with`, await docCountOf(engine, index), live, 'the new index was deleted and the alias left as it was');
      if (refusal !== undefined) {
        await engine.deleteIndex(index);
        throw refusal;
      }
      await engine.updateAliases(swapActions());
      aliasLive = true;
      if (deleteOld) await deleteOlder();
    }
  }

  const elapsedMs = performance.now() - started;
  return {
    mode,
    index,
    alias: prefix,
    aliasLive,
    files: publication.files,
    documents: publication.documents,
    failures: publication.failures,
    failureCount: publication.failureCount,
    badFiles: publication.badFiles,
    badFileCount: publication.badFileCount,
    deletedIndices,
    elapsedMs,
    documentsPerSecond: elapsedMs > 0 ? (publication.documents * 1000) / elapsedMs : 0,
    ok: publication.failureCount <= maxFailures,
  };
}

/** The one-line summary every run prints. */
export function summarizeRun(report: IndexRunReport): string {
  const target = report.aliasLive ? `${report.index} (alias ${report.alias})` : `${report.index} (alias not changed)`;
  const seconds = (report.elapsedMs / 1000).toFixed(1);
  const rate = Math.round(report.documentsPerSecond).toLocaleString('en-US');
  return `${report.mode} run: ${report.documents} documents into ${target}, ${report.failureCount} failed, ${report.badFileCount} bad files, ${seconds} s, ${rate} docs/s`;
}
