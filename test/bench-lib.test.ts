import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bestOf, childPids, cpuSplit, judge, onCpus, parseWrkReport, percentile, type LoadResult } from '../bench/lib.js';

const REPORT = `Running 5s test @ http://127.0.0.1:3000/plog/hello
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.10ms  510.00us  12.00ms   90.00%
    Req/Sec    15.20k     1.00k   16.00k    80.00%
  Latency Distribution
     50%  850.00us
     75%    2.20ms
     90%    2.50ms
     99%    1.20s
  76000 requests in 5.00s, 2.20GB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  15200.50
Transfer/sec:    450.00MB
`;

describe('parseWrkReport', () => {
  it('reads throughput, percentiles in any unit, errors and non-2xx when wrk reports them', () => {
    assert.deepEqual(parseWrkReport(REPORT), {
      requestsPerSecond: 15200.5,
      total: 76000,
      p50Ms: 0.85,
      p99Ms: 1200,
      errors: 3,
      non2xx: 4,
    });
  });

  it('counts no errors when wrk prints no error lines', () => {
    const clean = REPORT.replace(/ {2}Socket errors.*\n/, '').replace(/ {2}Non-2xx.*\n/, '');
    const parsed = parseWrkReport(clean);
    assert.equal(parsed.errors, 0);
    assert.equal(parsed.non2xx, 0);
  });
});

describe('judge', () => {
  it('compares against the named baseline when a minimum ratio is the target', () => {
    const results = [
      { name: 'bare', value: 100, unit: 'req/s' },
      { name: 'hits', value: 95, unit: 'req/s', baseline: 'bare', target: { minRatio: 0.9 } },
      { name: 'slow', value: 80, unit: 'req/s', baseline: 'bare', target: { minRatio: 0.9 } },
    ];
    assert.deepEqual(judge(results[1]!, results), { ratio: 0.95, pass: true });
    assert.equal(judge(results[2]!, results).pass, false);
  });
});

describe('cpuSplit', () => {
  it('gives the server CPU 0 and the load generator the rest when the machine has two or more CPUs', () => {
    assert.deepEqual(cpuSplit(2, true, undefined), { server: '0', load: '1' });
    assert.deepEqual(cpuSplit(8, true, '1'), { server: '0', load: '1-7' });
  });

  it('pins nothing on one CPU, without taskset or when BENCH_PIN is 0', () => {
    assert.equal(cpuSplit(1, true, undefined), undefined);
    assert.equal(cpuSplit(4, false, undefined), undefined);
    assert.equal(cpuSplit(4, true, '0'), undefined);
  });
});

describe('onCpus', () => {
  it('runs the command through taskset on the given CPUs when there are some', () => {
    assert.deepEqual(onCpus('1-3', 'wrk', ['-t1', 'http://x/']), ['taskset', ['-c', '1-3', 'wrk', '-t1', 'http://x/']]);
  });

  it('runs the command as it is when no CPUs are given', () => {
    assert.deepEqual(onCpus(undefined, 'wrk', ['-t1']), ['wrk', ['-t1']]);
  });
});

describe('childPids', () => {
  it('lists the processes a process started while they run, and none once they ended', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
    const parent = spawn(process.execPath, ['-e', "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']); console.log(c.pid); process.stdin.once('data', () => { c.kill(); c.once('exit', () => process.exit(0)); });"], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(parent.stdout, 'data')) as [Buffer];
      assert.deepEqual(childPids(parent.pid as number), [Number(line.toString().trim())]);
      parent.stdin.write('stop\n');
      await once(parent, 'exit');
      assert.deepEqual(childPids(parent.pid as number), [], 'an ended process has no /proc entry');
    } finally {
      parent.kill();
    }
  });
});

describe('bestOf', () => {
  const round = (figures: Partial<LoadResult>): LoadResult => ({ requestsPerSecond: 100, p50Ms: 5, p99Ms: 20, errors: 0, non2xx: 0, ...figures });

  it('keeps the highest throughput and the lowest latencies and CPU, each from whichever round had it', () => {
    const first = bestOf(undefined, round({ requestsPerSecond: 120, p99Ms: 30, cpuMicrosPerRequest: 900, otherCpuMicrosPerRequest: 50 }), 'x');
    const best = bestOf(first, round({ requestsPerSecond: 110, p50Ms: 4, cpuMicrosPerRequest: 800, otherCpuMicrosPerRequest: 60 }), 'x');
    assert.deepEqual(
      { rps: best.requestsPerSecond, p50: best.p50Ms, p99: best.p99Ms, cpu: best.cpuMicrosPerRequest, other: best.otherCpuMicrosPerRequest },
      { rps: 120, p50: 4, p99: 20, cpu: 800, other: 50 },
    );
  });

  it('stops the suite at a round with errors or non-2xx answers', () => {
    assert.throws(() => bestOf(undefined, round({ non2xx: 3 }), 'searches'), /searches: 0 errors, 3 non-2xx answers/);
    assert.throws(() => bestOf(round({}), round({ errors: 1 }), 'searches'), /1 errors/);
  });
});

describe('percentile', () => {
  it('takes the nearest rank, whatever the order of the samples, and NaN when there are none', () => {
    const samples = [5, 1, 4, 2, 3];
    assert.equal(percentile(samples, 0.5), 3);
    assert.equal(percentile(samples, 0.99), 5);
    assert.equal(percentile(samples, 1), 5);
    assert.deepEqual(samples, [5, 1, 4, 2, 3], 'the samples are left as they were');
    assert.ok(Number.isNaN(percentile([], 0.5)));
  });
});
