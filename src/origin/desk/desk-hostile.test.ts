import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { originAppForSuite } from '../test-support/origin-app.js';
import { AccountStore } from './accounts.js';
import { DeskClient, TEST_SCRYPT } from './test-support/desk-client.js';

const PASSWORD = 'a long enough pass phrase';

/** A login form body as given, bytes and all, with the form's token. */
async function postLogin(client: DeskClient, body: Buffer | string, contentType = 'application/x-www-form-urlencoded'): Promise<Response> {
  const page = await (await client.request('/admin/login')).text();
  const token = DeskClient.csrfOf(page);
  const bytes = Buffer.concat([Buffer.from(`_csrf=${token}&`), Buffer.from(body)]);
  return fetch(`${client.base}/admin/login`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader(), 'content-type': contentType, origin: client.base },
    body: bytes,
    redirect: 'manual',
  });
}

describe('the desk with hostile input', () => {
  const origin = originAppForSuite({ desk: { scrypt: TEST_SCRYPT, loginRateLimit: { max: 10_000, windowMs: 60_000 }, loginNameRateLimit: { max: 10_000, windowMs: 60_000 } } });
  let ready = false;
  const withUser = async () => {
    if (!ready) await new AccountStore(origin.db, TEST_SCRYPT).addUser('alice', PASSWORD);
    ready = true;
  };

  it('answers a login form that is not UTF-8 with 400 and an HTML page, logging no one in', async () => {
    await withUser();
    const response = await postLogin(new DeskClient(origin.base), Buffer.from([0x75, 0x73, 0x65, 0x72, 0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xff, 0xfe]));
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });

  it('answers a form over its byte limit with 413 without reading it', async () => {
    const response = await postLogin(new DeskClient(origin.base), `username=alice&password=${'x'.repeat(40_000)}`);
    assert.equal(response.status, 413);
  });

  it('answers a JSON or text login with the token failing, never a 500', async () => {
    for (const type of ['application/json', 'text/plain', 'multipart/form-data; boundary=x']) {
      const response = await postLogin(new DeskClient(origin.base), '{"username":"alice"}', type);
      assert.ok(response.status >= 400 && response.status < 500, `${type}: ${response.status}`);
    }
  });

  it('fails percent-encoded, over-long and unicode names and passwords with the generic message', async () => {
    await withUser();
    for (const [username, password] of [
      ['alice%00', PASSWORD],
      ['a'.repeat(10_000), PASSWORD],
      ['ａｌｉｃｅ', PASSWORD],
      ['alice', `${PASSWORD}\u0000`],
      ['alice', 'x'.repeat(3000)],
      ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>'],
    ]) {
      const client = new DeskClient(origin.base);
      const response = await client.login(username ?? '', password ?? '');
      const html = await response.text();
      assert.equal(response.status, 401, username?.slice(0, 20));
      assert.ok(!html.includes('<script>alert') && !html.includes('<img src=x'), 'what was typed is escaped');
      assert.ok(!html.includes(password ?? ''), 'the password is never shown back');
    }
  });

  it('takes the first of a repeated field', async () => {
    await withUser();
    const client = new DeskClient(origin.base);
    const page = await (await client.request('/admin/login')).text();
    const body = `_csrf=${DeskClient.csrfOf(page)}&username=alice&username=mallory&password=${encodeURIComponent(PASSWORD)}`;
    const response = await client.request('/admin/login', { body, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: origin.base } });
    assert.equal(response.status, 303);
  });

  it('ignores a forged, malformed or oversized session cookie', async () => {
    for (const cookie of ['sitestack_desk=' + 'A'.repeat(43), 'sitestack_desk=<script>', `sitestack_desk=${'x'.repeat(6000)}`, 'sitestack_desk']) {
      const response = await fetch(`${origin.base}/admin/`, { headers: { cookie }, redirect: 'manual' });
      assert.equal(response.status, 303, cookie.slice(0, 30));
    }
  });

  it('never answers 500 to any login form body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        const response = await postLogin(new DeskClient(origin.base), Buffer.from(bytes));
        assert.ok(response.status < 500, String(response.status));
      }),
      { numRuns: 40 },
    );
  });

  it('never answers 500 to any method, desk path, query and cookie', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.constantFrom('/admin', '/admin/', '/admin/login', '/admin/logout', '/admin/x'),
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 60 }),
        async (method, path, query, cookie) => {
          const response = await fetch(`${origin.base}${path}?${encodeURIComponent(query)}`, {
            method,
            headers: { cookie: cookie.replace(/[^\x20-\x7e]/g, ''), 'content-type': 'application/x-www-form-urlencoded', origin: origin.base },
            body: method === 'GET' || method === 'OPTIONS' ? undefined : `_csrf=${encodeURIComponent(query)}`,
            redirect: 'manual',
          });
          await response.arrayBuffer();
          assert.ok(response.status < 500, `${method} ${path}: ${response.status}`);
          assert.equal(response.headers.get('cache-control'), 'no-store');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives a new session id at login even when the browser brings one (no session fixation)', async () => {
    await withUser();
    const client = new DeskClient(origin.base);
    const planted = 'P'.repeat(43);
    client.cookies.set('sitestack_desk', planted);
    assert.equal((await client.login('alice', PASSWORD)).status, 303);
    const given = client.cookies.get('sitestack_desk');
    assert.ok(given !== undefined && given !== planted);
    assert.equal((await client.request('/admin/')).status, 200);
  });

  it('answers a raw request with a hostile Host header and Origin without a 500', async () => {
    const url = new URL(origin.base);
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        { host: url.hostname, port: url.port, path: '/admin/logout', method: 'POST', headers: { host: 'évil\u00e9.example', origin: 'http://évil.example', 'content-type': 'application/x-www-form-urlencoded' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end('_csrf=x');
    });
    assert.ok(status === 400 || status === 403, String(status));
  });
});
