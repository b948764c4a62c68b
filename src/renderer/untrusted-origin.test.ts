import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { silentLogger } from '../log.js';
import { buildClient, loadClientBuild } from './build.js';
import { createRenderer } from './handler.js';
import { LIST_ANSWER, POST_ANSWER } from './test-support/origin-answers.js';

/*
 * The renderer against an origin that answers 200 with anything: every field of a valid list and post answer replaced
 * by arbitrary JSON or removed, extra fields added, and wholly arbitrary bodies. Each answer must be the page (when
 * what was sent still has the origin's shape) or the 502 page, and the process must go on answering.
 */

const RUNS_PER_FIELD = 8;
const RUNS_WHOLE_BODY = 60;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/**
 * The oracle, independent of the renderer's schema: the same JSON kinds as the valid answer, field for field, with
 * any extra fields and any array lengths.
 */
function hasShapeOf(value: unknown, shape: unknown): boolean {
  if (Array.isArray(shape)) return Array.isArray(value) && value.every((item) => hasShapeOf(item, shape[0]));
  if (isObject(shape)) {
    if (!isObject(value)) return false;
    return Object.entries(shape).every(([key, field]) => Object.hasOwn(value, key) && hasShapeOf((value as Record<string, unknown>)[key], field));
  }
  return typeof value === typeof shape;
}

/** Every node's path under the root: each field, each array element, at every depth. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_item, index) => index) : Object.keys(value);
  return keys.flatMap((key) => {
    const path = [...prefix, key];
    return [path, ...pathsOf((value as Record<string | number, unknown>)[key], path)];
  });
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nodeAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

/** A copy of `answer` with the node at `path` set to `value`, or removed when `value` is undefined. */
function changed(answer: object, path: Path, value: Json | undefined): unknown {
  const copy = structuredClone(answer);
  const parent = nodeAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value !== undefined) Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/** What the stub origin answers, with status 200, to `GET /api/v1/plog/` and to `GET /api/v1/plog/<oid>`. */
const answers = { list: JSON.stringify(LIST_ANSWER), post: JSON.stringify(POST_ANSWER) };
const servers: Server[] = [];
const crashes: unknown[] = [];
const logged: string[] = [];
const recordCrash = (error: unknown) => crashes.push(error);
let dir: string;
let originUrl: string;
let frontUrl: string;
let buildId: string;

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function isValidBody(body: string, shape: unknown): boolean {
  try {
    return hasShapeOf(JSON.parse(body), shape);
  } catch {
    return false;
  }
}

/** Every route that reads `answer`, each checked to be the page when `valid`, else the uncacheable 502. */
async function checkRoutes(answer: 'list' | 'post', valid: boolean): Promise<void> {
  const paths =
    answer === 'list'
      ? ['/', '/plog', `/_render/data/${buildId}/en-US/index.json`, `/_render/data/${buildId}/en-US/plog.json`]
      : ['/plog/first-post', `/_render/data/${buildId}/en-US/plog/first-post.json`];
  for (const path of paths) {
    logged.length = 0;
    const response = await fetch(`${frontUrl}${path}`);
    const text = await response.text();
    const what = `${path} with ${answers[answer].slice(0, 300)}`;
    assert.equal(response.status, valid ? 200 : 502, what);
    assert.equal(response.headers.get('cache-control'), valid ? 'public,max-age=86400' : 'no-store', what);
    if (valid) continue;
    if (path.endsWith('.json')) assert.equal((JSON.parse(text) as { code: string }).code, 'ORIGIN_FAILED', what);
    else assert.match(text, /Something went wrong/, what);
    assert.ok(logged.some((message) => message.startsWith('malformed answer from') || message.includes('(body is not JSON)')), `${what}: ${logged.join('; ')}`);
  }
}

before(async () => {
  process.on('unhandledRejection', recordCrash);
  process.on('uncaughtException', recordCrash);
  dir = mkdtempSync(join(tmpdir(), 'sitestack-untrusted-origin-'));
  await buildClient({ outDir: dir });
  const build = loadClientBuild(dir);
  buildId = build.buildId;
  originUrl = await listen(
    createServer((req, res) => {
      const body = req.url === '/api/v1/plog/' ? answers.list : answers.post;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }),
  );
  const logger = silentLogger();
  logger.error = ((_object: unknown, message: string) => {
    logged.push(message);
  }) as typeof logger.error;
  frontUrl = await listen(createServer(createRenderer({ apiBase: originUrl, build, logger })));
});

after(() => {
  process.off('unhandledRejection', recordCrash);
  process.off('uncaughtException', recordCrash);
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('renderer with an untrusted origin', () => {
  for (const [answer, valid] of [['list', LIST_ANSWER], ['post', POST_ANSWER]] as const) {
    it(`answers the page or the 502 page when any field of the ${answer} answer is arbitrary JSON`, async () => {
      for (const path of pathsOf(valid)) {
        await fc.assert(
          fc.asyncProperty(fc.jsonValue() as fc.Arbitrary<Json>, async (value) => {
            const sent = changed(valid, path, value);
            answers[answer] = JSON.stringify(sent);
            await checkRoutes(answer, hasShapeOf(sent, valid));
          }),
          { numRuns: RUNS_PER_FIELD },
        );
      }
      answers[answer] = JSON.stringify(valid);
    });

    it(`answers the 502 page when a field of the ${answer} answer is missing, and the page when an array element is`, async () => {
      for (const path of pathsOf(valid)) {
        const sent = changed(valid, path, undefined);
        answers[answer] = JSON.stringify(sent);
        await checkRoutes(answer, typeof path[path.length - 1] === 'number');
      }
      answers[answer] = JSON.stringify(valid);
    });

    it(`answers the page when an object of the ${answer} answer has an extra field`, async () => {
      const objects = [[], ...pathsOf(valid)].filter((path) => isObject(nodeAt(valid, path)));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...objects), fc.string(), fc.jsonValue() as fc.Arbitrary<Json>, async (path, key, value) => {
          if (Object.hasOwn(nodeAt(valid, path) as object, key)) return;
          const sent = changed(valid, [...path, key], value);
          answers[answer] = JSON.stringify(sent);
          await checkRoutes(answer, true);
        }),
        { numRuns: RUNS_WHOLE_BODY },
      );
      answers[answer] = JSON.stringify(valid);
    });

    it(`answers the page or the 502 page when the whole ${answer} answer is arbitrary`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.jsonValue().map((value) => JSON.stringify(value)), fc.string()), async (body) => {
          answers[answer] = body;
          await checkRoutes(answer, isValidBody(body, valid));
        }),
        { numRuns: RUNS_WHOLE_BODY },
      );
      answers[answer] = JSON.stringify(valid);
    });
  }

  it('keeps answering every page when the origin is sound again', async () => {
    answers.list = JSON.stringify(LIST_ANSWER);
    answers.post = JSON.stringify(POST_ANSWER);
    await checkRoutes('list', true);
    await checkRoutes('post', true);
    const home = await (await fetch(`${frontUrl}/`)).text();
    assert.match(home, /Second post/);
    assert.deepEqual(crashes, []);
  });
});
