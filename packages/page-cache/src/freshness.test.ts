import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { responseDirectives } from './cache-control.js';
import { lifetimeOf, staleUse, statedLifetimeMs, unusableLifetime, type FreshnessPolicy, type Lifetime } from './freshness.js';

const NOW = Date.UTC(2026, 0, 1);
const honour: FreshnessPolicy = { lifetimes: 'honour', defaultLifetimeMs: undefined, staleIfErrorMs: 0 };
const ignore: FreshnessPolicy = { lifetimes: 'ignore', defaultLifetimeMs: undefined, staleIfErrorMs: 0 };

function lifetime(cacheControl: string | undefined, headers: Record<string, string> = {}, policy = honour): Lifetime {
  const all = cacheControl === undefined ? headers : { ...headers, 'cache-control': cacheControl };
  return lifetimeOf(responseDirectives(all['cache-control']), all, policy, NOW);
}

describe('lifetimeOf', () => {
  it('takes s-maxage over max-age, as a shared cache does', () => {
    assert.equal(lifetime('max-age=1000, s-maxage=10').freshUntil, NOW + 10_000);
    assert.equal(lifetime('max-age=1000').freshUntil, NOW + 1_000_000);
  });

  it('counts Expires from Date (or now) when no max-age is given, and a bad Expires as already stale', () => {
    const date = new Date(NOW - 5_000).toUTCString();
    assert.equal(lifetime(undefined, { date, expires: new Date(NOW + 25_000).toUTCString() }).freshUntil, NOW + 30_000);
    assert.equal(lifetime(undefined, { expires: new Date(NOW + 25_000).toUTCString() }).freshUntil, NOW + 25_000);
    assert.equal(lifetime(undefined, { expires: '0' }).freshUntil, NOW);
    assert.equal(lifetime('max-age=5', { expires: '0' }).freshUntil, NOW + 5_000, 'max-age wins over Expires');
  });

  it('subtracts the Age the response arrived with', () => {
    assert.equal(lifetime('max-age=60', { age: '50' }).freshUntil, NOW + 10_000);
    assert.equal(lifetime('max-age=60', { age: 'old' }).freshUntil, NOW + 60_000, 'an unreadable Age is none');
  });

  it('falls back to defaultLifetimeMs (or until purged) when the response states no lifetime', () => {
    assert.equal(lifetime('public').freshUntil, Infinity);
    assert.equal(lifetime('public', {}, { ...honour, defaultLifetimeMs: 5_000 }).freshUntil, NOW + 5_000);
  });

  it('reads the stale windows, with staleIfErrorMs for responses without stale-if-error', () => {
    const windows = lifetime('max-age=1, stale-while-revalidate=30, stale-if-error=600');
    assert.deepEqual([windows.staleWhileRevalidateMs, windows.staleIfErrorMs], [30_000, 600_000]);
    assert.equal(lifetime('max-age=1', {}, { ...honour, staleIfErrorMs: 7_000 }).staleIfErrorMs, 7_000);
  });

  it('closes both windows on must-revalidate unless stale-if-error is explicit', () => {
    const closed = lifetime('max-age=1, must-revalidate, stale-while-revalidate=30', {}, { ...honour, staleIfErrorMs: 7_000 });
    assert.deepEqual([closed.staleWhileRevalidateMs, closed.staleIfErrorMs], [0, 0]);
    assert.equal(lifetime('max-age=1, proxy-revalidate, stale-if-error=9').staleIfErrorMs, 9_000);
  });

  it('reads nothing of the response with lifetimes ignore', () => {
    assert.deepEqual(lifetime('max-age=1, stale-while-revalidate=30, stale-if-error=600', {}, ignore), { freshUntil: Infinity, staleWhileRevalidateMs: 0, staleIfErrorMs: 0 });
    assert.deepEqual(lifetime('max-age=1', {}, { lifetimes: 'ignore', defaultLifetimeMs: 10, staleIfErrorMs: 20 }), { freshUntil: NOW + 10, staleWhileRevalidateMs: 0, staleIfErrorMs: 20 });
  });
});

describe('statedLifetimeMs', () => {
  it('is none when the response states nothing, and 0 for an invalid max-age', () => {
    assert.equal(statedLifetimeMs(responseDirectives('public'), {}, NOW), undefined);
    assert.equal(statedLifetimeMs(responseDirectives('max-age=x'), {}, NOW), 0);
  });
});

describe('unusableLifetime', () => {
  const refusal = (cacheControl: string, headers: Record<string, string> = {}) => unusableLifetime(responseDirectives(cacheControl), lifetime(cacheControl, headers), NOW);

  it('refuses no-cache and what is stale at once without stale-while-revalidate', () => {
    assert.match(refusal('no-cache, max-age=60') ?? '', /no-cache/);
    for (const value of ['max-age=0', 's-maxage=0, max-age=60', 'max-age=abc', 'max-age=0, stale-if-error=60']) assert.match(refusal(value) ?? '', /stale/, value);
    assert.match(refusal('max-age=60', { age: '60' }) ?? '', /stale/);
  });

  it('accepts a fresh response, or one stale at once with stale-while-revalidate', () => {
    assert.equal(refusal('max-age=60'), undefined);
    assert.equal(refusal('max-age=0, stale-while-revalidate=30'), undefined);
    assert.equal(refusal('public'), undefined);
  });
});

describe('staleUse', () => {
  const entry: Lifetime = { freshUntil: 1_000, staleWhileRevalidateMs: 500, staleIfErrorMs: 2_000 };

  it('revalidates an expired entry within stale-while-revalidate, then falls back within stale-if-error, then drops it', () => {
    assert.equal(staleUse(entry, undefined, 1_000, 60_000, true), 'revalidate');
    assert.equal(staleUse(entry, undefined, 1_499, 60_000, true), 'revalidate');
    assert.equal(staleUse(entry, undefined, 1_500, 60_000, true), 'fallback');
    assert.equal(staleUse(entry, undefined, 2_999, 60_000, true), 'fallback');
    assert.equal(staleUse(entry, undefined, 3_000, 60_000, true), 'drop');
  });

  it('never revalidates without a background renderer', () => {
    assert.equal(staleUse(entry, undefined, 1_000, 60_000, false), 'fallback');
    assert.equal(staleUse(entry, 900, 950, 60_000, false), 'fallback');
  });

  it('serves a soft-purged entry for staleMaxMs from its purge, whatever its swr, then counts stale-if-error from the purge', () => {
    const forever: Lifetime = { freshUntil: Infinity, staleWhileRevalidateMs: 0, staleIfErrorMs: 1_000 };
    assert.equal(staleUse(forever, 100, 100 + 60_000, 60_000, true), 'revalidate');
    assert.equal(staleUse({ ...forever, staleIfErrorMs: 0 }, 100, 100 + 60_001, 60_000, true), 'drop');
    assert.equal(staleUse(forever, 100, 1_099, 500, true), 'fallback');
    assert.equal(staleUse(forever, 100, 1_100, 500, true), 'drop');
  });

  it('once dropped, stays dropped as time goes on', () => {
    fc.assert(
      fc.property(
        fc.record({ freshUntil: fc.nat({ max: 10_000 }), staleWhileRevalidateMs: fc.nat({ max: 10_000 }), staleIfErrorMs: fc.nat({ max: 10_000 }) }),
        fc.option(fc.nat({ max: 10_000 }), { nil: undefined }),
        fc.nat({ max: 30_000 }),
        fc.nat({ max: 30_000 }),
        fc.nat({ max: 10_000 }),
        fc.boolean(),
        (lifetime, staleSince, now, later, staleMaxMs, canRevalidate) => {
          if (staleUse(lifetime, staleSince, now, staleMaxMs, canRevalidate) === 'drop') {
            assert.equal(staleUse(lifetime, staleSince, now + later, staleMaxMs, canRevalidate), 'drop');
          }
        },
      ),
    );
  });
});
