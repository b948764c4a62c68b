import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AutocompleteResponse, SearchResponse } from '../src/search/index.js';
import { contentBuildCommand } from '../src/server/content-build-command.js';
import type { RunningProxy } from '../src/server/proxy-command.js';
import { createNextSiteContent, startNextSite, type NextSiteContent, type RunningNextSite } from './support/next-site.js';
import { startTestProxy } from './support/proxy.js';
import { runCommand, searchOfBuild, type SearchOfBuild } from './support/search-of-build.js';

// Issue 36's acceptance: search for a site sitestack does not render, read through `sitestack proxy` in front of it.
describe('content-build --from-site through sitestack proxy before the Next.js application, then search', () => {
  let content: NextSiteContent;
  let site: RunningNextSite;
  let proxy: RunningProxy;
  let dir: string;
  let index: SearchOfBuild;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-proxy-next-search-'));
    content = createNextSiteContent();
    content.setPost({ id: '4', title: 'Deploying behind a reverse proxy', body: 'How the cache in front keeps pages fresh.' });
    site = await startNextSite({ contentDir: content.dir });
    proxy = await startTestProxy([site.url]);
    assert.equal(await runCommand(dir, contentBuildCommand, ['--from-site', proxy.url, '--out', join(dir, 'build'), '--rate', '1000']), 0);
    index = await searchOfBuild(dir, join(dir, 'build'));
  });
  after(async () => {
    await index?.close();
    await proxy?.close();
    await site?.stop();
    content?.remove();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  // The application's pages say `<html lang="en">`: its documents are in locale `en`, which the search box sends.
  const search = (query: string): Promise<SearchResponse> => index.search(`locale=en&${query}`);

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
    const answer = (await (await fetch(`${index.apiUrl}/api/search/autocomplete?locale=en&q=revers`)).json()) as AutocompleteResponse;
    assert.ok(answer.matches.some((match) => match.url === '/posts/4'), JSON.stringify(answer.matches));
  });
});
