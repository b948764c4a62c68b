import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { silentLogger } from '../log.js';
import { createOriginApp, type OriginAppOptions } from './app.js';
import { openOriginDatabase } from './database.js';

const OID = 'first-look-sqlite';
const closers: (() => Promise<unknown> | unknown)[] = [];
after(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A seeded origin on 127.0.0.1 allowing two comments per address and window; `post` sends one with the given headers. */
async function origin(options: Pick<OriginAppOptions, 'trustedProxies'> = {}) {
  const db = openOriginDatabase(':memory:');
  const app: FastifyInstance = await createOriginApp({ db, logger: silentLogger(), commentRateLimit: { max: 2, windowMs: 60_000 }, ...options });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  closers.push(() => db.close(), () => app.close());
  return async (headers: Record<string, string> = {}): Promise<number> => {
    const response = await fetch(`${base}/api/v1/plog/${OID}/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'Reader', comment: 'Hello' }),
    });
    await response.arrayBuffer();
    return response.status;
  };
}

const twice = async (send: () => Promise<number>): Promise<number[]> => [await send(), await send()];

describe('origin comment rate limit behind a proxy', () => {
  it('limits two readers separately when their comments come through a trusted proxy', async () => {
    const post = await origin();
    const first = { 'x-forwarded-for': '198.51.100.1' };
    const second = { 'x-forwarded-for': '203.0.113.7, 198.51.100.2' };
    assert.deepEqual(await twice(() => post(first)), [201, 201]);
    assert.equal(await post(first), 429);
    assert.deepEqual(await twice(() => post(second)), [201, 201]);
    assert.equal(await post(second), 429);
    assert.equal(await post(), 201, 'the proxy itself, without the header, is a third client');
  });

  it('reads past every trusted hop to the reader when the request crossed two trusted proxies', async () => {
    const post = await origin({ trustedProxies: ['loopback', '10.0.0.0/8'] });
    assert.deepEqual(await twice(() => post({ 'x-forwarded-for': '198.51.100.9, 10.1.2.3' })), [201, 201]);
    assert.equal(await post({ 'x-forwarded-for': '198.51.100.9, 10.9.9.9' }), 429, 'the same reader through another edge host');
    assert.equal(await post({ 'x-forwarded-for': '198.51.100.10, 10.1.2.3' }), 201);
  });

  it('ignores X-Forwarded-For when the direct peer is not a trusted proxy', async () => {
    for (const trustedProxies of [['192.0.2.1'], []]) {
      const post = await origin({ trustedProxies });
      assert.deepEqual(await twice(() => post({ 'x-forwarded-for': '198.51.100.1' })), [201, 201]);
      assert.equal(await post({ 'x-forwarded-for': '198.51.100.2' }), 429, `trusted: ${JSON.stringify(trustedProxies)}`);
      assert.equal(await post(), 429);
    }
  });

  it('answers 201 or 429, never a server error, when X-Forwarded-For is malformed, hostile or unicode', async () => {
    const post = await origin();
    const values = [
      '',
      ' , ,',
      'not-an-address',
      '999.999.999.999',
      '198.51.100.1:8080',
      '[2001:db8::1]',
      '2001:db8::1',
      '::ffff:198.51.100.3',
      '198.51.100.4, garbage',
      Array.from({ length: 500 }, (_, i) => `10.0.${i % 250}.${i % 200}`).join(', '),
      'caf\u00e9, 198.51.100.5',
      'x'.repeat(8000),
    ];
    for (const value of values) {
      const status = await post({ 'x-forwarded-for': value });
      assert.ok(status === 201 || status === 429, `${value.slice(0, 40)}: ${status}`);
    }
  });
});
