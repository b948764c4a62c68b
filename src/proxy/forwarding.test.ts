import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { trustedProxyCheck } from '../http/index.js';
import { connectionTokens, endToEndPairs, forwardedFields, withVia } from './forwarding.js';
import { PROXY_DEFAULTS, upstreamOrigin, validPathPrefix } from './settings.js';

const loopback = trustedProxyCheck(['loopback']);
const nobody = trustedProxyCheck([]);

describe('endToEndPairs', () => {
  it('drops the hop-by-hop fields and those the Connection header names, whatever their case', () => {
    const raw = ['Host', 'a', 'Connection', 'keep-alive, X-Secret', 'X-SECRET', '1', 'Keep-Alive', 'timeout=5', 'TE', 'trailers', 'Upgrade', 'h2c', 'Transfer-Encoding', 'chunked', 'Proxy-Authorization', 'x', 'Accept', '*/*', 'Cookie', 'c=1'];
    assert.deepEqual(endToEndPairs(raw, new Set(['host'])), [
      ['Accept', '*/*'],
      ['Cookie', 'c=1'],
    ]);
  });

  it('keeps repeated fields (Set-Cookie) in order', () => {
    assert.deepEqual(endToEndPairs(['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2']), [
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ]);
  });

  it('never passes a field a Connection header names, for any names (property)', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,12}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string({ maxLength: 8 })), { maxLength: 10 }), fc.array(name, { maxLength: 4 }), (fields, named) => {
        const raw = [...fields.flat(), 'Connection', named.join(', ')];
        const lowered = new Set(named.map((n) => n.toLowerCase()));
        for (const [kept] of endToEndPairs(raw)) {
          assert.ok(!lowered.has(kept.toLowerCase()) && kept.toLowerCase() !== 'connection');
        }
      }),
    );
  });
});

describe('connectionTokens', () => {
  it('reads a list over several headers, trimmed and lower-cased, empty items left out', () => {
    assert.deepEqual([...connectionTokens(['Close, X-A', ' ,x-b '])], ['close', 'x-a', 'x-b']);
    assert.equal(connectionTokens(undefined).size, 0);
  });
});

describe('forwardedFields', () => {
  it('appends the peer to a trusted proxy X-Forwarded-For and keeps its proto and host', () => {
    const fields = forwardedFields(
      { peer: '127.0.0.1', encrypted: false, headers: { host: 'proxy:3000', 'x-forwarded-for': '203.0.113.9, 10.0.0.2', 'x-forwarded-proto': 'HTTPS', 'x-forwarded-host': 'example.com', via: '1.1 edge' } },
      loopback,
    );
    assert.deepEqual(fields, { 'x-forwarded-for': '203.0.113.9, 10.0.0.2, 127.0.0.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'example.com', via: '1.1 edge, 1.1 sitestack' });
  });

  it('starts the chain anew, and uses its own scheme and the Host, when the peer is not trusted', () => {
    const fields = forwardedFields(
      { peer: '::ffff:198.51.100.7', encrypted: true, headers: { host: 'example.org', 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example' } },
      nobody,
    );
    assert.deepEqual(fields, { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'example.org', via: '1.1 sitestack' });
  });

  it('refuses a scheme other than http or https from a trusted proxy', () => {
    const fields = forwardedFields({ peer: '127.0.0.1', encrypted: false, headers: { 'x-forwarded-proto': 'javascript' } }, loopback);
    assert.equal(fields['x-forwarded-proto'], 'http');
    assert.equal(fields['x-forwarded-host'], undefined);
  });

  it('ends X-Forwarded-For with the peer whatever an untrusted client sends (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 30 }), (forwardedFor, proto) => {
        const fields = forwardedFields({ peer: '198.51.100.7', encrypted: false, headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': proto } }, nobody);
        assert.equal(fields['x-forwarded-for'], '198.51.100.7');
        assert.equal(fields['x-forwarded-proto'], 'http');
      }),
    );
  });
});

describe('withVia', () => {
  it('appends this hop to what came before', () => {
    assert.equal(withVia(undefined), '1.1 sitestack');
    assert.equal(withVia(['1.0 a', '1.1 b']), '1.0 a, 1.1 b, 1.1 sitestack');
  });
});

describe('upstreamOrigin', () => {
  it('takes http(s)://host[:port] and refuses paths, queries, credentials and other schemes', () => {
    assert.equal(upstreamOrigin('http://127.0.0.1:3000'), 'http://127.0.0.1:3000');
    assert.equal(upstreamOrigin('HTTPS://Example.com/'), 'https://example.com');
    assert.equal(upstreamOrigin('http://[::1]:8080'), 'http://[::1]:8080');
    for (const bad of ['http://a/b', 'http://a?x=1', 'http://u:p@a', 'ftp://a', 'a:3000', '', 'http://', 'http://a b', 'http://ä.example#x']) {
      assert.equal(upstreamOrigin(bad), undefined, bad);
    }
  });

  it('never throws, whatever the text (property)', () => {
    fc.assert(fc.property(fc.string(), (text) => void upstreamOrigin(text)));
  });
});

describe('validPathPrefix', () => {
  it('takes the defaults and refuses prefixes without a leading / or with a query', () => {
    for (const prefix of [...PROXY_DEFAULTS.bypassPrefixes, PROXY_DEFAULTS.dataRoutePrefix]) assert.ok(validPathPrefix(prefix));
    assert.equal(validPathPrefix('api/'), false);
    assert.equal(validPathPrefix('/a?b'), false);
  });
});
