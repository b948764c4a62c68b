import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { matchesCompound, parseSelector } from './selector.js';

describe('parseSelector', () => {
  it('reads tags, ids, classes and attributes, alternatives in order', () => {
    const parsed = parseSelector(' MAIN , div#content.post.wide, [role=main], *[data-x="a b"], [hidden]');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.alternatives, [
      { tag: 'main', classes: [], attributes: [] },
      { tag: 'div', id: 'content', classes: ['post', 'wide'], attributes: [] },
      { classes: [], attributes: [{ name: 'role', value: 'main' }] },
      { classes: [], attributes: [{ name: 'data-x', value: 'a b' }] },
      { classes: [], attributes: [{ name: 'hidden' }] },
    ]);
  });

  it('refuses combinators, empty alternatives and overlong text with the reason', () => {
    for (const [text, problem] of [
      ['main article', /cannot read ' article'/],
      ['main > p', /no combinators/],
      ['main,', /empty selector/],
      ['', /empty selector/],
      ['a'.repeat(501), /longer than 500/],
      ['div:has(p)', /cannot read ':has\(p\)'/],
    ] as const) {
      const parsed = parseSelector(text);
      assert.ok(!parsed.ok, text);
      assert.match(parsed.problem, problem);
    }
  });

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (text) => void parseSelector(text)));
  });
});

describe('matchesCompound', () => {
  it('matches when every part holds', () => {
    const parsed = parseSelector('div#a.b[role=main]');
    assert.ok(parsed.ok);
    const [selector] = parsed.alternatives;
    assert.ok(selector);
    assert.equal(matchesCompound(selector, 'div', { id: 'a', class: 'x b', role: 'main' }), true);
    assert.equal(matchesCompound(selector, 'div', { id: 'a', class: 'bb', role: 'main' }), false);
    assert.equal(matchesCompound(selector, 'p', { id: 'a', class: 'b', role: 'main' }), false);
    assert.equal(matchesCompound(selector, 'div', { id: 'a', class: 'b' }), false);
  });
});
