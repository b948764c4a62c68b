import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddress, trustedProxyCheck, validProxyEntry } from './client-address.js';

describe('clientAddress', () => {
  const loopback = trustedProxyCheck(['loopback']);

  it('uses the peer address when the peer is not a trusted proxy', () => {
    assert.equal(clientAddress('203.0.113.5', '198.51.100.1', loopback), '203.0.113.5');
  });

  it('reads X-Forwarded-For from the right, skipping trusted proxies, when the peer is trusted', () => {
    assert.equal(clientAddress('127.0.0.1', '198.51.100.1', loopback), '198.51.100.1');
    assert.equal(clientAddress('::ffff:127.0.0.1', '6.6.6.6, 198.51.100.1, 127.0.0.2', loopback), '198.51.100.1', 'a spoofed left entry is ignored');
    assert.equal(clientAddress('::1', ['198.51.100.1', '127.0.0.1'], loopback), '198.51.100.1');
    assert.equal(clientAddress('127.0.0.1', 'garbage, 127.0.0.5', loopback), '127.0.0.5', 'stops at an entry that is not an address');
    assert.equal(clientAddress('127.0.0.1', undefined, loopback), '127.0.0.1');
  });

  it('trusts subnets and single addresses of both families', () => {
    const trusted = trustedProxyCheck(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
    assert.equal(clientAddress('10.1.2.3', '198.51.100.1, 192.0.2.7', trusted), '198.51.100.1');
    assert.equal(clientAddress('2001:db8::1', '198.51.100.9', trusted), '198.51.100.9');
    assert.equal(clientAddress('127.0.0.1', '198.51.100.9', trusted), '127.0.0.1', 'loopback is not trusted unless listed');
    assert.equal(clientAddress('10.0.0.1', '198.51.100.1', trustedProxyCheck([])), '10.0.0.1');
  });
});

describe('validProxyEntry', () => {
  it('accepts addresses, CIDR subnets and loopback, and nothing else', () => {
    for (const entry of ['loopback', '127.0.0.1', '10.0.0.0/8', '::1', '2001:db8::/32']) assert.ok(validProxyEntry(entry), entry);
    for (const entry of ['localhost', '10.0.0.0/33', '::/129', '1.2.3', '10.0.0.0/8/1', '10.0.0.0/x', '']) assert.equal(validProxyEntry(entry), false, entry);
  });
});
