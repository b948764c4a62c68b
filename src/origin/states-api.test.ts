import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { originAppForSuite } from './test-support/origin-app.js';

const TOKEN = 'states-api-token';
let clock = Date.parse('2026-12-01T12:00:00.000Z');
const origin = originAppForSuite({ adminToken: TOKEN, now: () => new Date(clock) });

/** The fields the tests read of an answer: a post's, or an error's. */
interface Answer {
  post: { state: string; publish_at: string | null; pub_date: string };
  error: string;
}

async function send(method: string, path: string, body?: unknown, options: { token?: boolean; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.token !== false) headers.authorization = `Bearer ${TOKEN}`;
  if (body !== undefined) headers['content-type'] = options.type ?? 'application/json';
  const response = await fetch(`${origin.base}${path}`, { method, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Answer };
}

const fields = { title: 'Heron', body: '# Wading\n\nSlowly.', format: 'markdown', summary: 'Birds', categories: ['Birds'], pub_date: '2026-11-01' };
const iso = (ms: number) => new Date(ms).toISOString();
const snapshot = () => JSON.stringify(['posts', 'purge_jobs', 'search_jobs'].map((table) => origin.db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));

/** What a reader gets of `oid` everywhere the API answers one: its page, the list and its category's list. */
async function readerSees(oid: string): Promise<{ page: number; listed: boolean; inCategory: boolean }> {
  const page = await send('GET', `/api/v1/plog/${oid}`, undefined, { token: false });
  const listed = (await send('GET', '/api/v1/plog/', undefined, { token: false })).text.includes(`"${oid}"`);
  const inCategory = (await send('GET', '/api/v1/plog/?category=Birds', undefined, { token: false })).text.includes(`"${oid}"`);
  return { page: page.status, listed, inCategory };
}

beforeEach(() => {
  clock = Date.parse('2026-12-01T12:00:00.000Z');
  origin.db.exec('DELETE FROM posts; DELETE FROM purge_jobs; DELETE FROM search_jobs');
});

describe('post states in the API', () => {
  it('keeps a draft from readers exactly as a post that does not exist, and gives it to the admin with its state', async () => {
    assert.equal((await send('PUT', '/api/v1/plog/heron', { ...fields, state: 'draft' })).status, 201);
    const missing = await send('GET', '/api/v1/plog/egret', undefined, { token: false });
    const draft = await send('GET', '/api/v1/plog/heron', undefined, { token: false });
    assert.equal(draft.status, 404);
    assert.equal(draft.text, missing.text.replace('egret', 'heron'));
    assert.deepEqual(await readerSees('heron'), { page: 404, listed: false, inCategory: false });
    const comment = await send('POST', '/api/v1/plog/heron/comments', { name: 'R', comment: 'Hi' }, { token: false });
    assert.equal(comment.status, 404);
    const admin = (await send('GET', '/api/v1/plog/heron')).json();
    assert.equal(admin.post.state, 'draft');
    assert.equal(admin.post.publish_at, null);
  });

  it('answers a reader a published post as before states, without its state', async () => {
    assert.equal((await send('PUT', '/api/v1/plog/heron', fields)).status, 201);
    const reader = (await send('GET', '/api/v1/plog/heron', undefined, { token: false })).json();
    assert.deepEqual(Object.keys(reader.post).sort(), ['body_html', 'categories', 'format', 'oid', 'pub_date', 'summary', 'title']);
    assert.equal((await send('GET', '/api/v1/plog/heron')).json().post.state, 'published', 'left out, the state is published');
  });

  it('schedules a post, dating it by its time, and shows it to readers from that time', async () => {
    const at = iso(clock + 20_000);
    const put = await send('PUT', '/api/v1/plog/heron', { ...fields, state: 'scheduled', publish_at: '2026-12-01T13:00:20+01:00' });
    assert.equal(put.status, 201);
    assert.deepEqual([put.json().post.state, put.json().post.publish_at, put.json().post.pub_date], ['scheduled', at, at]);
    assert.deepEqual(await readerSees('heron'), { page: 404, listed: false, inCategory: false });
    clock += 20_000;
    assert.deepEqual(await readerSees('heron'), { page: 200, listed: true, inCategory: true });
  });

  it('saves back what the admin GET answers, in either form, keeping the state', async () => {
    await send('PUT', '/api/v1/plog/heron', { ...fields, state: 'scheduled', publish_at: iso(clock + 60_000) });
    const got = (await send('GET', '/api/v1/plog/heron')).json();
    assert.equal((await send('PUT', '/api/v1/plog/heron', got)).status, 200);
    assert.equal((await send('PUT', '/api/v1/plog/heron', got.post)).json().post.state, 'scheduled');
    assert.equal((await send('GET', '/api/v1/plog/heron')).json().post.publish_at, iso(clock + 60_000));
  });

  it('unschedules, reschedules and publishes with a merge patch', async () => {
    await send('PUT', '/api/v1/plog/heron', { ...fields, state: 'scheduled', publish_at: iso(clock + 60_000) });
    const patch = (body: unknown) => send('PATCH', '/api/v1/plog/heron', body, { type: 'application/merge-patch+json' });
    assert.deepEqual((await patch({ state: 'draft' })).json().post.publish_at, null, 'a state change leaves the time behind');
    const rescheduled = (await patch({ post: { state: 'scheduled', publish_at: iso(clock + 5_000) } })).json().post;
    assert.deepEqual([rescheduled.state, rescheduled.publish_at], ['scheduled', iso(clock + 5_000)]);
    assert.equal((await patch({ publish_at: iso(clock + 9_000) })).json().post.publish_at, iso(clock + 9_000));
    const published = (await patch({ state: 'published', pub_date: '2026-11-30' })).json().post;
    assert.deepEqual([published.state, published.publish_at, published.pub_date], ['published', null, '2026-11-30T00:00:00.000Z']);
    assert.equal((await readerSees('heron')).page, 200);
    assert.equal((await patch({ state: 'draft' })).status, 200);
    assert.equal((await readerSees('heron')).page, 404);
  });

  it('refuses a bad state or time with a 400 naming the field, writing nothing', async () => {
    await send('PUT', '/api/v1/plog/heron', { ...fields, state: 'draft' });
    const before = snapshot();
    const bad: [Record<string, unknown>, string][] = [
      [{ state: 'Draft' }, 'state'],
      [{ state: 1 }, 'state'],
      [{ state: ['draft'] }, 'state'],
      [{ state: { draft: true } }, 'state'],
      [{ state: 'brouillon ✍️' }, 'state'],
      [{ state: 'scheduled' }, 'publish_at'],
      [{ state: 'scheduled', publish_at: null }, 'publish_at'],
      [{ state: 'scheduled', publish_at: '2026-12-24' }, 'publish_at'],
      [{ state: 'scheduled', publish_at: '2026-12-24T09:00' }, 'publish_at'],
      [{ state: 'scheduled', publish_at: '2026-02-30T09:00Z' }, 'publish_at'],
      [{ state: 'scheduled', publish_at: '10000-01-01T00:00Z' }, 'publish_at'],
      [{ state: 'scheduled', publish_at: '1969-12-31T23:59Z' }, 'publish_at'],
      [{ state: 'scheduled', publish_at: 1_800_000_000_000 }, 'publish_at'],
      [{ state: 'scheduled', publish_at: '２０２６-12-24T09:00Z' }, 'publish_at'],
      [{ state: 'scheduled', publish_at: `2026-12-24T09:00Z${'\u202e'}` }, 'publish_at'],
      [{ state: 'scheduled', publish_at: 'x'.repeat(100_000) }, 'publish_at'],
      [{ state: 'scheduled', publish_at: '2026-12-24T09:00Z', pub_date: 'yesterday' }, 'pub_date'],
      [{ state: 'published', publish_at: '2026-12-24T09:00Z' }, 'publish_at'],
      [{ state: 'draft', publish_at: '2026-12-24T09:00Z' }, 'publish_at'],
      [{ publish_at: '2026-12-24T09:00Z' }, 'publish_at'],
      [{ state: 'draft', pub_date: '2026-13-01' }, 'pub_date'],
    ];
    for (const [extra, field] of bad) {
      for (const method of ['PUT', 'PATCH'] as const) {
        const body = method === 'PUT' ? { ...fields, ...extra } : extra;
        const answer = await send(method, '/api/v1/plog/heron', body);
        assert.equal(answer.status, 400, `${method} ${JSON.stringify(extra).slice(0, 80)}`);
        assert.ok(String(answer.json().error).startsWith(field), `${answer.text.slice(0, 200)} names ${field}`);
      }
    }
    assert.equal(snapshot(), before);
  });

  it('dates a new draft now, keeps a draft\'s date, and publishes a time already past at once', async () => {
    const { pub_date: _date, ...undated } = fields;
    assert.equal((await send('PUT', '/api/v1/plog/heron', { ...undated, state: 'draft' })).json().post.pub_date, iso(clock));
    clock += 60_000;
    assert.equal((await send('PUT', '/api/v1/plog/heron', { ...undated, state: 'draft', title: 'Heron 2' })).json().post.pub_date, iso(clock - 60_000));
    const past = (await send('PUT', '/api/v1/plog/heron', { ...undated, state: 'scheduled', publish_at: '1970-01-01T00:00:00Z' })).json().post;
    assert.deepEqual([past.state, past.pub_date], ['published', '1970-01-01T00:00:00.000Z']);
    assert.equal((await send('PUT', '/api/v1/plog/heron', { ...undated, state: 'published' })).status, 400, 'a published post needs its date');
  });

  it('never answers a 500 to any state and time a client sends', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), async (state, publishAt) => {
        const answer = await send('PATCH', '/api/v1/plog/heron', { state, publish_at: publishAt });
        assert.ok([200, 400, 404].includes(answer.status), `${answer.status} ${answer.text.slice(0, 200)}`);
      }),
      { numRuns: 60 },
    );
  });
});
