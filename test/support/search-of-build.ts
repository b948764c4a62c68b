import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.js';
import { installErrorMapper } from '../../src/http/index.js';
import { silentLogger } from '../../src/log.js';
import { SqliteEngine, searchRoutes, type SearchResponse } from '../../src/search/index.js';
import type { Command } from '../../src/server/command.js';
import { indexCommand } from '../../src/server/index-command.js';

/** Runs a `sitestack` command as the CLI would, with `DATA_DIR` under `dir`; resolves with its exit code. */
export function runCommand(dir: string, command: Command, args: string[]): Promise<number> {
  const config = loadConfig({ DATA_DIR: join(dir, 'data') }, dir);
  return command.run({ args, config, logger: silentLogger(), out: new PassThrough() });
}

export interface SearchOfBuild {
  apiUrl: string;
  /** The search API's answer to `/api/v1/search?<query>`. */
  search(query: string): Promise<SearchResponse>;
  close(): Promise<void>;
}

/** `sitestack index <build>` into the SQLite engine under `dir`, then the search API over it on a free port. */
export async function searchOfBuild(dir: string, build: string): Promise<SearchOfBuild> {
  const code = await runCommand(dir, indexCommand, [build, '--workers', '0']);
  if (code !== 0) throw new Error(`sitestack index ${build} exited with ${code}`);
  const engine = new SqliteEngine({ path: join(dir, 'data', 'search.sqlite') });
  const api = Fastify();
  installErrorMapper(api, silentLogger());
  await api.register(searchRoutes({ engine, logger: silentLogger() }));
  const apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  return {
    apiUrl,
    search: async (query) => (await fetch(`${apiUrl}/api/v1/search?${query}`)).json() as Promise<SearchResponse>,
    async close() {
      await api.close();
      await engine.close();
    },
  };
}
