import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { delay, gate, recordingLogger, request, startCache, whileHeld } from './helpers.js';

describe('page cache middleware: renderer failures', () => {
  it('answers 500 and stores nothing when the renderer throws before writing', async () => {
    const { logger, lines } = recordingLogger();
    const h = await startCache({ logger }, () => {
      throw new Error('render exploded');
    });
    try {
      const reply = await request(h.url, '/boom');
      assert.equal(reply.status, 500);
      assert.equal(reply.body, 'Internal Server Error');
      assert.equal((await request(h.url, '/boom')).status, 500);
      assert.equal(h.calls.length, 2);
      assert.equal(h.cache.size, 0);
      assert.ok(lines.some((line) => line.level === 50 && line.msg === 'page cache: the renderer failed'));
    } finally {
      await h.close();
    }
  });

  it('answers 500 to the leader and releases the followers when an async renderer rejects', async () => {
    const hold = gate();
    const h = await startCache({}, async () => {
      await hold.promise;
      throw new Error('origin down');
    });
    try {
      const done = await whileHeld(hold, () => request(h.url, '/rejects'), 3);
      assert.deepEqual(done.map((r) => r.status), [500, 500, 500]);
      assert.equal(h.calls.length, 3);
      assert.equal(h.cache.size, 0);
    } finally {
      await h.close();
    }
  });

  it('closes the connection, stores nothing and releases the followers when the renderer aborts mid-response', async () => {
    const hold = gate();
    let calls = 0;
    const h = await startCache({}, async (_req, res) => {
      calls++;
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100' });
      res.write('<html>partial');
      if (calls > 1) {
        res.end('x'.repeat(100 - '<html>partial'.length));
        return;
      }
      await hold.promise;
      res.destroy();
    });
    try {
      const leader = request(h.url, '/aborts');
      await delay(50);
      const follower = request(h.url, '/aborts');
      await delay(50);
      hold.open();
      await assert.rejects(leader, /socket hang up|aborted|ECONNRESET/);
      const reply = await follower;
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['x-middleware-cache'], 'miss');
      assert.equal(calls, 2);
      assert.equal((await request(h.url, '/aborts')).headers['x-middleware-cache'], 'hit');
    } finally {
      await h.close();
    }
  });

  it('destroys the connection and stores nothing when the renderer fails after the head is sent', async () => {
    const h = await startCache({}, async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html>half');
      await delay(10);
      throw new Error('stream broke');
    });
    try {
      await assert.rejects(request(h.url, '/half'), /socket hang up|aborted|ECONNRESET/);
      await assert.rejects(request(h.url, '/half'), /socket hang up|aborted|ECONNRESET/);
      assert.equal(h.calls.length, 2);
      assert.equal(h.cache.size, 0);
    } finally {
      await h.close();
    }
  });

  it('releases the followers when the leader client goes away before the render ends', async () => {
    const hold = gate();
    let calls = 0;
    const h = await startCache({}, async (_req, res) => {
      calls++;
      if (calls === 1) await hold.promise;
      res.end(`render ${calls}`);
    });
    try {
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
    } finally {
      await h.close();
    }
  });

  it('does not store a response whose render was under way when a purge matched its key', async () => {
    const hold = gate();
    const h = await startCache({ purgeSecret: 't' }, async (_req, res) => {
      if (h.calls.length === 1) await hold.promise;
      res.end(`version ${h.calls.length}`);
    });
    try {
      const stale = request(h.url, '/post');
      await delay(50);
      assert.deepEqual(h.cache.purge(['/post']), []);
      hold.open();
      assert.equal((await stale).body, 'version 1');
      assert.equal((await request(h.url, '/post')).body, 'version 2');
      assert.equal((await request(h.url, '/post')).headers['x-middleware-cache'], 'hit');
    } finally {
      await h.close();
    }
  });
});
