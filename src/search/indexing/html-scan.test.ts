import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { scanHtml, type HtmlEvents } from './html-scan.js';
import { STRIP_PARSER_OPTIONS, htmlTextByParser, htmlTextByScan, stripHtml } from './strip-html.js';

type HtmlEvent = ['open', string, Record<string, string>] | ['close', string] | ['text', string];

/** Records the events of a reading, in order. */
function recorder(): HtmlEvents & { events: HtmlEvent[] } {
  const events: HtmlEvent[] = [];
  return {
    events,
    onopentag: (name, attributes) => events.push(['open', name, { ...attributes }]),
    onclosetag: (name) => events.push(['close', name]),
    ontext: (chunk) => events.push(['text', chunk]),
  };
}

/** The events of htmlparser2's Parser read as the stripping reads it (the reference). */
function parserEvents(html: string): HtmlEvent[] {
  const record = recorder();
  new Parser(record, STRIP_PARSER_OPTIONS).end(html);
  return record.events;
}

/** The events of the scan, or undefined when it leaves the fragment to htmlparser2. */
function scanEvents(html: string): HtmlEvent[] | undefined {
  const record = recorder();
  return scanHtml(html, record) ? record.events : undefined;
}

const TAG_NAMES = [
  'p', 'P', 'div', 'Div', 'li', 'ul', 'ol', 'td', 'tr', 'th', 'table', 'tbody', 'tfoot', 'thead', 'dd', 'dt', 'dl',
  'h2', 'span', 'b', 'code', 'pre', 'a', 'br', 'BR', 'img', 'hr', 'input', 'select', 'option', 'optgroup', 'button',
  'rt', 'rp', 'section', 'body', 'head', 'link', 'script', 'SCRIPT', 'style', 'Style', 'scriptx', 'styles', 'title',
  'textarea', 'xmp', 'svg', 'math', 'desc', 'template', 's', 't', 'x',
];
const ATTRIBUTE_NAMES = ['class', 'CLASS', 'hidden', 'style', 'href', 'data-x', 'x', '=x', 'a"b', "c'd", '__proto__'];
const ATTRIBUTE_VALUES = ['', 'hidden', 'notecard warning', 'display:none', 'a>b', 'x/y', '/', 'a&amp;b', ' spaced ', '"', "'", 'é'];
const SEPARATORS = [' ', '  ', '\n', '\t', '/', ' / ', '\f', '\r'];

const attribute = fc
  .tuple(fc.constantFrom(...SEPARATORS), fc.constantFrom(...ATTRIBUTE_NAMES), fc.constantFrom('none', '"', "'", 'bare', ' = "'), fc.constantFrom(...ATTRIBUTE_VALUES))
  .map(([separator, name, quoting, value]) => {
    if (quoting === 'none') return `${separator}${name}`;
    if (quoting === 'bare') return `${separator}${name}=${value.replace(/[\s>]/g, '')}`;
    if (quoting === ' = "') return `${separator}${name} = "${value.replaceAll('"', '')}"`;
    return `${separator}${name}=${quoting}${value.replaceAll(quoting, '')}${quoting}`;
  });
/** A few names, so that elements of one name nest in each other and close out of order often. */
const FEW_TAG_NAMES = ['div', 'b', 'li', 'ul', 'td', 'tr', 'p', 'span'];
const openTagOf = (names: string[]) =>
  fc
    .tuple(fc.constantFrom(...names), fc.array(attribute, { maxLength: 3 }), fc.constantFrom('>', ' >', '/>', ' />', '\n>'))
    .map(([name, attributes, end]) => `<${name}${attributes.join('')}${end}`);
const closeTagOf = (names: string[]) => fc.tuple(fc.constantFrom(...names), fc.constantFrom('>', ' >', ' x>', '\n>')).map(([name, end]) => `</${name}${end}`);
const openTag = openTagOf(TAG_NAMES);
const closeTag = closeTagOf(TAG_NAMES);
const text = fc.constantFrom('word', 'Wörd', ' ', '\n', '  ', 'x', '&amp;', '&lt;', '&nbsp;', '&#32;', '&amp', '\u000f', '\u001c', '\u00a0', '>', '"', "'", '=');
/** Text the scan leaves to htmlparser2 where it stands, or that ends a raw text early or late. */
const oddText = fc.constantFrom(
  'a < b', '<3', '</>', '</ p>', '<!-- c -->', '<!DOCTYPE html>', '<?xml x?>', '<![CDATA[x]]>', '</script', '</scriptx>', '</SCRIPT >',
  '</style\n>', '<</script>', '<\u000fscript>', '\u001c/script>',
);
/** A script or style, its raw text holding what could end it, or nearly. */
const rawBlock = fc
  .tuple(
    fc.constantFrom('script', 'SCRIPT', 'style', 'Style'),
    fc.array(fc.constantFrom('x', ' ', '<', '</', '<p>', '</p>', '</scrip', '</script', '</SCRIPT', '</Style', '</style', '</scriptx>', '<</', '\u001c/', '<\u000f', '>', '\n'), { maxLength: 8 }),
    fc.constantFrom('</script>', '</SCRIPT >', '</style>', '</STYLE\n>', '</script x="y">', ''),
  )
  .map(([name, raw, end]) => `<${name}>${raw.join('')}${end}`);
const fragment = fc
  .array(
    fc.oneof({ arbitrary: openTag, weight: 4 }, { arbitrary: closeTag, weight: 3 }, { arbitrary: text, weight: 6 }, { arbitrary: oddText, weight: 1 }, { arbitrary: rawBlock, weight: 1 }),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(''));
const nested = fc
  .array(fc.oneof({ arbitrary: openTagOf(FEW_TAG_NAMES), weight: 3 }, { arbitrary: closeTagOf(FEW_TAG_NAMES), weight: 3 }, { arbitrary: text, weight: 2 }), { maxLength: 20 })
  .map((pieces) => pieces.join(''));
/** Strings of the characters that matter to a tokenizer, in any order: what no grammar thinks of. */
const scramble = fc.string({ unit: fc.constantFrom('<', '>', '/', '"', "'", '=', ' ', '\n', 'a', 'p', 's', 'b', 'r', '&', '!', '-', 'c', 'i', 't'), maxLength: 40 });

describe('scanHtml', () => {
  it('gives the same events as htmlparser2 whenever it reads a fragment itself (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fragment, nested, scramble), (html) => {
        const scanned = scanEvents(html);
        if (scanned !== undefined) assert.deepEqual(scanned, parserEvents(html));
      }),
      { numRuns: 10_000 },
    );
  });

  it('reads most fragments of the grammar itself, so that the property above compares something', () => {
    const samples = fc.sample(fragment, { numRuns: 2000, seed: 20 });
    const scanned = samples.filter((html) => scanEvents(html) !== undefined).length;
    assert.ok(scanned > samples.length / 10, `only ${scanned} of ${samples.length} fragments scanned`);
  });

  it('reads a documentation page with scripts, styles, implied end tags and attributes of every quoting', () => {
    const html = `<h2 id="x">Title</h2><p>One <code>a()</code> &amp; <a href=/docs/x class='c'>link</a>
      <ul><li>one<li>two</ul><table><tr><td>a<td>b<tr><td>c</table><script type="module">if (a < b) x("</p>")</script>
      <style>p > a { color: red }</style><img src=x.png alt="a > b"><br/><div hidden>gone</div><p>last</P>`;
    const scanned = scanEvents(html);
    assert.ok(scanned !== undefined);
    assert.deepEqual(scanned, parserEvents(html));
  });

  it('leaves to htmlparser2 what it does not read when comments, stray `<`, raw or foreign elements or cut-off tags come', () => {
    for (const html of ['a<!-- c -->b', 'a < b', '<title>x</title>', '<textarea>x</textarea>', '<svg><path/></svg>', '<p class="x', '<script>never closed', '<script/>x</script>']) {
      assert.equal(scanEvents(html), undefined, html);
    }
  });
});

describe('stripHtml with the scan', () => {
  it('gives the text htmlparser2 alone gives, whether the scan reads the fragment or not (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fragment, nested, scramble), (html) => {
        const reference = htmlTextByParser(html).replace(/\s{2,}|[^\S ]/g, ' ').trim();
        assert.equal(stripHtml(html), reference);
        const scanned = htmlTextByScan(html);
        if (scanned !== undefined) assert.equal(scanned, htmlTextByParser(html));
      }),
      { numRuns: 3000 },
    );
  });
});
