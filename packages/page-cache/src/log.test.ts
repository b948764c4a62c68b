import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logUrl } from './log.js';

describe('logUrl', () => {
  it('keeps a URL of up to 200 characters as it is', () => {
    const url = `/${'a'.repeat(199)}`;
    assert.equal(logUrl(url), url);
    assert.equal(logUrl(undefined), undefined);
  });

  it('cuts a longer URL at 200 characters and says how many were left off', () => {
    assert.equal(logUrl(`/${'a'.repeat(250)}`), `/${'a'.repeat(199)}…[51 more characters]`);
  });
});
