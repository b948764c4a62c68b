import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { decodedBody, rawRequest } from '../test-support/raw-http.js';
import { createPageCache } from '@sitestack/page-cache';
import { closeServer, listen, nginxForTests, startEdge, tempDir, type RunningEdge } from './test-support/edge-harness.js';

const { nginx, skip } = nginxForTests();

function page(path: string): string {
  return `<!doctype html><main>${Array.from({ length: 80 }, (_, i) => `<p>Line ${i} of ${path}, cached at the edge per encoding.</p>`).join('')}</main>`;
}

/** RFC 9110 §12.5.3 read plainly: may a client sending `header` be sent `coding`? */
function accepts(header: string | undefined, coding: string): boolean {
  if (coding === 'identity') return true;
  if (header === undefined) return false;
  const items = header.split(',').map((item) => {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return { name: name === 'x-gzip' ? 'gzip' : name, q: q === undefined ? 1 : Number(q.slice(2)) };
  });
  const named = items.find((item) => item.name === coding) ?? items.find((item) => item.name === '*');
  return named !== undefined && named.q > 0;
}

describe('edge: per-encoding caching in front of the page cache, through the real nginx', { skip }, () => {
  let front: Server;
  let edge: RunningEdge;
  let dir: ReturnType<typeof tempDir>;
  /** Requests the front received, with the Accept-Encoding each was sent with. */
  const received: Array<{ path: string; acceptEncoding: string | undefined }> = [];

  before(async () => {
    dir = tempDir('sitestack-edge-encoding-');
    const cache = createPageCache({});
    front = createServer((req, res) => {
      received.push({ path: req.url ?? '', acceptEncoding: req.headers['accept-encoding'] });
      cache.handle(req, res, () => {
        const dataRoute = req.url?.startsWith('/_render/data/') === true;
        res.writeHead(200, { 'content-type': dataRoute ? 'application/json' : 'text/html; charset=utf-8', 'cache-control': 'public,max-age=86400' });
        res.end(page(req.url ?? ''));
      });
    });
    const port = await listen(front);
    edge = await startEdge(nginx!, join(dir.path, 'edge'), port);
  });

  after(async () => {
    await edge?.stop();
    if (front !== undefined) await closeServer(front);
    dir?.remove();
  });

  const receivedFor = (path: string) => received.filter((request) => request.path === path);

  /** Asks the edge for `path` with each step's Accept-Encoding in turn; each answer has the step's coding and cache status. */
  async function askInTurn(path: string, steps: ReadonlyArray<[string | undefined, string | undefined, string]>, expected: { vary?: string } = {}): Promise<void> {
    for (const [acceptEncoding, coding, cacheStatus] of steps) {
      const reply = await rawRequest(edge.url, path, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
      const label = `Accept-Encoding: ${acceptEncoding ?? '(none)'}`;
      assert.equal(reply.status, 200, label);
      assert.equal(reply.headers['content-encoding'], coding, label);
      assert.equal(reply.headers['x-cache'], cacheStatus, label);
      if (expected.vary !== undefined) assert.equal(reply.headers.vary, expected.vary, label);
      assert.equal(decodedBody(reply).toString('utf8'), page(path), label);
    }
  }

  it('keeps one copy per coding and answers each spelling from the copy of its coding when asked in turn', async () => {
    const path = '/plog/per-encoding';
    const steps: Array<[string | undefined, string | undefined, string]> = [
      ['br', 'br', 'MISS'],
      ['br', 'br', 'HIT'],
      ['gzip, deflate, br, zstd', 'br', 'HIT'],
      ['gzip', 'gzip', 'MISS'],
      ['gzip, deflate', 'gzip', 'HIT'],
      ['br;q=0, gzip', 'gzip', 'HIT'],
      ['x-gzip', 'gzip', 'HIT'],
      [undefined, undefined, 'MISS'],
      ['deflate, zstd', undefined, 'HIT'],
      ['br;q=0, gzip;q=0', undefined, 'HIT'],
      ['*', undefined, 'HIT'],
    ];
    await askInTurn(path, steps, { vary: 'Accept-Encoding' });
    assert.deepEqual(
      receivedFor(path).map((request) => request.acceptEncoding),
      ['br', 'gzip', 'identity'],
      'the front is asked once per coding, for exactly that coding',
    );
  });

  it('keeps one gzip copy of a data route and decompresses it for a client that does not accept gzip', async () => {
    const path = '/_render/data/b1/en-US/plog/one-copy.json';
    const steps: Array<[string | undefined, string | undefined, string]> = [
      ['gzip, deflate, br, zstd', 'gzip', 'MISS'],
      ['br', undefined, 'HIT'],
      [undefined, undefined, 'HIT'],
      ['gzip', 'gzip', 'HIT'],
      ['br, gzip;q=0', undefined, 'HIT'],
    ];
    await askInTurn(path, steps);
    assert.deepEqual(
      receivedFor(path).map((request) => request.acceptEncoding),
      ['gzip'],
      'one request to the front, for gzip',
    );
  });

  it('never sends an encoding the client did not accept, whatever Accept-Encoding it sends', async () => {
    const name = fc.constantFrom('br', 'gzip', 'x-gzip', 'identity', '*', 'deflate', 'zstd', 'BR', 'Gzip');
    const weight = fc.constantFrom('', ';q=0', ';q=0.000', ';q=0.5', ';q=1', ';q=0.001', ' ; q=0.8', ';q=1.0');
    // Each coding named once: RFC 9110 does not say which weight a repeated coding has.
    const items = fc.uniqueArray(fc.tuple(name, weight), { minLength: 1, maxLength: 4, selector: ([n]) => n.toLowerCase().replace('x-gzip', 'gzip') });
    const header = fc.option(items.map((pairs) => pairs.map(([n, q]) => `${n}${q}`).join(', ')), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom('/plog/p1', '/plog/p2', '/_render/data/b1/en-US/plog/p1.json'), async (acceptEncoding, path) => {
        const reply = await rawRequest(edge.url, path, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
        const coding = String(reply.headers['content-encoding'] ?? 'identity');
        assert.ok(accepts(acceptEncoding, coding), `${coding} sent for Accept-Encoding: ${acceptEncoding ?? '(none)'}`);
        assert.equal(decodedBody(reply).toString('utf8'), page(path));
      }),
      { numRuns: 60 },
    );
  });

  it('answers 304 from its copy when If-None-Match names the ETag of the coding asked for', async () => {
    const path = '/plog/conditional';
    const br = await rawRequest(edge.url, path, { headers: { 'accept-encoding': 'br' } });
    const etag = String(br.headers.etag);
    assert.match(etag, /^"[\w-]{22}"$/);
    const revalidated = await rawRequest(edge.url, path, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers['x-cache'], 'HIT');
    assert.equal(revalidated.bytes.length, 0);
    const otherCoding = await rawRequest(edge.url, path, { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
    assert.equal(otherCoding.status, 200, 'the br tag does not validate the gzip copy');
    assert.equal(otherCoding.headers['content-encoding'], 'gzip');
  });
});
