import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../config.js';
import { isAppError } from '../errors.js';
import { silentLogger } from '../log.js';
import { SqliteEngine } from '../search/engines/sqlite/engine.js';
import { loadPopularity } from '../search/indexing/ensure-index.js';
import { startStubOrigin } from '../search/test-support/origin-stub.js';
import { writePages } from '../search/test-support/build-files.js';
import type { Command } from './command.js';
import { contentBuildCommand } from './content-build-command.js';
import { indexCommand } from './index-command.js';
import { popularityCommand } from './popularity-command.js';

describe('search commands', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-search-commands-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(command: Command, args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const config = loadConfig({ DATA_DIR: join(dir, 'data'), ...env }, dir);
    const code = await command.run({ args, config, logger: silentLogger(), out });
    return { code, output: Buffer.concat(chunks).toString('utf8') };
  }
  const usageError = (pattern: RegExp) => (error: unknown) => isAppError(error) && error.code === 'USAGE' && pattern.test(error.message);

  describe('index', () => {
    it('indexes a build and prints the summary line', async () => {
      const root = join(dir, 'bûild ✓');
      writePages(root, [{ folder: 'en-us/a', title: 'Puffin' }]);
      const { code, output } = await run(indexCommand, [root, '--workers', '0']);
      assert.equal(code, 0);
      assert.match(output, /^full run: 1 documents into site_docs_\d{14} \(alias site_docs\), 0 failed, 0 bad files, [\d.]+ s, [\d,]+ docs\/s\n$/);
      const engine = new SqliteEngine({ path: join(dir, 'data', 'search.sqlite') });
      try {
        assert.equal(await engine.count({ index: 'site_docs', text: 'puffin' }), 1);
      } finally {
        await engine.close();
      }
    });

    it('exits 1 naming every failed item when items fail, and 0 with --max-failures', async () => {
      const root = join(dir, 'build');
      writePages(root, [{ folder: 'en-us/a', title: 'Fine' }, { folder: 'en-us/b', title: 'Long', url: `/${'y'.repeat(700)}` }]);
      const failed = await run(indexCommand, [root, '--workers=0']);
      assert.equal(failed.code, 1);
      assert.match(failed.output, /failed \/y+ \(en-us\/b\/index.json\): invalid_document: id is longer than 512 bytes/);
      assert.match(failed.output, /the new index was deleted and the alias left as it was/);
      assert.equal((await run(indexCommand, [root, '--max-failures', '1', '--workers', '0'])).code, 0);
    });

    it('exits 1 naming both counts and keeps the live index when a full or --recreate run would shrink it, and 0 with --allow-shrink', async () => {
      const root = join(dir, 'build');
      writePages(root, Array.from({ length: 4 }, (_, i) => ({ folder: `en-us/p${i}`, title: `Guillemot ${i}` })));
      assert.equal((await run(indexCommand, [root, '--workers', '0'])).code, 0);
      rmSync(root, { recursive: true });
      writePages(root, [{ folder: 'en-us/p0', title: 'Guillemot 0' }]);
      const full = await run(indexCommand, [root, '--workers', '0']);
      assert.equal(full.code, 1);
      assert.match(full.output, /^refused to make site_docs_\d{14}(_2)? live with 1 documents in place of the 4 of site_docs_\d{14}: fewer than half; the new index was deleted and the alias left as it was; --allow-shrink accepts it\n$/);
      const recreate = await run(indexCommand, [root, '--recreate', '--workers', '0']);
      assert.equal(recreate.code, 1);
      assert.match(recreate.output, /^refused to recreate from a build of at most 1 documents in place of the 4 of site_docs_\d{14}: fewer than half; nothing was created/);
      const engine = new SqliteEngine({ path: join(dir, 'data', 'search.sqlite') });
      try {
        assert.equal(await engine.count({ index: 'site_docs', text: 'guillemot' }), 4);
        assert.equal((await engine.listIndices('site_docs_')).length, 1);
        assert.equal((await run(indexCommand, [root, '--recreate', '--allow-shrink', '--workers', '0'])).code, 0);
        assert.equal(await engine.count({ index: 'site_docs', text: 'guillemot' }), 1);
      } finally {
        await engine.close();
      }
    });

    it('exits 2 naming the root when it holds no index.json, and 1 naming the counts when it holds only bad ones', () => {
      const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
      const env = { ...process.env, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent' };
      const empty = join(dir, 'empty');
      mkdirSync(empty);
      const none = spawnSync(process.execPath, ['--import', 'tsx', cli, 'index', empty], { env, encoding: 'utf8' });
      assert.equal(none.status, 2);
      assert.equal(none.stderr, `sitestack: content build root '${empty}' holds no index.json\n`);
      writeFileSync(join(empty, 'index.json'), '{"doc": ');
      const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, 'index', empty], { env, encoding: 'utf8' });
      assert.equal(bad.status, 1);
      assert.match(bad.stdout, /^refused to make site_docs_\d{14} live with 0 documents with no live index to replace: an index with no documents is not made live/);
      const help = spawnSync(process.execPath, ['--import', 'tsx', cli, 'index', '--help'], { env, encoding: 'utf8' });
      assert.equal(help.status, 0);
      assert.match(help.stdout, /\[--allow-shrink\][\s\S]*exits 1 naming both counts[\s\S]*without any index.json exits 2/);
    });

    it('refuses bad arguments with a usage error', async () => {
      await assert.rejects(run(indexCommand, []), usageError(/expected one content build root, got 0/));
      await assert.rejects(run(indexCommand, ['a', 'b']), usageError(/got 2/));
      await assert.rejects(run(indexCommand, ['a', '--bogus']), usageError(/Unknown option '--bogus'/));
      await assert.rejects(run(indexCommand, ['a', '--update', '--recreate']), usageError(/exclude each other/));
      await assert.rejects(run(indexCommand, ['a', '--max-failures', '-1']), usageError(/Usage: sitestack index/));
      await assert.rejects(run(indexCommand, ['a', '--max-failures', 'ten']), usageError(/--max-failures expects a non-negative integer, got 'ten'/));
      await assert.rejects(run(indexCommand, ['a', '--priority-prefix', 'en-us/']), usageError(/only applies to --recreate/));
      await assert.rejects(run(indexCommand, ['a', '--prefix', 'Bad Prefix']), usageError(/--prefix/));
      await assert.rejects(run(indexCommand, ['a', '--update', '--allow-shrink']), usageError(/--allow-shrink only applies to a full or --recreate run/));
    });

    it('fails clearly when the root is missing, the index to update is missing, or the Elasticsearch cluster is unreachable', async () => {
      await assert.rejects(run(indexCommand, [join(dir, 'missing')]), (error) => isAppError(error) && error.code === 'BUILD_ROOT_MISSING');
      const root = join(dir, 'build');
      writePages(root, [{ folder: 'en-us/a', title: 'A' }]);
      await assert.rejects(run(indexCommand, [root, '--update']), (error) => isAppError(error) && error.code === 'SEARCH_INDEX_MISSING');
      await assert.rejects(
        run(indexCommand, [root], { SEARCH_URL: 'http://user:secretpw@127.0.0.1:9' }),
        (error) => isAppError(error) && error.code === 'SEARCH_UNAVAILABLE' && !error.message.includes('secretpw'),
      );
    });
  });

  describe('popularity import', () => {
    const csv = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };

    it('imports a CSV with or without header, summing repeated URLs, and a re-import replaces it', async () => {
      const first = await run(popularityCommand, ['import', csv('a.csv', 'url,pageviews\r\n/plog/a/,300\nhttps://site.example/Plog/B,100\n/plog/a,100\n\n')]);
      assert.equal(first.code, 0);
      assert.match(first.output, /imported 3 rows for 2 URLs/);
      assert.deepEqual(loadPopularity(join(dir, 'data')), new Map([['/plog/a', 1], ['/plog/b', 0.25]]));
      await run(popularityCommand, ['import', csv('b.csv', '"/plog/c",50\n')]);
      assert.deepEqual(loadPopularity(join(dir, 'data')), new Map([['/plog/c', 1]]));
    });

    it('reports every bad row by line number and keeps the stored counts', async () => {
      await run(popularityCommand, ['import', csv('good.csv', '/plog/keep,10\n')]);
      const bad = csv('bad.csv', 'url,pageviews\n/ok,1\nnot a path,5\n/x,-3\n/y,abc\n/z\n"/q,1\n/w,1,2\n/ü/ñ,7\n\u0000\u0001,1\n/big,99999999999999999\n');
      await assert.rejects(run(popularityCommand, ['import', bad]), (error) => {
        assert.ok(isAppError(error));
        assert.equal(error.code, 'CSV_INVALID');
        for (const line of ['line 3: url', 'line 4: pageviews', 'line 5: pageviews', 'line 6: expected 2 fields', 'line 7: unbalanced quotes', 'line 8: expected 2 fields', 'line 10: url', 'line 11: pageviews']) {
          assert.ok(error.message.includes(line), `${line} in ${error.message}`);
        }
        assert.ok(!error.message.includes('line 9'), 'a unicode path is fine');
        return true;
      });
      assert.deepEqual(loadPopularity(join(dir, 'data')), new Map([['/plog/keep', 1]]));
    });

    it('refuses a missing file, an empty file, binary input and bad arguments', async () => {
      await assert.rejects(run(popularityCommand, ['import', join(dir, 'nope.csv')]), (error) => isAppError(error) && error.code === 'CSV_UNREADABLE');
      await assert.rejects(run(popularityCommand, ['import', csv('empty.csv', 'url,pageviews\n')]), (error) => isAppError(error) && /no rows/.test(error.message));
      const binary = join(dir, 'bin.csv');
      writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
      await assert.rejects(run(popularityCommand, ['import', binary]), (error) => isAppError(error) && error.code === 'CSV_INVALID');
      await assert.rejects(run(popularityCommand, []), usageError(/expected 'import <csv>'/));
      await assert.rejects(run(popularityCommand, ['export', 'x.csv']), usageError(/expected 'import <csv>'/));
      await assert.rejects(run(popularityCommand, ['import', 'a.csv', '--force']), usageError(/Unknown option/));
    });
  });

  describe('content-build', () => {
    it('writes the build of the origin at API_BASE into --out with imported popularity', async () => {
      const origin = await startStubOrigin([
        { oid: 'a', title: 'A', body_html: '<p>a</p>' },
        { oid: 'b', title: 'B', body_html: '<p>b</p>' },
      ]);
      try {
        writeFileSync(join(dir, 'views.csv'), '/plog/a,40\n/plog/b,10\n');
        await run(popularityCommand, ['import', join(dir, 'views.csv')]);
        const out = join(dir, 'out');
        const { code, output } = await run(contentBuildCommand, ['--out', out], { API_BASE: origin.url });
        assert.equal(code, 0);
        assert.match(output, /content build: 2 posts written to .*out, 0 gone meanwhile/);
        const doc = (oid: string) => JSON.parse(readFileSync(join(out, 'en-us', 'plog', oid, 'index.json'), 'utf8')).doc;
        assert.deepEqual([doc('a').popularity, doc('b').popularity], [1, 0.25]);
      } finally {
        await origin.close();
      }
    });

    it('refuses bad arguments and an unreachable origin', async () => {
      await assert.rejects(run(contentBuildCommand, ['extra']), usageError(/unexpected argument 'extra'/));
      await assert.rejects(run(contentBuildCommand, ['--out']), usageError(/--out/));
      await assert.rejects(run(contentBuildCommand, ['--out', ' ']), usageError(/--out needs a folder/));
      await assert.rejects(run(contentBuildCommand, ['--out', join(dir, 'o')], { API_BASE: 'http://127.0.0.1:9' }), (error) => isAppError(error) && error.code === 'ORIGIN_UNAVAILABLE');
    });
  });
});
