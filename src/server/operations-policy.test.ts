import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedLogPath, chosenForLog, frontRouteClass, originRouteClass, rateLimitOf, readinessAnswer, shouldLogRequest, type CheckResult } from './operations-policy.js';

describe('boundedLogPath', () => {
  it('keeps a short URL as it is when nothing passes the bounds', () => {
    assert.equal(boundedLogPath('/plog/post?page=2&sort=best'), '/plog/post?page=2&sort=best');
  });

  it('cuts each query value to 40 characters and says how many were left off when a value is long', () => {
    const long = 'x'.repeat(5_000);
    assert.equal(boundedLogPath(`/api/v1/search?q=${long}&size=10`), `/api/v1/search?q=${'x'.repeat(40)}…[4960]&size=10`);
  });

  it('keeps 10 parameters and counts the rest when a query has many', () => {
    const query = Array.from({ length: 25 }, (_, i) => `p${i}=${i}`).join('&');
    const logged = boundedLogPath(`/?${query}`);
    assert.ok(logged.endsWith('p9=9&…[15 more parameters]'), logged);
  });

  it('cuts the path to 200 characters when it is longer', () => {
    const logged = boundedLogPath(`/${'a'.repeat(1_000)}`);
    assert.equal(logged, `/${'a'.repeat(199)}…[801]`);
  });

  it('stays under 1,300 characters when a client sends a huge URL', () => {
    const url = `/${'p'.repeat(10_000)}?${Array.from({ length: 100 }, () => `${'k'.repeat(100)}=${'v'.repeat(100)}`).join('&')}`;
    assert.ok(boundedLogPath(url).length < 1_300, String(boundedLogPath(url).length));
  });
});

describe('chosenForLog and shouldLogRequest', () => {
  it('logs nothing when the mode is off, even errors', () => {
    assert.equal(chosenForLog('off', 0), false);
    assert.equal(shouldLogRequest('off', 500, true, false), false);
  });

  it('chooses every request when the mode is all', () => {
    assert.equal(chosenForLog('all', 0.99), true);
    assert.equal(shouldLogRequest('all', 200, false, true), true);
  });

  it('logs 5xx answers and abandoned requests only when the mode is errors', () => {
    assert.equal(chosenForLog('errors', 0), false);
    assert.equal(shouldLogRequest('errors', 503, false, false), true);
    assert.equal(shouldLogRequest('errors', 0, true, false), true);
    assert.equal(shouldLogRequest('errors', 404, false, false), false);
    assert.equal(shouldLogRequest('errors', 200, false, false), false);
  });

  it('logs errors and chooses one request in 100 when the mode is sampled', () => {
    assert.equal(shouldLogRequest('sampled', 500, false, false), true);
    assert.equal(chosenForLog('sampled', 0.005), true);
    assert.equal(chosenForLog('sampled', 0.011), false);
    const draws = Array.from({ length: 10_000 }, (_, i) => i / 10_000);
    assert.equal(draws.filter((draw) => chosenForLog('sampled', draw)).length, 100);
  });
});

describe('route classes', () => {
  it('names the front routes by what answers them when given their paths', () => {
    const cases: Record<string, string> = {
      'GET /healthz': 'health',
      'GET /readyz': 'health',
      'GET /metrics': 'metrics',
      'GET /api/v1/search': 'search',
      'GET /api/search/autocomplete': 'autocomplete',
      'GET /api/song/1/affiliate/itunes': 'song',
      'GET /api/other': 'api_other',
      'POST /__purge__': 'purge',
      'GET /__cache__/stats': 'cache_stats',
      'GET /_render/data/b/en-US/index.json': 'data',
      'GET /_render/static/b/client.js': 'static',
      'GET /_render/image/0123456789abcdef0123456789abcdef-480.webp': 'image',
      'POST /plog/a/comments': 'comment',
      'GET /plog/a/comments': 'page',
      'GET /plog/a': 'page',
    };
    for (const [request, expected] of Object.entries(cases)) {
      const [method, path] = request.split(' ') as [string, string];
      assert.equal(frontRouteClass(path, method), expected, request);
    }
  });

  it('names the origin routes by reader, admin and comment when given their paths', () => {
    assert.equal(originRouteClass('/api/v1/plog/', 'GET'), 'content');
    assert.equal(originRouteClass('/api/v1/plog/a', 'PUT'), 'admin');
    assert.equal(originRouteClass('/api/v1/comments/pending', 'GET'), 'admin');
    assert.equal(originRouteClass('/api/v1/plog/a/comments', 'POST'), 'comment');
    assert.equal(originRouteClass('/api/v1/images', 'POST'), 'admin');
    assert.equal(originRouteClass('/api/v1/images/0123456789abcdef0123456789abcdef-480.webp', 'GET'), 'image');
    assert.equal(originRouteClass('/_render/image/x', 'HEAD'), 'image');
    assert.equal(originRouteClass('/nowhere', 'GET'), 'other');
  });

  it('names the rate limit of a 429 only for the routes that have one', () => {
    assert.equal(rateLimitOf('search', 429), 'search');
    assert.equal(rateLimitOf('comment', 429), 'comment');
    assert.equal(rateLimitOf('search', 200), undefined);
    assert.equal(rateLimitOf('page', 429), undefined);
  });
});

describe('readinessAnswer', () => {
  const check = (name: string, ok: boolean, critical: boolean): CheckResult => ({ name, ok, critical, durationMs: 1 });

  it('answers 200 ready when only reporting checks fail', () => {
    const answer = readinessAnswer('ready', [check('database', true, true), check('search', false, false)]);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'ready');
    assert.deepEqual(Object.keys(answer.body.checks), ['database', 'search']);
  });

  it('answers 503 unready when a critical check fails', () => {
    const answer = readinessAnswer('ready', [check('database', false, true)]);
    assert.deepEqual([answer.status, answer.body.status], [503, 'unready']);
  });

  it('answers 503 while starting and while draining, whatever the checks', () => {
    assert.deepEqual([readinessAnswer('starting', []).status, readinessAnswer('starting', []).body.status], [503, 'starting']);
    assert.deepEqual([readinessAnswer('draining', [check('database', true, true)]).status, readinessAnswer('draining', []).body.status], [503, 'draining']);
  });
});
