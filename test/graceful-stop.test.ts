import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { freePort } from './support/stack.js';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const children: ChildProcess[] = [];
const servers: Server[] = [];
const dirs: string[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid ?? 0), 'SIGKILL');
  for (const server of servers) server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Cli {
  child: ChildProcess;
  /** The log lines (JSON on stderr) so far. */
  logs(): Record<string, unknown>[];
  exit: Promise<number | null>;
}

/** `sitestack <args>` in a process group of its own (nginx and cluster workers get no signal but what it sends). */
async function cli(args: string[], env: Record<string, string>, ready: RegExp): Promise<Cli> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '5000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (ready.test(stdout)) resolve();
    });
    void exit.then((code) => reject(new Error(`sitestack ${args.join(' ')} exited with ${code} before printing ${ready}: ${stderr}`)));
  });
  const logs = () =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, logs, exit };
}

type Answerer = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A local server that holds every request for `delayMs` before `answer` runs; `arrived` resolves at the next request. */
async function slowServer(delayMs: number, answer: Answerer): Promise<{ url: string; arrived(): Promise<void> }> {
  let waiting: (() => void) | undefined;
  const server = createServer((req, res) => {
    waiting?.();
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    setTimeout(() => answer(req, res, body), delayMs);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, arrived: () => new Promise((resolve) => (waiting = resolve)) };
}

interface Answer {
  status: number;
  body: string;
}

/** One request on its own connection; `body` may be sent in parts, each after the promise before it resolves. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; parts?: (string | Promise<unknown>)[] } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    void (async () => {
      for (const part of options.parts ?? []) {
        if (typeof part === 'string') req.write(part);
        else await part;
      }
      req.end();
    })();
  });
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-graceful-'));
  dirs.push(dir);
  return dir;
}

const jsonList: Answerer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"groups":[]}');

describe('graceful stop of the sitestack servers', () => {
  for (const workers of [[], ['--workers', '2']]) {
    it(`answers the page in flight in full and exits 0 when \`sitestack ${['front', ...workers].join(' ')}\` gets SIGTERM during a slow render`, async () => {
      const origin = await slowServer(800, jsonList);
      const port = await freePort();
      const front = await cli(['front', ...workers], { DATA_DIR: dataDir(), PORT: String(port), API_BASE: origin.url }, /front listening on/);
      const reaching = origin.arrived();
      const page = send(`http://127.0.0.1:${port}/`);
      await reaching;
      front.child.kill('SIGTERM');
      const answer = await page;
      assert.equal(answer.status, 200);
      assert.match(answer.body, /<\/html>\s*$/);
      assert.equal(await front.exit, 0);
      assert.ok(
        front.logs().some((line) => line.msg === 'shutting down: finishing the requests in flight'),
        'one line says the front is stopping',
      );
    });
  }

  it('cuts the page in flight and exits 0 at once when `sitestack front` gets a second SIGTERM during the drain', async () => {
    const origin = await slowServer(20_000, jsonList);
    const port = await freePort();
    const front = await cli(['front'], { DATA_DIR: dataDir(), PORT: String(port), API_BASE: origin.url, SHUTDOWN_TIMEOUT_MS: '20000' }, /front listening on/);
    const reaching = origin.arrived();
    const page = send(`http://127.0.0.1:${port}/`);
    await reaching;
    front.child.kill('SIGTERM');
    await sleep(200);
    const started = Date.now();
    front.child.kill('SIGTERM');
    await assert.rejects(page, { code: 'ECONNRESET' });
    assert.equal(await front.exit, 0);
    assert.ok(Date.now() - started < 5_000, 'the second signal did not wait for the drain time');
    const messages = front.logs().map((line) => line.msg);
    assert.ok(messages.includes('second stop request: not waiting for the requests in flight'), messages.join('\n'));
  });

  it('answers the write in flight in full, lets the purge in flight reach its front and exits 0 when `sitestack origin` gets SIGTERM', async () => {
    const purges: { pathnames: string[]; answeredWhileConnected: boolean }[] = [];
    const frontStub = await slowServer(1_000, (req, res, body) => {
      purges.push({ pathnames: (JSON.parse(body) as { pathnames: string[] }).pathnames, answeredWhileConnected: !req.socket.destroyed });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"purged":[]}');
    });
    const port = await freePort();
    const origin = await cli(
      ['origin'],
      { DATA_DIR: dataDir(), ORIGIN_PORT: String(port), ORIGIN_ADMIN_TOKEN: 'graceful', PURGE_SECRET: 'graceful-purge', PURGE_URLS: `${frontStub.url}/__purge__` },
      /origin listening on/,
    );
    const put = (oid: string, parts: (string | Promise<unknown>)[]) =>
      send(`http://127.0.0.1:${port}/api/v1/plog/${oid}`, {
        method: 'PUT',
        headers: { authorization: 'Bearer graceful', 'content-type': 'application/json', 'content-length': String(parts.filter((part) => typeof part === 'string').join('').length) },
        parts,
      });
    const post = JSON.stringify({ title: 'Graceful', body: '<p>b</p>', pub_date: '2026-11-20' });
    const purgeArrives = frontStub.arrived();
    assert.equal((await put('graceful-first', [post])).status, 201);
    await purgeArrives;
    // The second write is in flight when the signal comes: its body is only half sent.
    let finishBody!: () => void;
    const bodyRest = new Promise<void>((resolve) => (finishBody = resolve));
    const write = put('graceful-second', [post.slice(0, 10), bodyRest, post.slice(10)]);
    await sleep(200);
    origin.child.kill('SIGTERM');
    await sleep(300);
    finishBody();
    const answer = await write;
    assert.equal(answer.status, 201, answer.body);
    assert.equal((JSON.parse(answer.body) as { post: { title: string } }).post.title, 'Graceful');
    assert.equal(await origin.exit, 0);
    assert.equal(purges.length, 1);
    assert.ok(purges[0]?.answeredWhileConnected, 'the purge in flight was answered, not aborted');
    assert.ok(purges[0]?.pathnames.includes('/plog/graceful-first'), JSON.stringify(purges));
  });

  const { skip } = nginxForTests();
  it('answers the request in flight through nginx and exits 0 when `sitestack edge` gets SIGTERM', { skip }, async () => {
    const frontStub = await slowServer(800, (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('slow page'));
    const port = await freePort();
    const edge = await cli(['edge'], { DATA_DIR: dataDir(), EDGE_PORT: String(port), EDGE_UPSTREAM: frontStub.url }, /edge listening on/);
    const reaching = frontStub.arrived();
    const page = send(`http://127.0.0.1:${port}/slow`);
    await reaching;
    edge.child.kill('SIGTERM');
    assert.deepEqual(await page, { status: 200, body: 'slow page' });
    assert.equal(await edge.exit, 0);
  });
});
