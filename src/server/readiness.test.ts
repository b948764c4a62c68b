import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Readiness } from './readiness.js';

describe('Readiness', () => {
  it('answers 503 starting before ready() and 200 after it', async () => {
    const readiness = new Readiness();
    assert.deepEqual((await readiness.answer()).body, { status: 'starting', checks: {} });
    readiness.ready();
    assert.equal((await readiness.answer()).status, 200);
  });

  it('runs the checks once for concurrent probes and reuses the run when probes come within reuseMs', async () => {
    let runs = 0;
    const readiness = new Readiness({ checks: [{ name: 'counted', critical: true, run: () => String(++runs) }], reuseMs: 60_000 });
    readiness.ready();
    const answers = await Promise.all([readiness.answer(), readiness.answer(), readiness.answer()]);
    assert.equal(runs, 1);
    assert.deepEqual(answers.map((answer) => answer.body.checks.counted?.detail), ['1', '1', '1']);
  });

  it('fails a check that takes longer than checkTimeoutMs, and the process with it when the check is critical', async () => {
    const readiness = new Readiness({
      checks: [{ name: 'slow', critical: true, run: () => new Promise((resolve) => setTimeout(resolve, 200, 'late')) }],
      checkTimeoutMs: 30,
    });
    readiness.ready();
    const answer = await readiness.answer();
    assert.equal(answer.status, 503);
    assert.deepEqual({ ok: answer.body.checks.slow?.ok, detail: answer.body.checks.slow?.detail }, { ok: false, detail: 'no answer within 30 ms' });
  });

  it('waits only what is left of the drain delay when a second server of the process stops later', async () => {
    const readiness = new Readiness();
    readiness.ready();
    const started = Date.now();
    await readiness.drainDelay(200);
    await readiness.drainDelay(200);
    const took = Date.now() - started;
    assert.ok(took >= 190 && took < 350, `${took} ms`);
    assert.equal(readiness.lifecycle, 'draining');
  });

  it('ends the drain delay at once when force aborts', async () => {
    const readiness = new Readiness();
    const force = new AbortController();
    const started = Date.now();
    const waiting = readiness.drainDelay(5_000, force.signal);
    force.abort();
    await waiting;
    assert.ok(Date.now() - started < 500);
  });
});
