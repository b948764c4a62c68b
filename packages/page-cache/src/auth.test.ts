import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bearerMatches, bearerToken } from './auth.js';

describe('bearerMatches', () => {
  it('matches only the exact secret when given as a bearer token', () => {
    const headers: ReadonlyArray<[string | undefined, boolean]> = [
      ['Bearer s3cret', true],
      ['bearer s3cret', true],
      ['Bearer s3cret2', false],
      ['Bearer s3cre', false],
      ['Basic s3cret', false],
      ['s3cret', false],
      [undefined, false],
    ];
    for (const [authorization, matches] of headers) assert.equal(bearerMatches(authorization, 's3cret'), matches, authorization);
  });

  it('matches nothing when the secret is unset or empty', () => {
    assert.equal(bearerMatches('Bearer ', ''), false);
    assert.equal(bearerMatches('Bearer x', undefined), false);
  });

  it('compares unicode tokens when the secret holds non-ASCII characters', () => {
    assert.equal(bearerMatches('Bearer caf\u00e9', 'caf\u00e9'), true);
    assert.equal(bearerMatches('Bearer cafe\u0301', 'caf\u00e9'), false);
  });
});

describe('bearerToken', () => {
  it('extracts the token when the header is a bearer credential', () => {
    assert.equal(bearerToken('Bearer abc'), 'abc');
    assert.equal(bearerToken('Bearer'), undefined);
    assert.equal(bearerToken('Bearer a b'), undefined);
  });
});
