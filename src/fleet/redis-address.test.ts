import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseRedisAddress, redactedRedisUrl } from './redis-address.js';

describe('parseRedisAddress', () => {
  it('takes one server when given redis:// or rediss://', () => {
    assert.deepEqual(parseRedisAddress('redis://cache:6379/2'), { kind: 'server', url: 'redis://cache:6379/2' });
    assert.deepEqual(parseRedisAddress('rediss://u:p@cache'), { kind: 'server', url: 'rediss://u:p@cache' });
  });

  it('takes the sentinels, the primary name, credentials, database and TLS when given redis+sentinel://', () => {
    assert.deepEqual(parseRedisAddress('redis+sentinel://s1:26380,s2,[::1]:5000/mymaster'), {
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26_380 },
        { host: 's2', port: 26_379 },
        { host: '::1', port: 5000 },
      ],
      primaryName: 'mymaster',
      db: 0,
      tls: false,
    });
    assert.deepEqual(parseRedisAddress('rediss+sentinel://app:p%40ss:w@s1/pri%20mary/3'), {
      kind: 'sentinel',
      sentinels: [{ host: 's1', port: 26_379 }],
      primaryName: 'pri mary',
      username: 'app',
      password: 'p@ss:w',
      db: 3,
      tls: true,
    });
  });

  it('names what is wrong when the value is no Redis address', () => {
    for (const value of ['http://cache:6379', 'not a url', 'redis//x', '日本語', 'rediss:', 'redis+sentinel://s1', 'redis+sentinel://s1:0/m', 'redis+sentinel://s 1/m', 'redis+sentinel://s1:99999/m', 'redis+sentinel://s1/%E0%A4%A']) {
      const answer = parseRedisAddress(value);
      assert.ok('problem' in answer && answer.problem.length > 0, value);
    }
  });

  it('never throws and answers an address or a problem when given any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.string().map((rest) => `redis+sentinel://${rest}`)), (text) => {
        const answer = parseRedisAddress(text);
        assert.ok('problem' in answer || answer.kind === 'server' || (answer.kind === 'sentinel' ? answer.sentinels : answer.nodes).length > 0);
      }),
    );
  });
});

describe('redactedRedisUrl', () => {
  it('hides the password and keeps the rest when the URL has one, in either form', () => {
    assert.equal(redactedRedisUrl('redis://user:secret@cache:6379/1'), 'redis://user:***@cache:6379/1');
    assert.equal(redactedRedisUrl('redis://:secret@cache'), 'redis://:***@cache');
    assert.equal(redactedRedisUrl('redis+sentinel://app:s3cret@s1:26379,s2/mymaster'), 'redis+sentinel://app:***@s1:26379,s2/mymaster');
    assert.equal(redactedRedisUrl('redis://cache:6379'), 'redis://cache:6379');
    assert.equal(redactedRedisUrl('no scheme'), '(unparsable URL)');
  });

  it('never shows the password when it holds any characters, @ included', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 4 }).filter((secret) => !/[/?#]/.test(secret) && !'redis://user:***@cache:6379'.includes(secret)), (secret) => {
        assert.ok(!redactedRedisUrl(`redis://user:${secret}@cache:6379`).includes(secret));
      }),
    );
  });
});
