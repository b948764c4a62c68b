import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Pacer, retryAfterMs } from './fetcher.js';

describe('Pacer', () => {
  it('starts requests no closer together than its interval, however many wait at once', async () => {
    const pacer = new Pacer(25);
    const started = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => pacer.turn()));
    // Four gaps of 25 ms; a timer may fire a little early by the clock read here, never a whole gap early.
    assert.ok(performance.now() - started >= 90, `${performance.now() - started} ms`);
  });

  it('slows down by halves when told, from 100 ms apart, up to the bound', () => {
    const pacer = new Pacer(1);
    pacer.slowDown(1000);
    assert.equal(pacer.intervalMs, 100);
    for (let i = 0; i < 10; i++) pacer.slowDown(1000);
    assert.equal(pacer.intervalMs, 1000);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('Wed, 25 Nov 2026 10:00:00 GMT');
    assert.equal(retryAfterMs('3', now), 3000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
    assert.equal(retryAfterMs('Wed, 25 Nov 2026 10:00:05 GMT', now), 5000);
    assert.equal(retryAfterMs('Wed, 25 Nov 2026 09:00:00 GMT', now), 0);
    for (const bad of [null, '', 'soon', '-1', '1e9', '99999999999']) assert.equal(retryAfterMs(bad, now), undefined, String(bad));
  });
});
