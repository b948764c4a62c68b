import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createPageCache, type PageCache } from '../src/index.js';
import { closeServer, request } from './helpers.js';

describe('page cache in front of an Express renderer', () => {
  let server: Server;
  let url: string;
  let cache: PageCache;
  let renders = 0;
  before(async () => {
    cache = createPageCache({ purgeSecret: 'token' });
    const app = express();
    app.use(cache.handle);
    app.get('/broken', () => {
      throw new Error('render failed');
    });
    app.get('/{*path}', (req, res) => {
      renders++;
      res.set('cache-control', 'public,max-age=86400').type('html').send(`<h1>${req.path}</h1>`);
    });
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).send('error page');
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => closeServer(server));

  it('stores the Express response on a miss and replays it on a hit', async () => {
    const miss = await request(url, '/plog/x');
    const hit = await request(url, '/plog/x');
    assert.equal(miss.headers['x-middleware-cache'], 'miss');
    assert.equal(hit.headers['x-middleware-cache'], 'hit');
    assert.equal(hit.body, '<h1>/plog/x</h1>');
    assert.equal(hit.headers.etag, miss.headers.etag);
    assert.equal(hit.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(renders, 1);
  });

  it('does not store the answer of the Express error handler', async () => {
    assert.equal((await request(url, '/broken')).status, 500);
    assert.equal((await request(url, '/broken')).headers['x-middleware-cache'], 'miss');
  });

  it('answers the purge route before the Express routes', async () => {
    const reply = await request(url, '/__purge__', {
      method: 'POST',
      headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
      body: JSON.stringify({ pathnames: ['/plog/x'] }),
    });
    assert.deepEqual(JSON.parse(reply.body), { purged: ['/plog/x'] });
    assert.equal((await request(url, '/plog/x')).headers['x-middleware-cache'], 'miss');
  });

  it('takes the body already parsed when express.json runs before the cache', async () => {
    const app = express();
    const parsedFirst = createPageCache({ purgeSecret: 'token' });
    app.use(express.json());
    app.use(parsedFirst.handle);
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const reply = await request(`http://127.0.0.1:${(other.address() as AddressInfo).port}`, '/__purge__', {
        method: 'POST',
        headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
        body: JSON.stringify({ pathnames: [3] }),
      });
      assert.equal(reply.status, 400);
      assert.equal(reply.body, 'pathnames[0] must be a string');
    } finally {
      await closeServer(other);
    }
  });
});

describe('page cache mounted under a path in Express', () => {
  it('keys and purges by the full path when req.url lacks the mount point', async () => {
    const cache = createPageCache({ purgeSecret: 'token' });
    const app = express();
    app.use('/blog', cache.handle, (req: express.Request, res: express.Response) => {
      res.send(`mounted ${req.url}`);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      assert.equal((await request(url, '/blog/post')).body, 'mounted /post');
      assert.equal((await request(url, '/blog/post')).headers['x-middleware-cache'], 'hit');
      assert.deepEqual(cache.purge(['/post']), []);
      assert.deepEqual(cache.purge(['/blog/post']), ['/blog/post']);
    } finally {
      await closeServer(server);
    }
  });
});
