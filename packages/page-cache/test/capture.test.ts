import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startCache } from './helpers.js';

describe('page cache capture', () => {
  it('passes every write and end signature through and stores exactly the bytes sent', async () => {
    const callbacks: string[] = [];
    const h = await startCache({}, (_req, res) => {
      res.statusCode = 200;
      res.write('a', () => callbacks.push('write(string, cb)'));
      res.write('62', 'hex', () => callbacks.push('write(string, encoding, cb)'));
      res.write(new Uint8Array([0x63]), () => callbacks.push('write(Uint8Array, cb)'));
      res.write(Buffer.from('ZA==', 'base64'));
      res.write('\u00e9', 'latin1');
      res.end('\u{1F600}', () => callbacks.push('end(string, cb)'));
    });
    try {
      const miss = await request(h.url, '/signatures');
      const expected = Buffer.concat([Buffer.from('abcd'), Buffer.from([0xe9]), Buffer.from('\u{1F600}')]);
      assert.deepEqual(miss.bytes, expected);
      assert.deepEqual((await request(h.url, '/signatures')).bytes, expected);
      assert.deepEqual(callbacks, ['write(string, cb)', 'write(string, encoding, cb)', 'write(Uint8Array, cb)', 'end(string, cb)']);
    } finally {
      await h.close();
    }
  });

  it('stores a response ended with end(callback) after writes', async () => {
    let ended = false;
    const h = await startCache({}, (_req, res) => {
      res.write('body');
      res.end(() => {
        ended = true;
      });
    });
    try {
      await request(h.url, '/end-callback');
      const hit = await request(h.url, '/end-callback');
      assert.equal(hit.headers['x-middleware-cache'], 'hit');
      assert.equal(hit.body, 'body');
      assert.equal(ended, true);
    } finally {
      await h.close();
    }
  });

  it('streams a body larger than maxBytes to the client in full and stores nothing', async () => {
    const h = await startCache({ maxBytes: 1000 }, (_req, res) => {
      for (let i = 0; i < 10; i++) res.write('x'.repeat(200));
      res.end();
    });
    try {
      const reply = await request(h.url, '/large');
      assert.equal(reply.body.length, 2000);
      assert.equal((await request(h.url, '/large')).headers['x-middleware-cache'], 'miss');
      assert.equal(h.cache.size, 0);
    } finally {
      await h.close();
    }
  });

  it('keeps the stored body intact when the renderer reuses its buffer afterwards', async () => {
    const shared = Buffer.from('original');
    const h = await startCache({}, (_req, res) => {
      res.end(shared, () => shared.write('mutated!'));
    });
    try {
      await request(h.url, '/shared');
      assert.equal((await request(h.url, '/shared')).body, 'original');
    } finally {
      await h.close();
    }
  });
});
