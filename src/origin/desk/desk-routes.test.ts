import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { originAppForSuite } from '../test-support/origin-app.js';
import { AccountStore } from './accounts.js';
import { DeskClient, TEST_SCRYPT } from './test-support/desk-client.js';

const PASSWORD = 'a long enough pass phrase';
const HOUR = 3_600_000;

describe('the desk routes', () => {
  let clock = Date.parse('2026-11-27T12:00:00Z');
  const origin = originAppForSuite({
    desk: {
      scrypt: TEST_SCRYPT,
      publicUrl: 'https://news.example',
      loginRateLimit: { max: 6, windowMs: 60_000 },
      loginNameRateLimit: { max: 3, windowMs: 60_000 },
      sessionLifetime: { idleMs: HOUR, absoluteMs: 8 * HOUR },
      now: () => clock,
    },
  });
  const users = () => new AccountStore(origin.db, TEST_SCRYPT);
  let created = false;
  const ensureUsers = async () => {
    if (created) return;
    created = true;
    for (const name of ['alice', 'bob', 'carol', 'dave']) await users().addUser(name, `${PASSWORD} ${name.length}`);
  };
  const passwordOf = (name: string) => `${PASSWORD} ${name.length}`;

  it('redirects to the login form when there is no session', async () => {
    const client = new DeskClient(origin.base);
    const response = await client.request('/admin/');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/admin/login');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal((await client.request('/admin')).headers.get('location'), '/admin/');
  });

  it('serves a labelled login form with no-store and a token cookie when asked for it', async () => {
    const client = new DeskClient(origin.base);
    const response = await client.request('/admin/login');
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(html, /<label for="username">Username<\/label>/);
    assert.match(html, /<label for="password">Password<\/label>/);
    assert.match(html, /<button type="submit">Log in<\/button>/);
    assert.match(client.lastSetCookies[0] ?? '', /^sitestack_desk_login=[\w-]{43}; Path=\/admin; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('keeps the login token a browser has, so a login form open in another tab still works', async () => {
    await ensureUsers();
    const client = new DeskClient(origin.base);
    const first = DeskClient.csrfOf(await (await client.request('/admin/login')).text());
    const second = DeskClient.csrfOf(await (await client.request('/admin/login')).text());
    assert.equal(first, second);
    const response = await client.request('/admin/login', { form: { _csrf: first, username: 'alice', password: passwordOf('alice') }, headers: { origin: origin.base } });
    assert.equal(response.status, 303);
  });

  it('logs in and shows who is logged in when the name and password match', async () => {
    await ensureUsers();
    const client = new DeskClient(origin.base);
    const response = await client.login('Alice', passwordOf('alice'));
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/admin/');
    const session = client.lastSetCookies.find((line) => line.startsWith('sitestack_desk='));
    assert.match(session ?? '', /^sitestack_desk=[\w-]{43}; Path=\/admin; Max-Age=28800; HttpOnly; SameSite=Strict; Secure$/);
    const desk = await client.request('/admin/');
    const html = await desk.text();
    assert.equal(desk.status, 200);
    assert.equal(desk.headers.get('cache-control'), 'no-store');
    assert.match(html, /Logged in as <strong>alice<\/strong>/);
    assert.match(html, /Log out<\/button>/);
    // Only a hash of the id is stored.
    const stored = origin.db.prepare('SELECT id_hash FROM desk_sessions').pluck().all() as string[];
    assert.ok(!stored.includes(client.cookies.get('sitestack_desk') ?? ''));
  });

  it('answers the same generic failure when the name is unknown or the password wrong', async () => {
    await ensureUsers();
    const answers: string[] = [];
    for (const [name, password] of [['bob', 'wrong password here'], ['nobody', 'wrong password here']] as const) {
      const client = new DeskClient(origin.base);
      const response = await client.login(name, password);
      assert.equal(response.status, 401);
      const html = await response.text();
      assert.match(html, /role="alert"/);
      answers.push(/<p class="form-error" role="alert" id="login-error">([^<]*)<\/p>/.exec(html)?.[1] ?? '');
      assert.equal(client.cookies.get('sitestack_desk'), undefined);
    }
    assert.equal(answers[0], answers[1]);
    assert.match(answers[0] ?? '', /do not match/);
  });

  it('answers 429 with Retry-After when a name has failed too often, even from other addresses and with the right password', async () => {
    await ensureUsers();
    for (let attempt = 0; attempt < 3; attempt++) {
      assert.equal((await new DeskClient(origin.base).login('carol', `wrong guess ${attempt}xyz`, {}, { 'x-forwarded-for': `203.0.113.${attempt}` })).status, 401);
    }
    const limited = await new DeskClient(origin.base).login('carol', passwordOf('carol'), {}, { 'x-forwarded-for': '203.0.113.99' });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.match(await limited.text(), /Too many failed logins. Try again in \d+ seconds/);
  });

  it('answers 429 when one address has failed too often, whatever names it tries', async () => {
    const address = { 'x-forwarded-for': '198.51.100.7' };
    for (let attempt = 0; attempt < 6; attempt++) {
      assert.equal((await new DeskClient(origin.base).login(`guess${attempt}`, 'wrong guess abc', {}, address)).status, 401);
    }
    assert.equal((await new DeskClient(origin.base).login('dave', passwordOf('dave'), {}, address)).status, 429);
    assert.equal((await new DeskClient(origin.base).login('dave', passwordOf('dave'), {}, { 'x-forwarded-for': '198.51.100.8' })).status, 303);
  });

  it('refuses a login form posted from another origin or another site', async () => {
    await ensureUsers();
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }, { 'sec-fetch-site': 'same-site' }]) {
      const client = new DeskClient(origin.base);
      const response = await client.login('alice', passwordOf('alice'), {}, { origin: origin.base, 'sec-fetch-site': 'same-origin', ...headers });
      assert.equal(response.status, 403, JSON.stringify(headers));
      assert.match(await response.text(), /another|unknown origin/);
      assert.equal(client.cookies.get('sitestack_desk'), undefined);
    }
  });

  it('refuses a login without the token of its form', async () => {
    await ensureUsers();
    const client = new DeskClient(origin.base);
    await client.request('/admin/login');
    const response = await client.request('/admin/login', { form: { _csrf: 'x'.repeat(43), username: 'alice', password: passwordOf('alice') } });
    assert.equal(response.status, 403);
    const fresh = new DeskClient(origin.base);
    assert.equal((await fresh.request('/admin/login', { form: { username: 'alice', password: passwordOf('alice') } })).status, 403);
  });

  it('refuses a logout from another origin or without the session token, and keeps the session', async () => {
    await ensureUsers();
    const client = new DeskClient(origin.base);
    await client.login('alice', passwordOf('alice'));
    const token = await client.sessionToken();
    const foreign = await client.request('/admin/logout', { form: { _csrf: token }, headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403);
    const tokenless = await client.request('/admin/logout', { form: { _csrf: 'forged' }, headers: { origin: origin.base } });
    assert.equal(tokenless.status, 403);
    assert.equal((await client.request('/admin/')).status, 200);
  });

  it('ends the session at logout and every session of the user at "log out everywhere"', async () => {
    await ensureUsers();
    const [one, two, three] = [new DeskClient(origin.base), new DeskClient(origin.base), new DeskClient(origin.base)];
    for (const client of [one, two]) await client.login('bob', passwordOf('bob'));
    await three.login('alice', passwordOf('alice'));
    const out = await one.request('/admin/logout', { form: { _csrf: await one.sessionToken() }, headers: { origin: origin.base } });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/admin/login?out=1');
    assert.equal((await one.request('/admin/')).status, 303);
    assert.equal((await two.request('/admin/')).status, 200);
    const again = await new DeskClient(origin.base);
    await again.login('bob', passwordOf('bob'));
    const everywhere = await again.request('/admin/logout?everywhere=1', { form: { _csrf: await again.sessionToken() }, headers: { origin: origin.base } });
    assert.equal(everywhere.headers.get('location'), '/admin/login?out=all');
    assert.equal((await two.request('/admin/')).status, 303);
    assert.equal((await three.request('/admin/')).status, 200, "another user's session stays");
  });

  it('ends a session idle for too long and one past its absolute lifetime', async () => {
    await ensureUsers();
    const idle = new DeskClient(origin.base);
    await idle.login('alice', passwordOf('alice'));
    clock += HOUR - 1000;
    assert.equal((await idle.request('/admin/')).status, 200);
    clock += HOUR;
    const expired = await idle.request('/admin/');
    assert.equal(expired.status, 303);
    assert.match(expired.headers.get('set-cookie') ?? '', /^sitestack_desk=; .*Max-Age=0/);
    const busy = new DeskClient(origin.base);
    await busy.login('alice', passwordOf('alice'));
    for (let step = 0; step < 9; step++) {
      clock += HOUR - 1000;
      const status = (await busy.request('/admin/')).status;
      assert.equal(status, step < 8 ? 200 : 303, `after ${step + 1} steps`);
    }
  });

  it('sends a logged-in editor from the login form to the desk', async () => {
    await ensureUsers();
    const client = new DeskClient(origin.base);
    await client.login('alice', passwordOf('alice'));
    const response = await client.request('/admin/login');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/admin/');
  });

  it('takes the session token from the X-CSRF-Token header of a script', async () => {
    await ensureUsers();
    const client = new DeskClient(origin.base);
    await client.login('alice', passwordOf('alice'));
    const token = await client.sessionToken();
    const json = { 'content-type': 'application/json', origin: origin.base };
    assert.equal((await client.request('/admin/logout', { body: '{}', headers: { ...json, 'x-csrf-token': 'wrong' } })).status, 403);
    assert.equal((await client.request('/admin/logout', { body: '{}', headers: { ...json, 'x-csrf-token': token } })).status, 303);
    assert.equal((await client.request('/admin/')).status, 303);
  });

  it('goes back to the desk page asked for after login, never to another site', async () => {
    await ensureUsers();
    const client = new DeskClient(origin.base);
    assert.equal((await client.login('alice', passwordOf('alice'), { next: '/admin/posts' })).headers.get('location'), '/admin/posts');
    for (const next of ['//evil.example/admin/', 'https://evil.example', '/admin/../x', '/\\evil']) {
      const other = new DeskClient(origin.base);
      assert.equal((await other.login('alice', passwordOf('alice'), { next })).headers.get('location'), '/admin/', next);
    }
  });

  it('sends no-store on a desk path no route serves and leaves the API as it was', async () => {
    const missing = await fetch(`${origin.base}/admin/nothing-here`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('cache-control'), 'no-store');
    const api = await fetch(`${origin.base}/api/v1/plog/`);
    assert.equal(api.status, 200);
    assert.equal(api.headers.get('content-security-policy'), null);
  });
});
