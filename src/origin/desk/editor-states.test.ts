import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { originAppForSuite } from '../test-support/origin-app.js';
import { loggedInEditor, TEST_SCRYPT, type DeskClient } from './test-support/desk-client.js';

const PASSWORD = 'a long enough pass phrase';
const FORM = { title: 'Words to come', body: '# Soon\n\nText.', format: 'markdown', categories: 'Web', summary: '', zone: 'UTC' };

describe("the editor's buttons", () => {
  const origin = originAppForSuite({ desk: { scrypt: TEST_SCRYPT }, adminToken: 'token' });
  let client: Promise<DeskClient> | undefined;
  const editor = (): Promise<DeskClient> => (client ??= loggedInEditor(origin, 'alice', PASSWORD));
  const save = async (path: string, form: Record<string, string>) => (await editor()).post(path, form);
  const row = (oid: string) => origin.db.prepare('SELECT state, publish_at, pub_date FROM posts WHERE oid = ?').get(oid) as { state: string; publish_at: string | null; pub_date: string } | undefined;
  const readerStatus = async (oid: string) => (await fetch(`${origin.base}/api/v1/plog/${oid}`, { redirect: 'manual' })).status;

  it('keeps a post back with Save draft: readers get the 404 of a post that does not exist', async () => {
    const response = await save('/admin/posts/new', { ...FORM, slug: 'kept-back', publish_at: '', action: 'save-draft' });
    assert.equal(response.status, 303);
    assert.equal(row('kept-back')?.state, 'draft');
    assert.equal(await readerStatus('kept-back'), 404);
    const list = await (await (await editor()).request('/admin/')).text();
    assert.match(list, /kept-back[\s\S]*Draft/);
  });

  it('schedules a post for its Publish at time, and Publish shows it at once', async () => {
    assert.equal((await save('/admin/posts/new', { ...FORM, slug: 'next-year', publish_at: '2099-01-02T03:04', action: 'schedule' })).status, 303);
    assert.deepEqual(row('next-year'), { state: 'scheduled', publish_at: '2099-01-02T03:04:00.000Z', pub_date: '2099-01-02T03:04:00.000Z' });
    assert.equal(await readerStatus('next-year'), 404);
    assert.equal((await save('/admin/posts/next-year', { ...FORM, slug: 'next-year', publish_at: '2020-05-06T07:08', action: 'publish' })).status, 303);
    assert.equal(row('next-year')?.state, 'published');
    assert.equal(await readerStatus('next-year'), 200);
  });

  it('hides a published post again with Unpublish', async () => {
    assert.equal((await save('/admin/posts/next-year', { ...FORM, slug: 'next-year', publish_at: '2020-05-06T07:08', action: 'unpublish' })).status, 303);
    assert.equal(row('next-year')?.state, 'draft');
    assert.equal(await readerStatus('next-year'), 404);
  });

  it('renames a post whose slug changed, its old address answering 301 once readers see it, and names the editor in its revision', async () => {
    assert.equal((await save('/admin/posts/new', { ...FORM, slug: 'old-name', publish_at: '2020-05-06T07:08', action: 'publish' })).status, 303);
    const response = await save('/admin/posts/old-name', { ...FORM, title: 'New name', slug: 'new-name', publish_at: '2020-05-06T07:08', action: 'publish' });
    assert.equal(response.headers.get('location'), '/admin/posts/new-name?saved=publish');
    assert.equal(row('old-name'), undefined);
    const moved = await fetch(`${origin.base}/api/v1/plog/old-name`, { redirect: 'manual' });
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.get('location'), '/api/v1/plog/new-name');
    const revisions = await fetch(`${origin.base}/api/v1/plog/new-name/revisions`, { headers: { authorization: 'Bearer token' } });
    const { items } = (await revisions.json()) as { items: { title: string; saved_by: string }[] };
    assert.deepEqual(items[0], { ...items[0], title: 'New name', saved_by: 'alice' });
  });

  it('tells no one the new slug of a renamed draft', async () => {
    assert.equal((await save('/admin/posts/new', { ...FORM, slug: 'secret-one', publish_at: '', action: 'save-draft' })).status, 303);
    assert.equal((await save('/admin/posts/secret-one', { ...FORM, slug: 'secret-two', publish_at: '', action: 'save-draft' })).status, 303);
    assert.equal(await readerStatus('secret-one'), 404);
    assert.equal(row('secret-two')?.state, 'draft');
  });

  it('refuses a rename onto another post, moving nothing and keeping what was typed', async () => {
    const response = await save('/admin/posts/kept-back', { ...FORM, slug: 'new-name', publish_at: '', action: 'save-draft' });
    assert.equal(response.status, 409);
    assert.match(await response.text(), /new-name/);
    assert.equal(row('kept-back')?.state, 'draft');
  });
});
