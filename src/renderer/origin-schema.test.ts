import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OriginError, type OriginClientOptions } from './origin-client.js';
import { loadPageData } from './pages/sources.js';
import { describeProblem, fieldPath, listAnswerSchema, postAnswerSchema } from './origin-schema.js';
import { LIST_ANSWER, POST_ANSWER } from './test-support/origin-answers.js';

const API = 'http://origin.test';

function problemOf(schema: typeof listAnswerSchema | typeof postAnswerSchema, body: unknown): string | undefined {
  const parsed = schema.safeParse(body, { reportInput: true });
  return parsed.success ? undefined : describeProblem(parsed.error);
}

/** An origin client whose origin answers every request with `body` (a JSON text) and `status`. */
function originAnswering(body: string, status = 200): OriginClientOptions {
  return {
    apiBase: API,
    fetch: (async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })) as typeof fetch,
    timeoutMs: 1000,
    maxAnswerBytes: 1024 * 1024,
    latestPosts: 10, siteName: 'sitestack plog',
  };
}

describe('origin answer schemas', () => {
  it('accepts the answers when they have the origin\'s shape', () => {
    assert.equal(problemOf(listAnswerSchema, LIST_ANSWER), undefined);
    assert.equal(problemOf(listAnswerSchema, { groups: [] }), undefined);
    assert.equal(problemOf(postAnswerSchema, POST_ANSWER), undefined);
  });

  it('names the field and the wrong kind when a month group has posts null', () => {
    assert.equal(problemOf(listAnswerSchema, { groups: [{ date: '2026.01', posts: null }] }), 'groups[0].posts: expected an array, got null');
  });

  it('names the field when a post title is an object', () => {
    assert.equal(problemOf(postAnswerSchema, { ...POST_ANSWER, post: { ...POST_ANSWER.post, title: { en: 'x' } } }), 'post.title: expected a string, got an object');
  });

  it('names the field when it is missing, an array element or the whole answer', () => {
    const { comments: _comments, ...withoutCount } = LIST_ANSWER.groups[0]!.posts[0]!;
    assert.equal(problemOf(listAnswerSchema, { groups: [{ date: '2026.01', posts: [withoutCount] }] }), 'groups[0].posts[0].comments: expected a number, got nothing');
    assert.equal(
      problemOf(postAnswerSchema, { ...POST_ANSWER, post: { ...POST_ANSWER.post, categories: ['a', 3] } }),
      'post.categories[1]: expected a string, got a number',
    );
    assert.equal(problemOf(listAnswerSchema, [LIST_ANSWER]), 'expected an object, got an array');
    assert.equal(problemOf(postAnswerSchema, null), 'expected an object, got null');
  });

  it('counts the other problems when there are several', () => {
    assert.equal(problemOf(postAnswerSchema, { post: null, comments: null }), 'post: expected an object, got null (and 1 more)');
  });

  it('keeps only the known fields when the answer has extra ones', () => {
    const parsed = postAnswerSchema.parse({ ...POST_ANSWER, extra: 1, post: { ...POST_ANSWER.post, reading_time: 4 } });
    assert.deepEqual(parsed, POST_ANSWER);
  });

  it('writes indexes in brackets when a path goes through arrays', () => {
    assert.equal(fieldPath(['groups', 0, 'posts', 12, 'title']), 'groups[0].posts[12].title');
    assert.equal(fieldPath([]), '');
  });
});

describe('loadPageData', () => {
  it('fails with a 502 OriginError naming the URL and the field when the list answer is malformed', async () => {
    const options = originAnswering('{"groups":[{"date":"2026.01","posts":null}]}');
    for (const kind of ['home', 'archive'] as const) {
      await assert.rejects(loadPageData({ kind }, options), (error: unknown) => {
        assert.ok(error instanceof OriginError);
        assert.equal(error.status, 502);
        assert.equal(error.message, `malformed answer from ${API}/api/v1/plog/: groups[0].posts: expected an array, got null`);
        return true;
      });
    }
  });

  it('fails with a 502 OriginError naming the URL and the field when a post title is an object', async () => {
    const options = originAnswering(JSON.stringify({ ...POST_ANSWER, post: { ...POST_ANSWER.post, title: {} } }));
    await assert.rejects(loadPageData({ kind: 'post', oid: 'first-post' }, options), {
      name: 'OriginError',
      message: `malformed answer from ${API}/api/v1/plog/first-post: post.title: expected a string, got an object`,
    });
  });

  it('answers undefined when the post is unknown, whatever the 404 body is', async () => {
    assert.equal(await loadPageData({ kind: 'post', oid: 'gone' }, originAnswering('{"error":null}', 404)), undefined);
  });

  it('gives the pages the validated answer when it is well formed', async () => {
    const page = await loadPageData({ kind: 'post', oid: 'first-post' }, originAnswering(JSON.stringify(POST_ANSWER)));
    assert.deepEqual(page, { kind: 'post', title: 'First post · sitestack plog', post: POST_ANSWER.post, comments: POST_ANSWER.comments });
  });
});
