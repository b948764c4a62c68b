import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { originAppForSuite } from '../test-support/origin-app.js';

const TOKEN = 'moderation-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };

describe('the moderation API', () => {
  let clock = Date.parse('2026-11-27T12:00:00Z');
  const origin = originAppForSuite({
    adminToken: TOKEN,
    commentRateLimit: { max: 10_000, windowMs: 60_000 },
    moderation: { addressRetentionMs: 3_600_000 },
    now: () => new Date(clock),
  });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
    fetch(`${origin.base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const post = async (oid: string, categories: string[] = []) => {
    const body = { title: `Post ${oid}`, body: '<p>x</p>', summary: '', pub_date: '2026-01-01T00:00:00.000Z', categories };
    assert.equal((await call('PUT', `/api/v1/plog/${oid}`, body)).status, 201);
  };
  const comment = async (oid: string, text: string, name = 'Reader') => {
    const response = await call('POST', `/api/v1/plog/${oid}/comments`, { name, comment: text }, { 'content-type': 'application/json' });
    assert.equal(response.status, 201);
    return ((await response.json()) as { id: number }).id;
  };
  const purgeJobs = () => origin.db.prepare(`SELECT pathnames FROM purge_jobs ORDER BY id`).all() as { pathnames: string }[];
  const addRule = async (rule: Record<string, unknown>) => {
    const response = await call('POST', '/api/v1/moderation/rules', rule);
    assert.equal(response.status, 201, await response.clone().text());
    return (await response.json()) as { id: number; pattern: string };
  };

  it('approves many comments in one transaction with one purge per post when asked to', async () => {
    await post('alpha', ['news']);
    await post('beta');
    const ids = [await comment('alpha', 'one'), await comment('alpha', 'two'), await comment('beta', 'three')];
    const before = purgeJobs().length;
    const response = await call('POST', '/api/v1/comments/batch', { action: 'approve', ids: [...ids, ids[0], 999_999] });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { action: 'approve', done: ids, missing: [999_999] });
    const jobs = purgeJobs().slice(before);
    assert.equal(jobs.length, 2);
    assert.ok(jobs.some((job) => JSON.parse(job.pathnames).includes('/plog/alpha')));
    const page = (await (await call('GET', '/api/v1/plog/alpha')).json()) as { comments: { count: number } };
    assert.equal(page.comments.count, 2);
    // Approving them again changes no page: no purge.
    await call('POST', '/api/v1/comments/batch', { action: 'approve', ids });
    assert.equal(purgeJobs().length, before + 2);
  });

  it('deletes many comments purging only the posts whose approved comments went when asked to', async () => {
    const pending = await comment('beta', 'pending one');
    const before = purgeJobs().length;
    const approved = (origin.db.prepare(`SELECT id FROM comments WHERE oid = 'alpha' AND approved = 1`).pluck().all() as number[])[0]!;
    const response = await call('POST', '/api/v1/comments/batch', { action: 'delete', ids: [pending, approved] });
    assert.deepEqual(await response.json(), { action: 'delete', done: [pending, approved], missing: [] });
    const jobs = purgeJobs().slice(before);
    assert.equal(jobs.length, 1);
    assert.ok(JSON.parse(jobs[0]!.pathnames).includes('/plog/alpha'));
  });

  it('refuses a batch with a clear 400 and changes nothing when its ids are hostile', async () => {
    const id = await comment('beta', 'stays pending');
    const hostile: unknown[] = [
      'not json',
      [],
      { action: 'approve' },
      { action: 'approve', ids: [] },
      { action: 'approve', ids: 'all' },
      { action: 'approve', ids: [id, '1'] },
      { action: 'approve', ids: [id, -1] },
      { action: 'approve', ids: [id, 1.5] },
      { action: 'approve', ids: [id, 2 ** 60] },
      { action: 'approve', ids: [id, null] },
      { action: 'approve', ids: Array.from({ length: 501 }, (_, i) => i + 1) },
      { action: 'approve; DROP TABLE comments', ids: [id] },
      { action: 'approve', ids: [id], extra: true },
    ];
    for (const body of hostile) {
      const response = await call('POST', '/api/v1/comments/batch', body);
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 80));
      const { code } = (await response.json()) as { code: string };
      if (body !== 'not json') assert.equal(code, 'INVALID_INPUT');
    }
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 2 }).filter((ids) => !JSON.stringify(ids).includes(String(id))), async (ids) => {
        const response = await call('POST', '/api/v1/comments/batch', { action: 'delete', ids });
        return response.status === 200 || response.status === 400;
      }),
      { numRuns: 60 },
    );
    assert.equal(origin.db.prepare(`SELECT approved FROM comments WHERE id = ?`).pluck().get(id), 0);
    assert.equal((await call('POST', '/api/v1/comments/batch', { action: 'approve', ids: [id] }, {})).status, 401);
    assert.equal((await call('POST', '/api/v1/comments/batch', { action: 'approve', ids: [id] }, { ...auth, authorization: 'Bearer wrong' })).status, 403);
  });

  it('creates, reads, replaces and deletes rules when asked with the token', async () => {
    const rule = await addRule({ kind: 'word', pattern: '  ＣＡＳＩＮＯ  ', action: 'hold', note: 'gambling spam' });
    assert.equal(rule.pattern, 'casino');
    assert.equal((await call('POST', '/api/v1/moderation/rules', { kind: 'word', pattern: 'Casino', action: 'drop' })).status, 409);
    const replaced = await call('PUT', `/api/v1/moderation/rules/${rule.id}`, { kind: 'word', pattern: 'casino', action: 'drop', note: '' });
    assert.equal(((await replaced.json()) as { action: string }).action, 'drop');
    const list = (await (await call('GET', '/api/v1/moderation/rules')).json()) as { items: { id: number }[] };
    assert.deepEqual(list.items.map((item) => item.id), [rule.id]);
    assert.equal((await call('GET', `/api/v1/moderation/rules/${rule.id}`)).status, 200);
    assert.equal((await call('DELETE', `/api/v1/moderation/rules/${rule.id}`)).status, 204);
    assert.equal((await call('DELETE', `/api/v1/moderation/rules/${rule.id}`)).status, 404);
    for (const bad of ['0', '-1', 'abc', '1e3', '９', '99999999999999999999']) {
      assert.equal((await call('GET', `/api/v1/moderation/rules/${encodeURIComponent(bad)}`)).status, 400, bad);
    }
    assert.equal((await call('PUT', '/api/v1/moderation/rules/12345', { kind: 'word', pattern: 'x', action: 'hold' })).status, 404);
    assert.equal((await call('GET', '/api/v1/moderation/rules', undefined, {})).status, 401);
  });

  it('refuses a rule past the list bound when it is full', async () => {
    const insert = origin.db.prepare(`INSERT INTO moderation_rules (kind, pattern, action, created_at) VALUES ('word', ?, 'hold', 0)`);
    origin.db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run(`filler ${i}`);
    })();
    const response = await call('POST', '/api/v1/moderation/rules', { kind: 'word', pattern: 'one more', action: 'hold' });
    assert.equal(response.status, 409);
    assert.match(((await response.json()) as { error: string }).error, /rule list is full \(500 rules\)/);
    origin.db.exec(`DELETE FROM moderation_rules`);
  });

  it('drops a comment with the same 201 answer and holds another flagged when rules match them', async () => {
    await addRule({ kind: 'word', pattern: 'viagra', action: 'drop' });
    await addRule({ kind: 'link', pattern: '*', action: 'hold' });
    const dropped = await comment('beta', 'cheap ＶＩＡＧＲＡ here');
    const held = await comment('beta', 'my site: https://example.test');
    const kept = await comment('beta', 'nice post');
    assert.ok(held > dropped && kept > held, 'a dropped comment takes an id like any other');
    assert.equal(origin.db.prepare(`SELECT count(*) FROM comments WHERE id = ?`).pluck().get(dropped), 0);
    const flags = origin.db.prepare(`SELECT comment_id, flag, address FROM comment_moderation WHERE comment_id IN (?, ?) ORDER BY comment_id`).all(held, kept);
    assert.deepEqual(flags, [
      { comment_id: held, flag: 'any link', address: '127.0.0.1' },
      { comment_id: kept, flag: null, address: '127.0.0.1' },
    ]);
    const queue = (await (await call('GET', '/api/v1/moderation/queue?flagged=1&limit=10')).json()) as { items: { id: number; flag: string; title: string }[]; next: null; counts: { flagged: number } };
    assert.deepEqual(queue.items.map(({ id, flag, title }) => ({ id, flag, title })), [{ id: held, flag: 'any link', title: 'Post beta' }]);
    assert.equal(queue.counts.flagged, 1);
    for (const bad of ['flagged=2', 'cursor=zzz', 'limit=0', 'limit=501', 'x=1', 'flagged=1&flagged=0']) {
      assert.equal((await call('GET', `/api/v1/moderation/queue?${bad}`)).status, 400, bad);
    }
    assert.equal((await call('GET', '/api/v1/moderation/queue', undefined, {})).status, 401);
    // A comment to no post is refused as before, whatever the rules say.
    const missing = await call('POST', '/api/v1/plog/nope/comments', { name: 'x', comment: 'viagra' }, { 'content-type': 'application/json' });
    assert.equal(missing.status, 404);
  });

  it('forgets a pending comment’s address after the retention time and when it is approved', async () => {
    const id = await comment('beta', 'address kept for a while');
    const address = () => origin.db.prepare(`SELECT address FROM comment_moderation WHERE comment_id = ?`).pluck().get(id);
    assert.equal(address(), '127.0.0.1');
    clock += 3_600_001;
    await comment('beta', 'a later comment prunes old addresses');
    assert.equal(address(), null);
    await call('POST', `/api/v1/comments/${id}/approve`);
    assert.equal(origin.db.prepare(`SELECT count(*) FROM comment_moderation WHERE comment_id = ?`).pluck().get(id), 0);
  });
});
