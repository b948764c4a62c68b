import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DOCS, get } from '../../test-support/api-requests.js';
import { startSearchServer, type SearchServer } from '../../test-support/search-server.js';

describe('search box routes', () => {
  let server: SearchServer;
  before(async () => {
    server = await startSearchServer(DOCS, { rateLimit: { max: 3, windowMs: 60_000 } });
  });
  after(async () => server.close());

  it('serves the element script as JavaScript any site may load', async () => {
    const response = await fetch(`${server.url}/api/search/box.js`);
    const { status, headers } = response;
    const body = await response.text();
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(headers.get('access-control-allow-origin'), '*');
    assert.equal(headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.match(body, /sitestack-search/);
    assert.doesNotMatch(body, /\beval\(|new Function\(|innerHTML/);
  });

  it('lets any origin read the answers of the search API, errors included', async () => {
    const origin = { origin: 'https://elsewhere.example' };
    for (const path of ['/api/search/autocomplete?q=a', '/api/v1/search?q=a', '/api/v1/search', '/api/search/autocomplete?q=%F0%9F%92%A5']) {
      const { headers, status } = await get(server, path, origin);
      assert.equal(headers.get('access-control-allow-origin'), '*', `${path} → ${status}`);
      assert.equal(headers.get('access-control-allow-credentials'), null);
    }
    let limited = 0;
    for (let i = 0; i < 5; i++) {
      const { status, headers } = await get(server, `/api/v1/search?q=x${i}`, origin);
      if (status === 429) {
        limited++;
        assert.equal(headers.get('access-control-allow-origin'), '*');
      }
    }
    assert.ok(limited > 0);
  });
});
