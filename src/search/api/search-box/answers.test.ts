import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { completionsOf, resultsOf, safeHref } from './answers.js';

const BASE = 'https://site.example/docs/page';

describe('search box answers', () => {
  it('resolves result URLs against the page and keeps http(s) links only', () => {
    assert.equal(safeHref('/docs/a', BASE), 'https://site.example/docs/a');
    assert.equal(safeHref('https://other.example/x', BASE), 'https://other.example/x');
    for (const hostile of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'data:text/html,x', 'vbscript:x', 7, null, `/${'a'.repeat(3000)}`]) {
      assert.equal(safeHref(hostile, BASE), undefined, String(hostile));
    }
  });

  it('keeps the completions with a title and a safe link', () => {
    const body = { matches: [{ title: 'A', url: '/a' }, { title: '', url: '/b' }, { title: 'C', url: 'javascript:x' }, 'x', null, { title: 'D', url: '/d', extra: 1 }] };
    assert.deepEqual(completionsOf(body, BASE), [{ title: 'A', href: 'https://site.example/a' }, { title: 'D', href: 'https://site.example/d' }]);
  });

  it('reads a search answer, and nothing from what is not one', () => {
    const body = {
      documents: [{ url: '/a', title: 'A', summary: 'S', highlight: { title: ['<mark>A</mark>'], body: ['x', 'y', 'z', 'w', 5] } }, { url: 'javascript:x', title: 'B' }],
      metadata: { total: { value: 12, relation: 'gte' }, corrected: 'fixed' },
      suggestions: [{ text: 'one' }, { text: 2 }, null],
    };
    assert.deepEqual(resultsOf(body, BASE), {
      items: [{ title: 'A', href: 'https://site.example/a', summary: 'S', titleFragments: ['<mark>A</mark>'], bodyFragments: ['x', 'y', 'z'] }],
      total: 12, more: true, corrected: 'fixed', suggestions: ['one'],
    });
    for (const broken of [null, [], 'x', { documents: [] }, { documents: {}, metadata: { total: { value: 1 } } }, { documents: [], metadata: { total: { value: -1 } } }]) {
      assert.equal(resultsOf(broken, BASE), undefined);
    }
  });

  it('never throws on any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      completionsOf(value, BASE);
      resultsOf(value, BASE);
      completionsOf({ matches: [value] }, BASE);
      resultsOf({ documents: [value], metadata: { total: { value: 1 } } }, BASE);
    }));
  });
});
