import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestKeyOf } from './request-key.js';
import { fakeRequest, keptLog } from './test-support/fake-http.js';

const VARIANTS = { variantCookie: 'display-mode', variantHeader: 'accept-language' };

describe('requestKeyOf', () => {
  it('applies a built-in policy to the origin-form target', () => {
    const keyOf = requestKeyOf('path', VARIANTS, keptLog().logger);
    assert.equal(keyOf(fakeRequest({}, 'GET', '/mounted?x=1'), '/a?x=1'), '/a');
  });

  it('uses the string a custom function returns as the key', () => {
    const keyOf = requestKeyOf((req) => `custom ${req.url}`, VARIANTS, keptLog().logger);
    assert.equal(keyOf(fakeRequest({}, 'GET', '/a'), '/a'), 'custom /a');
  });

  it('does not cache the request, and logs why, when the custom function throws or returns a non-string', () => {
    const { logger, lines } = keptLog();
    const throwing = requestKeyOf(() => {
      throw new Error('no key');
    }, VARIANTS, logger);
    const numeric = requestKeyOf(() => 42 as unknown as string, VARIANTS, logger);
    assert.equal(throwing(fakeRequest(), '/'), undefined);
    assert.equal(numeric(fakeRequest(), '/'), undefined);
    assert.deepEqual(lines.map((line) => line.message), [
      'page cache: the key function threw; request not cached',
      'page cache: the key function returned a non-string; request not cached',
    ]);
  });
});
