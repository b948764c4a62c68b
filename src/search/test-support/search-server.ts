import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { silentLogger } from '../../log.js';
import { installErrorMapper } from '../../http/index.js';
import { searchRoutes, type SearchRoutesOptions } from '../api/routes.js';
import { SqliteEngine } from '../engines/sqlite/engine.js';
import type { IndexedDocument } from '../engines/types.js';
import { searchPageRoutes } from '../page/routes.js';

export interface DocSpec {
  id: string;
  title: string;
  body?: string;
  summary?: string;
  popularity?: number;
  locale?: string;
  slug?: string;
}

export function indexedDocument(spec: DocSpec): IndexedDocument {
  const locale = spec.locale ?? 'en-US';
  const slug = spec.slug ?? `docs/${spec.id}`;
  return {
    id: `/${locale}/${slug}`.toLowerCase(),
    url: `/${locale}/${slug}`,
    title: spec.title,
    body: spec.body ?? '',
    summary: spec.summary ?? '',
    popularity: spec.popularity ?? 0,
    locale,
    slug,
  };
}

export interface SearchServer {
  url: string;
  app: FastifyInstance;
  engine: SqliteEngine;
  close(): Promise<void>;
}

/**
 * A real fastify server on 127.0.0.1 with the search routes (and the search page) over a fresh SQLite index built
 * the way the indexer builds it (bulk, refresh, force merge, alias). `docs: undefined` leaves the alias missing.
 */
export async function startSearchServer(
  docs: readonly DocSpec[] | undefined,
  options: Partial<Omit<SearchRoutesOptions, 'engine' | 'logger'>> & { page?: boolean; plugins?: readonly FastifyPluginAsync[] } = {},
): Promise<SearchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-search-api-'));
  const engine = new SqliteEngine({ path: join(dir, 'search.sqlite') });
  if (docs !== undefined) {
    await engine.createIndex('site_docs_1');
    const results = await engine.bulk('site_docs_1', docs.map(indexedDocument));
    const failed = results.filter((result) => !result.ok);
    if (failed.length > 0) throw new Error(`test documents failed to index: ${JSON.stringify(failed)}`);
    await engine.refresh('site_docs_1');
    await engine.forceMerge('site_docs_1');
    await engine.updateAliases([{ add: { index: 'site_docs_1', alias: 'site_docs' } }]);
  }
  const logger = silentLogger();
  const app = Fastify({ logger: false });
  installErrorMapper(app, logger);
  const { page, plugins, ...routeOptions } = options;
  await app.register(searchRoutes({ rateLimit: { max: 100_000, windowMs: 60_000 }, ...routeOptions, engine, logger }));
  if (page === true) await app.register(searchPageRoutes());
  for (const plugin of plugins ?? []) await app.register(plugin);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    engine,
    async close() {
      await app.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
