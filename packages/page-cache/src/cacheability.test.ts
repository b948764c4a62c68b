import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isStorable, PER_CLIENT_HEADERS, unstorableHead } from './cacheability.js';

const safe = { storeSetCookie: false, storePrivate: false };
const literal = { storeSetCookie: true, storePrivate: true };

describe('isStorable', () => {
  it('stores a 200 with a body and public headers', () => {
    assert.equal(isStorable(200, { 'cache-control': 'public,max-age=86400' }, 10, safe), true);
  });

  it('refuses any other status or an empty body', () => {
    for (const status of [201, 204, 206, 301, 304, 404, 500, 502]) assert.equal(isStorable(status, {}, 10, safe), false);
    assert.equal(isStorable(200, {}, 0, safe), false);
  });

  it('refuses Set-Cookie unless storeSetCookie is on', () => {
    assert.equal(unstorableHead(200, { 'set-cookie': ['s=1'] }, safe), 'Set-Cookie');
    assert.equal(isStorable(200, { 'set-cookie': ['s=1'] }, 1, literal), true);
  });

  it('refuses Cache-Control private or no-store unless storePrivate is on', () => {
    for (const value of ['private', 'no-store', 'public, no-store', 'max-age=0,private', 'Private', 'private="set-cookie"']) {
      assert.equal(isStorable(200, { 'cache-control': value }, 1, safe), false, value);
      assert.equal(isStorable(200, { 'cache-control': value }, 1, literal), true, value);
    }
  });

  it('stores when private or no-store appear only inside another directive', () => {
    for (const value of ['public,max-age=60', 'x-private-thing', 'no-storey']) {
      assert.equal(isStorable(200, { 'cache-control': value }, 1, safe), true, value);
    }
  });

  it('refuses an answer carrying a header that describes one client, whatever the store policy', () => {
    for (const name of PER_CLIENT_HEADERS) {
      for (const policy of [safe, literal]) {
        assert.equal(isStorable(200, { 'cache-control': 'public,max-age=60', [name]: '7' }, 1, policy), false, name);
      }
    }
    assert.match(unstorableHead(200, { 'ratelimit-remaining': 3 }, literal) ?? '', /ratelimit-remaining/);
  });
});
