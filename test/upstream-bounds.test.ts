import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';

const MiB = 1024 * 1024;
/** The answer: 300 MB, far past any bound, so reading it whole would show in the bytes sent and the RSS. */
const HUGE = 300 * 1000 * 1000;
/** Bound on what the origin may hand the kernel before the front hangs up: the front's 4 MiB plus socket buffers. */
const MAX_SENT = 32 * MiB;
const ORIGIN_TIMEOUT_MS = 1500;

const GOOD_LIST = {
  groups: [{ date: '2026.01', posts: [{ oid: 'first-post', title: 'First post', pub_date: '2026-01-05T10:00:00.000Z', categories: [], comments: 0 }] }],
};
const GOOD_POST = {
  post: { oid: 'first-post', title: 'First post', body_html: '<p>Hello</p>', summary: 'Hello', pub_date: '2026-01-05T10:00:00.000Z', categories: [] },
  comments: { count: 0, items: [] },
};

type Mode = 'good' | 'huge-length' | 'huge-chunked' | 'slow' | 'bad-utf8';

/** How the fake origin answers, and what it saw: bytes it got onto the socket per answer, and the comments it received. */
const origin = { mode: 'good' as Mode, status: 200, sent: [] as number[], comments: [] as unknown[] };
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes `total` bytes of CHUNK as fast as the reader takes them, until done or the reader hangs up; resolves the count. */
async function pour(res: ServerResponse, total: number): Promise<number> {
  let sent = 0;
  while (sent < total && !res.destroyed) {
    const more = res.write(CHUNK);
    sent += CHUNK.length;
    if (!more) await new Promise<void>((resolve) => {
      res.once('drain', resolve);
      res.once('close', resolve);
    });
  }
  res.end();
  return sent;
}

/** A byte a second, until the reader hangs up. */
async function trickle(res: ServerResponse): Promise<number> {
  let sent = 0;
  while (!res.destroyed && sent < 60) {
    res.write(sent === 0 ? '{' : ' ');
    sent++;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      res.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return sent;
}

function answer(req: IncomingMessage, res: ServerResponse, good: string): void {
  const type = { 'content-type': 'application/json' };
  const record = (sent: Promise<number>) => void sent.then((count) => origin.sent.push(count));
  switch (origin.mode) {
    case 'good':
      res.writeHead(origin.status, type).end(good);
      return;
    case 'huge-length':
      res.writeHead(origin.status, { ...type, 'content-length': String(HUGE) });
      record(pour(res, HUGE));
      return;
    case 'huge-chunked':
      res.writeHead(origin.status, type);
      record(pour(res, HUGE));
      return;
    case 'slow':
      res.writeHead(origin.status, type);
      record(trickle(res));
      return;
    case 'bad-utf8': {
      const at = good.indexOf('First post') + 'First'.length;
      res.writeHead(origin.status, type).end(Buffer.concat([Buffer.from(good.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(good.slice(at))]));
      return;
    }
  }
}

let originServer: Server;
let front: RunningFront;
let dataDir: string;
const errors: string[] = [];

before(async () => {
  originServer = createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        origin.comments.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        answer(req, res, JSON.stringify({ error: 'First post: name must be at most 80 characters', code: 'INVALID_INPUT' }));
      });
      return;
    }
    answer(req, res, JSON.stringify(req.url === '/api/v1/plog/' ? GOOD_LIST : GOOD_POST));
  });
  await new Promise<void>((resolve) => originServer.listen(0, '127.0.0.1', resolve));
  dataDir = mkdtempSync(join(tmpdir(), 'sitestack-upstream-bounds-'));
  const logger = silentLogger();
  logger.error = ((_object: unknown, message: string) => {
    errors.push(message);
  }) as typeof logger.error;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PURGE_SECRET: 'upstream-bounds-secret',
    API_BASE: `http://127.0.0.1:${(originServer.address() as AddressInfo).port}`,
    ORIGIN_TIMEOUT_MS: String(ORIGIN_TIMEOUT_MS),
    LOG_LEVEL: 'silent',
  });
  front = await startFront({ config, logger, port: 0 });
});

after(async () => {
  await front?.close();
  originServer?.closeAllConnections();
  originServer?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  origin.mode = 'good';
  origin.status = 200;
  origin.sent = [];
  origin.comments = [];
  errors.length = 0;
});

/** Waits for the fake origin to have seen the front hang up on `count` answers, and gives their byte counts. */
async function sentCounts(count: number): Promise<number[]> {
  for (let waited = 0; origin.sent.length < count && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(origin.sent.length, count, 'the front did not hang up on every answer');
  return origin.sent;
}

function postComment(form: string, accept = 'application/json'): Promise<Response> {
  return fetch(`${front.url}/plog/first-post/comments`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept }, body: form });
}

describe('the front with an origin answering too much', () => {
  for (const mode of ['huge-length', 'huge-chunked'] as const) {
    it(`answers the 502 page, never stored, and reads a bounded part of a 300 MB answer sent ${mode === 'huge-length' ? 'with its Content-Length' : 'chunked'}`, async () => {
      origin.mode = mode;
      const rssBefore = process.memoryUsage().rss;
      const paths = ['/', `/_render/data/${front.buildId}/en-US/plog/first-post.json`, '/plog/first-post'];
      for (const path of paths) {
        const response = await fetch(`${front.url}${path}`);
        assert.equal(response.status, 502, path);
        assert.equal(response.headers.get('cache-control'), 'no-store', path);
        assert.equal(response.headers.get('x-middleware-cache'), 'miss', path);
        assert.ok((await response.text()).length < 64 * 1024, path);
      }
      for (const sent of await sentCounts(paths.length)) assert.ok(sent <= MAX_SENT, `the origin got ${sent} bytes out`);
      assert.ok(process.memoryUsage().rss - rssBefore < 200 * MiB, `RSS grew by ${process.memoryUsage().rss - rssBefore} bytes`);
      assert.ok(errors.some((message) => message.includes('4194304')), errors.join('\n'));
    });
  }

  for (const mode of ['huge-length', 'huge-chunked'] as const) {
    it(`answers a comment with 502, not the origin's words, when its 400 is 300 MB sent ${mode === 'huge-length' ? 'with its Content-Length' : 'chunked'}`, async () => {
      origin.mode = mode;
      origin.status = 400;
      const json = await postComment('name=Ann&comment=hello');
      assert.equal(json.status, 502);
      assert.equal(((await json.json()) as { code: string }).code, 'ORIGIN_FAILED');
      const page = await postComment('name=Ann&comment=hello', 'text/html');
      assert.equal(page.status, 502);
      assert.ok((await page.text()).length < 64 * 1024);
      for (const sent of await sentCounts(2)) assert.ok(sent <= MAX_SENT, `the origin got ${sent} bytes out`);
    });
  }
});

describe('the front with an origin answering slowly', () => {
  it('answers 502 for a page and a comment once the origin timeout ends a body that trickles a byte a second', async () => {
    origin.mode = 'slow';
    const page = await fetch(`${front.url}/plog/first-post`);
    assert.equal(page.status, 502);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    origin.status = 400;
    assert.equal((await postComment('name=Ann&comment=hello')).status, 502);
    // The body was cut off by the timeout, not read to its end: a few bytes of the 60 the origin would send.
    for (const sent of await sentCounts(2)) assert.ok(sent < 10, `the origin sent ${sent} bytes`);
  });
});

describe('the front with an origin answering bytes that are not UTF-8', () => {
  it('answers the 502 page, never stored, for a page and its data route', async () => {
    origin.mode = 'bad-utf8';
    for (const path of ['/plog', '/plog/first-post', `/_render/data/${front.buildId}/en-US/plog/first-post.json`]) {
      const response = await fetch(`${front.url}${path}`);
      assert.equal(response.status, 502, path);
      assert.equal(response.headers.get('cache-control'), 'no-store', path);
      assert.doesNotMatch(await response.text(), /\ufffd/, path);
    }
    assert.ok(errors.some((message) => message.includes('the answer is not UTF-8')), errors.join('\n'));
  });

  it('answers a comment with 502 when the origin\'s refusal is not UTF-8', async () => {
    origin.mode = 'bad-utf8';
    origin.status = 400;
    const response = await postComment('name=Ann&comment=hello');
    assert.equal(response.status, 502);
  });
});

describe('the front\'s comment form', () => {
  it('answers 400 naming the field, and sends the origin nothing, when a value is not UTF-8', async () => {
    for (const [form, field] of [['name=Ann&comment=A%FF%FEB', 'comment'], ['name=%C3&comment=hi', 'name']] as const) {
      const response = await postComment(form);
      assert.equal(response.status, 400, form);
      assert.deepEqual(await response.json(), { error: `${field} is not valid UTF-8`, code: 'INVALID_UTF8' });
      const page = await postComment(form, 'text/html');
      assert.equal(page.status, 400);
      assert.match(await page.text(), new RegExp(`${field} is not valid UTF-8`));
    }
    assert.deepEqual(origin.comments, []);
  });

  for (const [kind, character] of [['3-byte', '漢'], ['4-byte', '😀']] as const) {
    it(`passes on a name and a comment at the origin's character limits in ${kind} characters, percent-encoded`, async () => {
      origin.status = 201;
      const name = character.repeat(80);
      const comment = character.repeat(5000);
      const response = await postComment(new URLSearchParams({ name, comment }).toString());
      assert.equal(response.status, 201);
      assert.deepEqual(origin.comments, [{ name, comment }]);
    });
  }
});
