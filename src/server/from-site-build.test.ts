import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../config.js';
import { isAppError } from '../errors.js';
import { silentLogger } from '../log.js';
import { sitePage, startStubSite, urlset, type StubSite } from '../search/test-support/site-stub.js';
import { contentBuildCommand } from './content-build-command.js';

describe('content-build --from-site', () => {
  let dir: string;
  let site: StubSite;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-from-site-command-'));
    site = await startStubSite();
  });
  afterEach(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(args: string[]): Promise<{ code: number; output: string }> {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const config = loadConfig({ DATA_DIR: join(dir, 'data') }, dir);
    const code = await contentBuildCommand.run({ args, config, logger: silentLogger(), out });
    return { code, output: Buffer.concat(chunks).toString('utf8') };
  }
  const usageError = (pattern: RegExp) => (error: unknown) => isAppError(error) && error.code === 'USAGE' && pattern.test(error.message);

  it('writes the build and prints the summary with the skipped pages when some pages fail', async () => {
    site.routes.set('/sitemap.xml', { body: urlset([`${site.url}/a`, `${site.url}/gone`]) });
    site.routes.set('/a', { body: sitePage({ title: 'Alpha', body: '<main>first</main>' }) });
    const { code, output } = await run(['--from-site', site.url, '--out', join(dir, 'bûild ✓'), '--rate', '500', '--concurrency', '2', '--selector', 'main', '--locale', 'fr-fr']);
    assert.equal(code, 0);
    assert.match(output, /^content build from http:\/\/127\.0\.0\.1:\d+\/: 1 pages written to .*bûild ✓ \(1 fetched, 0 unchanged\), 1 skipped \(http-404 1\); 1 sitemaps, robots\.txt none \(http-404\); [\d.]+ s, [\d.]+ pages\/s\n {2}skipped http:\/\/127\.0\.0\.1:\d+\/gone: http-404 \(404\)\n$/);
  });

  it('fails with SITE_NOTHING_READ when no page can be read', async () => {
    await assert.rejects(run(['--from-site', site.url, '--out', join(dir, 'b'), '--rate', '500']), (error) => isAppError(error) && error.code === 'SITE_NOTHING_READ');
  });

  it('refuses bad arguments with the usage', async () => {
    await assert.rejects(run(['--sitemap', 'https://x.test/s.xml']), usageError(/--sitemap goes with --from-site/));
    await assert.rejects(run(['--from-site', ' ']), usageError(/--from-site needs the URL of a site/));
    await assert.rejects(run(['--from-site', site.url, '--concurrency', '0']), usageError(/--concurrency expects a positive integer, got '0'/));
    await assert.rejects(run(['--from-site', site.url, '--rate', 'fast']), usageError(/--rate expects a positive number, got 'fast'/));
    await assert.rejects(run(['--from-site', site.url, '--rate', '0']), usageError(/--rate expects a positive number/));
    await assert.rejects(run(['--from-site', 'ftp://x.test/\u202e']), (error) => isAppError(error) && error.code === 'SITE_BUILD_OPTIONS_INVALID');
    await assert.rejects(run(['--from-site', site.url, '--selector', 'main p']), (error) => isAppError(error) && error.code === 'SITE_BUILD_OPTIONS_INVALID' && /no combinators/.test(error.message));
    assert.equal(site.requests.length, 0);
  });
});
