import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionsFor, apiFields, editorAction, editorValues, problemOf, publicationTime } from './editor-form.js';
import { imagesNeedingAlt } from './preview-input.js';

describe("the editor's form", () => {
  it('shows the buttons that apply to the post state', () => {
    assert.deepEqual(actionsFor(undefined), ['save-draft', 'publish', 'schedule', 'preview']);
    assert.deepEqual(actionsFor('draft'), ['save-draft', 'publish', 'schedule', 'preview']);
    assert.deepEqual(actionsFor('scheduled'), ['save-draft', 'publish', 'schedule', 'preview']);
    assert.deepEqual(actionsFor('published'), ['publish', 'preview', 'unpublish']);
  });

  it('reads a posted form as typed, with line breaks as LF and missing fields empty', () => {
    const values = editorValues({ title: ' T ', body: 'a\r\nb\rc', format: 'latex', slug: ' s ', zone: '' });
    assert.deepEqual(values, { title: ' T ', slug: 's', body: 'a\nb\nc', format: 'markdown', categories: '', summary: '', publishAt: '', zone: 'UTC' });
    assert.equal(editorAction({ action: 'publish' }), 'publish');
    assert.equal(editorAction({ action: 'drop-table' }), undefined);
    assert.deepEqual(apiFields({ ...values, categories: ' Web, ,SQLite ' }, '2026-01-01T00:00:00.000Z').categories, ['Web', 'SQLite']);
  });

  it('puts each API message next to the control it is about, named as the editor sees it', () => {
    assert.deepEqual(problemOf('title must not be empty'), { field: 'title', message: 'Title must not be empty.' });
    assert.deepEqual(problemOf('body_html is rendered from body'), { field: 'body', message: 'Body is rendered from body.' });
    assert.deepEqual(problemOf('each category must be 1-40 letters'), { field: 'categories', message: 'Each category must be 1-40 letters.' });
    assert.deepEqual(problemOf('pub_date is not a real calendar date'), { field: 'publish_at', message: 'Publish at is not a real calendar date.' });
    assert.deepEqual(problemOf('oid must be 1-100 characters'), { field: 'slug', message: 'Slug must be 1-100 characters.' });
    assert.deepEqual(problemOf('something else entirely'), { field: 'form', message: 'Something else entirely.' });
  });

  it('takes an empty Publish at as now and refuses a zone it does not know', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const values = editorValues({});
    assert.equal(publicationTime(values, now), now.toISOString());
    assert.equal(publicationTime({ ...values, publishAt: '2026-06-01T09:30', zone: 'Asia/Tokyo' }, now), '2026-06-01T00:30:00.000Z');
    assert.equal(typeof publicationTime({ ...values, publishAt: '2026-06-01T09:30', zone: 'Nowhere/Land' }, now), 'object');
  });

  it('flags Markdown images without alt text or with the upload placeholder, and no image in code', () => {
    const body = '![](/a.png) ![ ](/b.png) ![a cat](/c.png) ![alt text](/d.png)\n\n```\n![](/in-code.png)\n```\n\n\\![](/escaped.png)';
    assert.deepEqual(imagesNeedingAlt('markdown', body), ['/a.png', '/b.png', '/d.png']);
    assert.deepEqual(imagesNeedingAlt('html', '<img src="/x.png">'), []);
  });
});
