import { join } from 'node:path';
import type { Logger } from '../../log.js';
import { runContentBuild } from './content-build.js';
import { createEngine } from '../engines/factory.js';
import type { SearchEngine } from '../engines/types.js';
import { runIndexName } from './index-names.js';
import { runIndexer, summarizeRun, type IndexRunReport } from './indexer.js';
import { PopularityStore } from './popularity.js';

export interface EnsureSearchIndexOptions {
  config: { apiBase: string; dataDir: string; searchUrl: string; searchPrefix: string };
  logger: Logger;
  /** Where the content build is written. @default `<dataDir>/build` */
  buildDir?: string;
  /** An engine to use instead of the one `config.searchUrl` names (it is not closed). */
  engine?: SearchEngine;
  fetch?: typeof fetch;
}

/** Reads the normalised popularity of `<dataDir>/popularity.sqlite` (empty when nothing was imported). */
export function loadPopularity(dataDir: string): Map<string, number> {
  const store = new PopularityStore(join(dataDir, 'popularity.sqlite'));
  try {
    return store.normalized();
  } finally {
    store.close();
  }
}

/**
 * What `sitestack start` calls once the origin answers: when the alias `<prefix>` does not exist yet, or points at an
 * index built by an older version, run the content build and a full index run, so search answers at once (with no
 * posts yet, an empty index is made live); otherwise do nothing. Resolves with the run's report, or undefined when no index run was needed.
 */
export async function ensureSearchIndex(options: EnsureSearchIndexOptions): Promise<IndexRunReport | undefined> {
  const { config, logger } = options;
  const engine = options.engine ?? createEngine(config.searchUrl, {}, { logger });
  try {
    const indices = await engine.listIndices(`${config.searchPrefix}_`);
    const live = indices.filter((info) => info.aliases.includes(config.searchPrefix));
    if (live.length > 0 && live.every((info) => info.outdated !== true)) return undefined;
    if (live.length > 0) logger.warn({ indices: live.map((info) => info.name) }, 'the live search index was built by an older version: building it again');
    const root = options.buildDir ?? join(config.dataDir, 'build');
    const build = await runContentBuild({
      apiBase: config.apiBase,
      out: root,
      popularity: loadPopularity(config.dataDir),
      logger,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    logger.info({ posts: build.posts, out: build.out }, 'content build written');
    if (build.posts === 0) {
      // A site with no posts yet: an empty index is made live, so the origin's live updates have an index to fill.
      // There is none to replace, so the index run's refusal of an empty index protects nothing here.
      const index = runIndexName(config.searchPrefix, new Date());
      await engine.createIndex(index);
      await engine.updateAliases([...live.map((info) => ({ remove: { index: info.name, alias: config.searchPrefix } })), { add: { index, alias: config.searchPrefix } }]);
      logger.info({ index }, 'no posts yet: an empty search index is live');
      return undefined;
    }
    const report = await runIndexer({ engine, root, prefix: config.searchPrefix, logger });
    logger.info({ index: report.index, documents: report.documents }, summarizeRun(report));
    return report;
  } finally {
    if (options.engine === undefined) await engine.close();
  }
}
