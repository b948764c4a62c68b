import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { renderNginxConfig } from './nginx-config.js';
import { OTHER_HOST_VARIABLE } from './nginx-public.js';
import { CdnPurgeError, purgeCdn } from './purge-client.js';
import {
  TEST_REFRESH_SECRET,
  get,
  nginxForTests,
  startEdge,
  startFakeFront,
  tempDir,
  type FakeFront,
  type RunningEdge,
} from './test-support/edge-harness.js';

const { nginx, skip } = nginxForTests();

const PUBLIC_HOST = 'blog.example';
/** Hosts a stranger can send for the same site: another allowed name, case, a trailing dot, a port, a forged one. */
const OTHER_HOSTS = ['localhost', 'BLOG.example.', 'blog.example:80', 'www.blog.example', 'evil.example'];

describe('renderNginxConfig with a public host', () => {
  const base = { edgeDir: '/srv/edge', listen: { host: '127.0.0.1', port: 8080 }, upstreams: [{ host: '127.0.0.1', port: 3000 }] };

  it('keys every copy on the public host and neither reads nor fills the cache for another when given one', () => {
    const config = renderNginxConfig({ ...base, publicHost: 'Blog.Example:8443' });
    assert.match(config, /proxy_cache_key "\$scheme:\/\/blog\.example:8443\$sitestack_edge_target /);
    assert.match(config, /proxy_cache_key \$scheme:\/\/blog\.example:8443\$request_uri;/);
    assert.doesNotMatch(config, /proxy_cache_key[^;]*\$http_host/);
    assert.match(config, new RegExp(`proxy_cache_bypass [^;]*\\${OTHER_HOST_VARIABLE};`));
    assert.match(config, new RegExp(`proxy_no_cache [^;]*\\${OTHER_HOST_VARIABLE};`));
  });

  it('keys on the requested host and skips the cache for none when given none', () => {
    const config = renderNginxConfig(base);
    assert.match(config, /proxy_cache_key "\$scheme:\/\/\$http_host\$sitestack_edge_target /);
    assert.ok(!config.includes(OTHER_HOST_VARIABLE));
  });

  it('refuses a public host that is not host[:port] when it would inject nginx syntax', () => {
    for (const publicHost of ['blog.example"; x', 'blog.example/x', '$host', 'a b', '', 'blog.example:80:80']) {
      assert.throws(() => renderNginxConfig({ ...base, publicHost }), /public host/, publicHost);
    }
  });
});

describe('the edge with a public host, against the real nginx', { skip }, () => {
  let dir: ReturnType<typeof tempDir>;
  let front: FakeFront;
  let edge: RunningEdge;

  before(async () => {
    dir = tempDir('sitestack-edge-hosts-');
    front = await startFakeFront();
    edge = await startEdge(nginx!, join(dir.path, 'edge'), front.port, { publicHost: PUBLIC_HOST });
  });

  after(async () => {
    await edge.stop();
    await front.stop();
    dir.remove();
  });

  it('never serves a refreshed-away page under another Host when the refresh names only the public one', async () => {
    const page = '/plog/hosts';
    for (const host of [PUBLIC_HOST, 'Blog.Example', ...OTHER_HOSTS]) {
      await get(`${edge.url}${page}`, { host });
      await get(`${edge.url}${page}`, { host });
    }
    assert.equal((await get(`${edge.url}${page}`, { host: 'BLOG.EXAMPLE' })).headers['x-cache'], 'HIT', 'the public host is kept whatever its case');
    front.gone.set(page, 404);
    // The origin's refresh, as its purge client sends it: CDN_BASE_URL's host and the secret.
    const refresh = await get(`${edge.url}${page}`, { host: PUBLIC_HOST, 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(refresh.status, 404);
    const stale: string[] = [];
    for (const host of [PUBLIC_HOST, 'Blog.Example', ...OTHER_HOSTS]) {
      const answer = await get(`${edge.url}${page}`, { host });
      if (answer.status !== 404) stale.push(`${host} → ${answer.status} ${answer.headers['x-cache']} ${answer.body}`);
    }
    assert.deepEqual(stale, [], 'every host answers the 404');
  });

  it('answers 421 to a refresh for another Host, and the purge client counts it a failure, when CDN_BASE_URL names one', async () => {
    const page = '/plog/misdirected';
    const refresh = await get(`${edge.url}${page}`, { host: 'edge.internal:8080', 'secret-header': TEST_REFRESH_SECRET });
    assert.equal(refresh.status, 421);
    assert.equal(front.callsTo(page), 0, 'nothing reached the front');
    // The origin's purge client against this edge (whose public host is blog.example) by its own address.
    await assert.rejects(purgeCdn([page], { baseUrl: edge.url, secret: TEST_REFRESH_SECRET }), (error: unknown) => error instanceof CdnPurgeError && /answered 421: the edge keeps copies for another host/.test(error.message));
  });

  it('passes another Host to the front uncached when asked twice', async () => {
    const page = '/plog/other-host';
    await get(`${edge.url}${page}`, { host: 'evil.example' });
    const second = await get(`${edge.url}${page}`, { host: 'evil.example' });
    assert.equal(second.headers['x-cache'], 'BYPASS');
    assert.equal(front.callsTo(page), 2);
  });
});
