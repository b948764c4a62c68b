import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { isDroppedElement, stripHtml, stripHtmlParts } from './strip-html.js';

/**
 * What stripHtml gives, written plainly as a model: a space for every block boundary, every text chunk as it is,
 * entities decoded by the parser, then whitespace collapsed.
 */
function plainStrip(html: string): string {
  let text = '';
  let depth = 0;
  let droppedAt = -1;
  const blocks = new Set(['p', 'div', 'li', 'ul', 'br', 'pre', 'td', 'tr', 'table', 'h2']);
  new Parser(
    {
      onopentag(name, attributes) {
        depth++;
        if (droppedAt !== -1) return;
        if (isDroppedElement(name, attributes)) droppedAt = depth;
        else if (blocks.has(name)) text += ' ';
      },
      onclosetag(name) {
        if (droppedAt === depth) droppedAt = -1;
        else if (droppedAt === -1 && blocks.has(name)) text += ' ';
        depth--;
      },
      ontext(chunk) {
        if (droppedAt === -1) text += chunk;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  ).end(html);
  return text.replace(/\s+/g, ' ').trim();
}

describe('stripHtml', () => {
  it('drops hidden blocks when marked by attribute, class or inline display:none', () => {
    const html = `<p>shown</p><div hidden><p>attr</p></div><section class="note hidden">cls</section>
      <span style="color: red; DISPLAY : none">inline</span><p style="display:block">kept</p>`;
    assert.equal(stripHtml(html), 'shown kept');
  });

  it('drops warning notes when they are .notecard.warning or div.warning', () => {
    const html = `<div class="notecard warning"><p>danger</p></div><div class="warning">old</div>
      <p class="warning">paragraph warnings stay</p><div class="notecard note">a note stays</div>`;
    assert.equal(stripHtml(html), 'paragraph warnings stay a note stays');
  });

  it('removes scripts, styles and templates with their content', () => {
    const html = `a<script>var x = "<p>no</p>";</script>b<style>p { color: red }</style>c<template><p>t</p></template>d`;
    assert.equal(stripHtml(html), 'abcd');
  });

  it('decodes named, decimal and hex entities', () => {
    assert.equal(stripHtml('<p>&lt;div&gt; &amp; caf&eacute; &#8212; &#x1F600; &nbsp;x</p>'), '<div> & café — 😀 x');
  });

  it('keeps the text of code, lists and tables with words separated by blocks', () => {
    const html = `<pre><code>const a = 1;</code></pre><ul><li>one</li><li>two</li></ul>
      <table><tr><th>Name</th><td>Value</td></tr></table><p>end<br>line</p>`;
    assert.equal(stripHtml(html), 'const a = 1; one two Name Value end line');
  });

  it('keeps inline elements joined to their words', () => {
    assert.equal(stripHtml('<p>un<b>believ</b>able <a href="#">link</a></p>'), 'unbelievable link');
  });

  it('keeps text after a hidden block when nested hidden elements close', () => {
    const html = '<div hidden><div><p>inner<img src=x></p></div><span class="hidden">x</span></div><p>after</p>';
    assert.equal(stripHtml(html), 'after');
  });

  it('survives malformed HTML when tags are unclosed or stray', () => {
    assert.equal(stripHtml('<div><p>open <b>bold</div></i></p> tail'), 'open bold tail');
    assert.equal(stripHtml(''), '');
    assert.equal(stripHtml('<<<>>>&&&'), '<<<>>>&&&');
  });

  it('gives the text of a plain model of it, with whitespace collapsed the same, for any mix of blocks, inline elements, lines and entities (property)', () => {
    const piece = fc.constantFrom('<p>', '</p>', '<div>', '</div>', '<li>', '</li>', '<ul>', '</ul>', '<br>', '<pre>', '</pre>', '<td>', '<b>', '</b>', '<code>', '</code>',
      '<div hidden>', '<script>', '</script>', '\n', ' ', '  ', '\t', '\n\n', 'word', 'Wörd', 'x', '&amp;', '&nbsp;', '&#32;', '&lt;', ' &gt; ', '\u00a0', '<!-- c -->');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const html = pieces.join('');
        assert.equal(stripHtml(html), plainStrip(html));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives several fragments as their texts, the non-empty ones joined by a space (property)', () => {
    const piece = fc.constantFrom('<p>', '</p>', '<li>', '<script>', '\n', ' ', 'word', 'x', '&amp;', '&nbsp;', '<b>', '</b>', '<div hidden>');
    const fragment = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 8 }), (fragments) => {
        const texts = fragments.map(stripHtml).filter((text) => text !== '');
        assert.equal(stripHtmlParts(fragments), texts.join(' '));
      }),
      { numRuns: 500 },
    );
  });

  it('drops everything after an unclosed script', () => {
    assert.equal(stripHtml('before<script>never closed <p>x</p>'), 'before');
  });
});

describe('stripHtml entities', () => {
  it('decodes entities in attributes that hide a block and in the text of a title or textarea', () => {
    assert.equal(stripHtml('<p style="display&colon;none">gone</p><div class="notecard&#32;warning">gone</div>kept'), 'kept');
    assert.equal(stripHtml('<textarea>&lt;b&gt; <b>x</b> &amp;</textarea>'), '<b> <b>x</b> &');
  });
});
