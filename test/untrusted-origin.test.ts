import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';

const GOOD_LIST = {
  groups: [{ date: '2026.01', posts: [{ oid: 'first-post', title: 'First post', pub_date: '2026-01-05T10:00:00.000Z', categories: [], comments: 0 }] }],
};
const GOOD_POST = {
  post: { oid: 'first-post', title: 'First post', body_html: '<p>Hello</p>', summary: 'Hello', pub_date: '2026-01-05T10:00:00.000Z', categories: [] },
  comments: { count: 0, items: [] },
};

/** A real front (page cache and renderer) in front of an origin that answers 200 with the malformed answers of issue 18. */
describe('front with a malformed origin answer', () => {
  const answers = { list: '{"groups":[{"date":"2026.01","posts":null}]}', post: JSON.stringify({ ...GOOD_POST, post: { ...GOOD_POST.post, title: { en: 'First' } } }) };
  const originRequests: string[] = [];
  const errors: string[] = [];
  let origin: Server;
  let originUrl: string;
  let front: RunningFront;
  let dataDir: string;

  async function get(path: string): Promise<{ status: number; cache: string | null; cacheControl: string | null; text: string }> {
    const response = await fetch(`${front.url}${path}`);
    return { status: response.status, cache: response.headers.get('x-middleware-cache'), cacheControl: response.headers.get('cache-control'), text: await response.text() };
  }

  before(async () => {
    origin = createServer((req, res) => {
      originRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(req.url === '/api/v1/plog/' ? answers.list : answers.post);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'sitestack-untrusted-origin-'));
    const logger = silentLogger();
    logger.error = ((_object: unknown, message: string) => {
      errors.push(message);
    }) as typeof logger.error;
    const config = loadConfig({ DATA_DIR: dataDir, PURGE_SECRET: 'untrusted-origin-secret', API_BASE: originUrl, LOG_LEVEL: 'silent' });
    front = await startFront({ config, logger, port: 0 });
  });

  after(async () => {
    await front?.close();
    origin?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the 502 page, never stored, when a month group has posts null', async () => {
    for (const path of ['/', '/plog']) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const asked = originRequests.length;
        const answer = await get(path);
        assert.equal(answer.status, 502, path);
        assert.equal(answer.cacheControl, 'no-store', path);
        assert.equal(answer.cache, 'miss', `${path}, request ${attempt + 1}`);
        assert.match(answer.text, /Something went wrong/);
        assert.equal(originRequests.length, asked + 1, `${path} asked the origin again`);
      }
    }
    assert.ok(errors.includes(`malformed answer from ${originUrl}/api/v1/plog/: groups[0].posts: expected an array, got null`), errors.join('\n'));
  });

  it('answers 502, never stored, when a post title is an object, on the page and its data route', async () => {
    for (const path of ['/plog/first-post', `/_render/data/${front.buildId}/en-US/plog/first-post.json`]) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const answer = await get(path);
        assert.equal(answer.status, 502, path);
        assert.equal(answer.cacheControl, 'no-store', path);
        assert.equal(answer.cache, 'miss', `${path}, request ${attempt + 1}`);
      }
    }
    const data = await get(`/_render/data/${front.buildId}/en-US/index.json`);
    assert.deepEqual(JSON.parse(data.text), { error: 'the content origin did not answer as expected', code: 'ORIGIN_FAILED' });
    assert.ok(errors.includes(`malformed answer from ${originUrl}/api/v1/plog/first-post: post.title: expected a string, got an object`), errors.join('\n'));
  });

  it('keeps answering, and caching the pages, when the origin answers well again', async () => {
    answers.list = JSON.stringify(GOOD_LIST);
    answers.post = JSON.stringify(GOOD_POST);
    for (const path of ['/', '/plog/first-post']) {
      const first = await get(path);
      assert.equal(first.status, 200, path);
      assert.equal(first.cache, 'miss', path);
      assert.match(first.text, /First post/);
      assert.equal((await get(path)).cache, 'hit', path);
    }
  });
});
