import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { installErrorMapper } from '../src/http/index.js';
import { silentLogger } from '../src/log.js';
import { SqliteEngine, searchRoutes, type AutocompleteResponse, type SearchResponse } from '../src/search/index.js';
import type { Command } from '../src/server/command.js';
import { contentBuildCommand } from '../src/server/content-build-command.js';
import { indexCommand } from '../src/server/index-command.js';
import type { RunningProxy } from '../src/server/proxy-command.js';
import { createNextSiteContent, startNextSite, type NextSiteContent, type RunningNextSite } from './support/next-site.js';
import { startTestProxy } from './support/proxy.js';

// Issue 36's acceptance: search for a site sitestack does not render, read through `sitestack proxy` in front of it.
describe('content-build --from-site through sitestack proxy before the Next.js application, then search', () => {
  let content: NextSiteContent;
  let site: RunningNextSite;
  let proxy: RunningProxy;
  let dir: string;
  let engine: SqliteEngine;
  let api: FastifyInstance;
  let apiUrl: string;

  async function run(command: Command, args: string[]): Promise<number> {
    const config = loadConfig({ DATA_DIR: join(dir, 'data') }, dir);
    return command.run({ args, config, logger: silentLogger(), out: new PassThrough() });
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-proxy-next-search-'));
    content = createNextSiteContent();
    content.setPost({ id: '4', title: 'Deploying behind a reverse proxy', body: 'How the cache in front keeps pages fresh.' });
    site = await startNextSite({ contentDir: content.dir });
    proxy = await startTestProxy([site.url]);
    assert.equal(await run(contentBuildCommand, ['--from-site', proxy.url, '--out', join(dir, 'build'), '--rate', '1000']), 0);
    assert.equal(await run(indexCommand, [join(dir, 'build'), '--workers', '0']), 0);
    engine = new SqliteEngine({ path: join(dir, 'data', 'search.sqlite') });
    api = Fastify();
    installErrorMapper(api, silentLogger());
    await api.register(searchRoutes({ engine, logger: silentLogger() }));
    apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await api?.close();
    await engine?.close();
    await proxy?.close();
    await site?.stop();
    content?.remove();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  // The application's pages say `<html lang="en">`: its documents are in locale `en`, which the search box sends.
  const search = async (query: string): Promise<SearchResponse> => (await fetch(`${apiUrl}/api/v1/search?locale=en&${query}`)).json() as Promise<SearchResponse>;

  it('finds a post of the Next.js site by a word of its title', async () => {
    const answer = await search('q=deploying');
    assert.equal(answer.documents[0]?.url, '/posts/4');
    assert.match(answer.documents[0]?.title ?? '', /Deploying behind a reverse proxy/);
  });

  it('finds it by a word of its title typed with a typo', async () => {
    const answer = await search('q=deploying+reverse+prxy');
    assert.equal(answer.documents[0]?.url, '/posts/4');
    assert.equal(answer.metadata.corrected, 'deploying reverse proxy');
  });

  it('completes its title from a later word as it is typed', async () => {
    const answer = (await (await fetch(`${apiUrl}/api/search/autocomplete?locale=en&q=revers`)).json()) as AutocompleteResponse;
    assert.ok(answer.matches.some((match) => match.url === '/posts/4'), JSON.stringify(answer.matches));
  });
});
