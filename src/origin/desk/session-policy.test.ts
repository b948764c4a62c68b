import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cookieHeader, cookieToken, crossSiteProblem, secureCookies, sessionExpired } from './session-policy.js';

const TOKEN = 'A'.repeat(42) + 'z';

describe('desk cookies', () => {
  it('are HttpOnly, SameSite=Strict and scoped to /admin, with Secure only when asked', () => {
    assert.equal(cookieHeader('s', TOKEN, { secure: false, maxAgeSeconds: 60 }), `s=${TOKEN}; Path=/admin; Max-Age=60; HttpOnly; SameSite=Strict`);
    assert.match(cookieHeader('s', '', { secure: true, maxAgeSeconds: -5 }), /^s=; Path=\/admin; Max-Age=0; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('are Secure when the public URL is https', () => {
    assert.equal(secureCookies('https://news.example'), true);
    assert.equal(secureCookies('HTTPS://news.example'), true);
    assert.equal(secureCookies('http://localhost:3000'), false);
    assert.equal(secureCookies(undefined), false);
  });

  it('yield a token only when it has the shape the desk makes', () => {
    assert.equal(cookieToken(`a=1; s=${TOKEN}; b=2`, 's'), TOKEN);
    assert.equal(cookieToken(`s=${TOKEN}x`, 's'), undefined);
    assert.equal(cookieToken('s=<script>', 's'), undefined);
    assert.equal(cookieToken(`xs=${TOKEN}`, 's'), undefined);
    assert.equal(cookieToken(undefined, 's'), undefined);
  });

  it('never yield anything but a 43-character base64url token when given any header', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (header) => {
        const token = cookieToken(header, 's');
        if (token !== undefined) assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      }),
    );
  });
});

describe('session expiry', () => {
  const lifetime = { idleMs: 1000, absoluteMs: 5000 };
  it('ends a session idle for the idle time', () => {
    assert.equal(sessionExpired({ createdAt: 0, lastSeenAt: 0 }, 999, lifetime), false);
    assert.equal(sessionExpired({ createdAt: 0, lastSeenAt: 0 }, 1000, lifetime), true);
  });
  it('ends a busy session at its absolute lifetime', () => {
    assert.equal(sessionExpired({ createdAt: 0, lastSeenAt: 4900 }, 4999, lifetime), false);
    assert.equal(sessionExpired({ createdAt: 0, lastSeenAt: 4900 }, 5000, lifetime), true);
  });
});

describe('the cross-site check', () => {
  const host = 'desk.example:8080';
  it('lets a same-origin form through', () => {
    assert.equal(crossSiteProblem({ origin: 'http://desk.example:8080', fetchSite: 'same-origin', host }), undefined);
    assert.equal(crossSiteProblem({ origin: 'https://desk.example:8080', fetchSite: undefined, host }), undefined);
    assert.equal(crossSiteProblem({ origin: undefined, fetchSite: undefined, host }), undefined);
  });
  it('refuses a form from another origin, another site, a sibling subdomain or an opaque origin', () => {
    for (const source of [
      { origin: 'https://evil.example', fetchSite: undefined },
      { origin: 'http://desk.example:8081', fetchSite: undefined },
      { origin: 'null', fetchSite: undefined },
      { origin: undefined, fetchSite: 'cross-site' },
      { origin: undefined, fetchSite: 'same-site' },
      { origin: 'http://desk.example:8080', fetchSite: 'cross-site' },
    ]) {
      assert.ok(crossSiteProblem({ ...source, host }) !== undefined, JSON.stringify(source));
    }
  });
  it('never lets through an Origin that names another host when given any origin string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (origin) => {
        if (crossSiteProblem({ origin, fetchSite: undefined, host }) === undefined) assert.equal(new URL(origin).host, host);
      }),
    );
  });
});
