import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { get, nginxForTests, startEdge, tempDir, TEST_REFRESH_SECRET, type RunningEdge } from '../src/edge/test-support/edge-harness.js';
import { silentLogger } from '../src/log.js';
import { purgeCommand } from '../src/server/purge-command.js';
import type { RunningProxy } from '../src/server/proxy-command.js';
import { PURGE_SECRET, startTestProxy, startUpstream, type TestUpstream } from './support/proxy.js';

const { nginx, skip } = nginxForTests();

describe('the nginx edge before sitestack proxy', { skip }, () => {
  let edition = 1;
  let upstream: TestUpstream;
  let proxy: RunningProxy;
  let edge: RunningEdge;
  const dir = tempDir('sitestack-proxy-edge-');

  before(async () => {
    upstream = await startUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60', 'surrogate-key': 'pages' });
      res.end(`<!doctype html><title>${req.url}</title><p>edition ${edition}</p>`);
    });
    proxy = await startTestProxy([upstream.url]);
    edge = await startEdge(nginx!, join(dir.path, 'edge'), Number(new URL(proxy.url).port), { ownPublicHost: true });
  });
  after(async () => {
    await edge?.stop();
    await proxy?.close();
    await upstream?.close();
    dir.remove();
  });

  it('keeps the proxy’s pages, and shows an edit at both after one `sitestack purge`', async () => {
    const first = await get(`${edge.url}/article`);
    assert.equal(first.status, 200);
    assert.match(first.body, /edition 1/);
    const cached = await get(`${edge.url}/article`);
    assert.equal(cached.headers['x-cache'], 'HIT');
    assert.equal(proxy.pageCache.size, 1);

    edition = 2;
    const out = new PassThrough();
    let printed = '';
    out.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const config = loadConfig({
      DATA_DIR: join(dir.path, 'data'),
      PURGE_SECRET,
      PURGE_URLS: `${proxy.url}/__purge__`,
      CDN_BASE_URL: edge.url,
      EDGE_REFRESH_SECRET: TEST_REFRESH_SECRET,
    });
    const code = await purgeCommand.run({ args: ['--key', 'pages'], config, logger: silentLogger(), out });
    assert.equal(code, 0, printed);
    assert.match(printed, /purged 1 key/);
    assert.match(printed, /refreshed 1 URL/);

    const edited = await get(`${edge.url}/article`);
    assert.equal(edited.headers['x-cache'], 'HIT');
    assert.match(edited.body, /edition 2/);
    const direct = await get(`${proxy.url}/article`);
    assert.equal(direct.headers['x-middleware-cache'], 'hit');
    assert.match(direct.body, /edition 2/);
  });

  it('answers 404 at the edge for the proxy’s operator routes', async () => {
    for (const path of ['/__purge__', '/__cache__/stats', '/metrics', '/readyz']) assert.equal((await get(`${edge.url}${path}`)).status, 404, path);
  });
});
