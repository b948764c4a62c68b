import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { capturedLogger } from '../test-support/captured-logger.js';
import { drainServer } from './drain.js';

interface Reply {
  status: number;
  connection: string | undefined;
  body: string;
  socket: Socket;
}

function get(port: number, path: string, agent: Agent | false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res: IncomingMessage) => {
      // The agent takes the socket back once the answer ends.
      const socket = res.socket;
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body, socket }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
}

/** A server whose `/slow` answers after `delayMs`, in two writes (headers sent early), and everything else at once. */
function slowServer(delayMs: number, arrived: () => void = () => undefined): Server {
  return createServer((req, res) => {
    if (req.url !== '/slow') {
      res.end('quick');
      return;
    }
    arrived();
    setTimeout(() => res.end('slow answer'), delayMs);
  });
}

/** A server whose answers take five seconds, with one request in flight, and a logger to capture what a drain says. */
async function slowRequestInFlight() {
  const server = slowServer(5_000);
  const port = await listen(server);
  const slow = get(port, '/slow', false);
  await sleep(100);
  return { server, slow, ...capturedLogger() };
}

describe('drainServer', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('answers the request in flight in full with Connection: close, closes idle connections and refuses new ones when the server drains', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = slowServer(400, arrived);
    const port = await listen(server);
    const idleAgent = new Agent({ keepAlive: true });
    const busyAgent = new Agent({ keepAlive: true });
    cleanups.push(() => idleAgent.destroy(), () => busyAgent.destroy());
    const idle = await get(port, '/warm', idleAgent);
    assert.equal(idle.connection, 'keep-alive');
    const idleClosed = once(idle.socket, 'close');
    const slow = get(port, '/slow', busyAgent);
    await inFlight;
    const { logger, lines } = capturedLogger();
    const started = Date.now();
    const drained = drainServer(server, { logger, timeoutMs: 5_000 });
    await idleClosed;
    assert.ok(Date.now() - started < 300, 'the idle keep-alive connection was closed at once');
    await assert.rejects(get(port, '/warm', false), { code: 'ECONNREFUSED' });
    const answer = await slow;
    assert.deepEqual([answer.status, answer.body, answer.connection], [200, 'slow answer', 'close']);
    await drained;
    assert.ok(Date.now() - started < 2_000, `the drain ended with its last request (${Date.now() - started} ms)`);
    assert.deepEqual(lines, [], 'a clean drain logs nothing');
  });

  it('closes the connection after an answer whose headers were sent before the drain when the server drains', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first half, ');
      setTimeout(() => res.end('second half'), 300);
    });
    const port = await listen(server);
    const agent = new Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    const answer = get(port, '/', agent);
    await sleep(100);
    const started = Date.now();
    const drained = drainServer(server, { logger: capturedLogger().logger, timeoutMs: 5_000 });
    const { body, connection, socket } = await answer;
    assert.deepEqual([body, connection], ['first half, second half', 'keep-alive']);
    // The agent unrefs the sockets it keeps; this one must keep the test alive until the server's close reaches it.
    socket.ref();
    if (!socket.destroyed) await once(socket, 'close');
    await drained;
    assert.ok(Date.now() - started < 2_000, 'the drain did not wait for the keep-alive timeout');
  });

  it('cuts the connections still open and logs one warning with their count when the drain time is over', async () => {
    const { server, slow, logger, lines } = await slowRequestInFlight();
    const started = Date.now();
    await drainServer(server, { logger, timeoutMs: 300, name: 'front' });
    const took = Date.now() - started;
    assert.ok(took >= 290 && took < 1_500, `the drain ended at its time limit (${took} ms)`);
    await assert.rejects(slow, { code: 'ECONNRESET' });
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.msg, 'drain time over: closing the connections still open');
    assert.deepEqual([lines[0]?.server, lines[0]?.inFlight, lines[0]?.timeoutMs], ['front', 1, 300]);
  });

  it('stops waiting at once when force is aborted during the drain', async () => {
    const { server, slow, logger, lines } = await slowRequestInFlight();
    const force = new AbortController();
    const started = Date.now();
    const drained = drainServer(server, { logger, timeoutMs: 10_000, force: force.signal });
    setTimeout(() => force.abort(), 100);
    await drained;
    assert.ok(Date.now() - started < 1_000);
    await assert.rejects(slow, { code: 'ECONNRESET' });
    assert.equal(lines[0]?.msg, 'stopping at once: closing the connections still open');
  });

  it("drains a fastify app through the app's own close when it is given as close", async () => {
    const app = Fastify({ logger: false });
    let closeHooks = 0;
    app.addHook('onClose', async () => {
      closeHooks++;
    });
    app.get('/slow', async () => {
      await sleep(300);
      return { done: true };
    });
    app.get('/quick', async () => ({ quick: true }));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(url).port);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    cleanups.push(() => agent.destroy());
    await get(port, '/quick', agent);
    const slow = get(port, '/slow', agent);
    await sleep(100);
    const started = Date.now();
    await Promise.all([drainServer(app.server, { logger: capturedLogger().logger, timeoutMs: 5_000, close: () => app.close() }), slow]);
    const answer = await slow;
    assert.deepEqual([answer.status, answer.body, answer.connection], [200, '{"done":true}', 'close']);
    assert.ok(Date.now() - started < 2_000, 'fastify did not wait for the keep-alive timeout');
    assert.equal(closeHooks, 1);
  });
});
