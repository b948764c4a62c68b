import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { delay, gate, recordingLogger, request, whileHeld, withCache, type Harness, type Renderer } from './helpers.js';

/** A failed render is never stored, so each of the `requests` reached the renderer. */
function assertRenderedEveryTimeAndStoredNothing(h: Harness, requests: number): void {
  assert.equal(h.calls.length, requests);
  assert.equal(h.cache.size, 0);
}

describe('page cache middleware: renderer failures', () => {
  it('answers 500 and stores nothing when the renderer throws before writing', async () => {
    const { logger, lines } = recordingLogger();
    const renderer: Renderer = () => {
      throw new Error('render exploded');
    };
    await withCache({ logger }, renderer, async (h) => {
      const reply = await request(h.url, '/boom');
      assert.equal(reply.status, 500);
      assert.equal(reply.body, 'Internal Server Error');
      assert.equal((await request(h.url, '/boom')).status, 500);
      assertRenderedEveryTimeAndStoredNothing(h, 2);
      assert.ok(lines.some((line) => line.level === 50 && line.msg === 'page cache: the renderer failed'));
    });
  });

  it('answers 500 to the leader and releases the followers when an async renderer rejects', async () => {
    const hold = gate();
    const renderer: Renderer = async () => {
      await hold.promise;
      throw new Error('origin down');
    };
    await withCache({}, renderer, async (h) => {
      const done = await whileHeld(hold, () => request(h.url, '/rejects'), 3);
      assert.deepEqual(done.map((r) => r.status), [500, 500, 500]);
      assertRenderedEveryTimeAndStoredNothing(h, 3);
    });
  });

  it('closes the connection, stores nothing and releases the followers when the renderer aborts mid-response', async () => {
    const hold = gate();
    const renderer: Renderer = async (_req, res, call) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100' });
      res.write('<html>partial');
      if (call > 1) {
        res.end('x'.repeat(100 - '<html>partial'.length));
        return;
      }
      await hold.promise;
      res.destroy();
    };
    await withCache({}, renderer, async (h) => {
      const leader = request(h.url, '/aborts');
      await delay(50);
      const follower = request(h.url, '/aborts');
      await delay(50);
      hold.open();
      await assert.rejects(leader, /socket hang up|aborted|ECONNRESET/);
      const reply = await follower;
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['x-middleware-cache'], 'miss');
      assert.equal(h.calls.length, 2);
      assert.equal((await request(h.url, '/aborts')).headers['x-middleware-cache'], 'hit');
    });
  });

  it('destroys the connection and stores nothing when the renderer fails after the head is sent', async () => {
    const renderer: Renderer = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html>half');
      await delay(10);
      throw new Error('stream broke');
    };
    await withCache({}, renderer, async (h) => {
      await assert.rejects(request(h.url, '/half'), /socket hang up|aborted|ECONNRESET/);
      await assert.rejects(request(h.url, '/half'), /socket hang up|aborted|ECONNRESET/);
      assertRenderedEveryTimeAndStoredNothing(h, 2);
    });
  });

  it('releases the followers when the leader client goes away before the render ends', async () => {
    const hold = gate();
    const renderer: Renderer = async (_req, res, call) => {
      if (call === 1) await hold.promise;
      res.end(`render ${call}`);
    };
    await withCache({}, renderer, async (h) => {
      const url = new URL(h.url);
      const leader = httpRequest({ host: url.hostname, port: url.port, path: '/leaves', agent: false });
      leader.on('error', () => undefined);
      leader.end();
      await delay(50);
      const follower = request(h.url, '/leaves');
      await delay(50);
      leader.destroy();
      const reply = await follower;
      assert.equal(reply.body, 'render 2');
      hold.open();
      await delay(20);
      assert.equal((await request(h.url, '/leaves')).body, 'render 2');
    });
  });

  it('does not store a response whose render was under way when a purge matched its key, and sends it with no-store', async () => {
    const hold = gate();
    const renderer: Renderer = async (_req, res, call) => {
      if (call === 1) await hold.promise;
      res.end(`version ${call}`);
    };
    await withCache({ purgeSecret: 't' }, renderer, async (h) => {
      const stale = request(h.url, '/post');
      await delay(50);
      assert.deepEqual(h.cache.purge(['/post']), []);
      hold.open();
      const outdated = await stale;
      assert.equal(outdated.body, 'version 1');
      assert.equal(outdated.headers['cache-control'], 'no-store', 'an edge in front must not keep it either');
      const fresh = await request(h.url, '/post');
      assert.equal(fresh.body, 'version 2');
      assert.equal(fresh.headers['cache-control'], undefined);
      assert.equal((await request(h.url, '/post')).headers['x-middleware-cache'], 'hit');
    });
  });
});
