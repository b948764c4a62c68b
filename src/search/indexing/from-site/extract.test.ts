import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stripHtml } from '../strip-html.js';
import { extractPage } from './extract.js';
import { parseSelector, type CompoundSelector } from './selector.js';

function selector(text: string): CompoundSelector[] {
  const parsed = parseSelector(text);
  assert.ok(parsed.ok);
  return parsed.alternatives;
}
const DEFAULT = selector('main, article');
const page = (head: string, body: string, htmlAttributes = '') => `<!doctype html><html${htmlAttributes}><head>${head}</head><body>${body}</body></html>`;
const texts = (html: string, chosen = DEFAULT) => extractPage(html, chosen).sections.map((section) => [section.id, section.title, stripHtml(section.content)]);

describe('extractPage', () => {
  it('reads the title, description, language and canonical URL of the head', () => {
    const html = page(
      '<title> Puffins &amp; terns\n</title><meta name="Description" content="Sea birds"><link rel="Canonical alternate" href="/birds/puffins"><meta name="robots" content="index">',
      '<main><p>Hi</p></main>',
      ' lang="en-GB"',
    );
    const extracted = extractPage(html, DEFAULT);
    assert.equal(extracted.title, 'Puffins & terns');
    assert.equal(extracted.description, 'Sea birds');
    assert.equal(extracted.lang, 'en-GB');
    assert.equal(extracted.canonical, '/birds/puffins');
    assert.equal(extracted.noindex, false);
  });

  it('falls back to og:title, then the first h1, when the page has no title', () => {
    assert.equal(extractPage(page('<meta property="og:title" content="Open graph">', '<h1>Heading</h1>'), DEFAULT).title, 'Open graph');
    assert.equal(extractPage(page('', '<h1>Heading <em>one</em></h1>'), DEFAULT).title, 'Heading one');
    assert.equal(extractPage(page('', '<p>no title anywhere</p>'), DEFAULT).title, '');
  });

  it('says noindex when the robots meta says noindex or none', () => {
    assert.equal(extractPage(page('<meta name="robots" content="NOINDEX, follow">', ''), DEFAULT).noindex, true);
    assert.equal(extractPage(page('<meta name="sitestack" content="none">', ''), DEFAULT).noindex, true);
    assert.equal(extractPage(page('<meta name="robots" content="noindexer">', ''), DEFAULT).noindex, false);
  });

  it('reads the main element when there is one, else the first article', () => {
    const html = page('<title>t</title>', '<nav>Menu</nav><article>Article text</article><main>Main text</main><footer>Foot</footer>');
    assert.deepEqual(texts(html), [['', '', 'Main text']]);
    assert.deepEqual(texts(page('', '<nav>Menu</nav><article>First</article><article>Second</article>')), [['', '', 'First']]);
    assert.equal(extractPage(html, DEFAULT).contentFrom, 'selector');
  });

  it('reads the body without its navigation, header and footer when nothing matches the selector', () => {
    const html = page('<title>t</title>', '<header>Logo</header><div role="navigation">Links</div><nav>Menu</nav><div>Body text</div><footer>Foot</footer>');
    const extracted = extractPage(html, DEFAULT);
    assert.equal(extracted.contentFrom, 'body');
    assert.deepEqual(extracted.sections.map((section) => stripHtml(section.content)), ['Body text']);
  });

  it('takes a configured selector of ids, classes and attributes', () => {
    const html = page('', '<div class="post body" id="x">Post</div><div role="main">Role</div>');
    assert.deepEqual(texts(html, selector('.post.body')), [['', '', 'Post']]);
    assert.deepEqual(texts(html, selector('[role=main]')), [['', '', 'Role']]);
    assert.deepEqual(texts(html, selector('section, div#x')), [['', '', 'Post']]);
  });

  it('splits sections at h2 and h3 headings, nested or not, with their anchors', () => {
    const html = page('', `<main><h1>Title</h1><p>Intro</p>
      <section><h2 id="setup">Setting up</h2><p>Install it</p></section>
      <div><h3><a name="deep"></a>Deeper</h3><ul><li>one</li><li>two</li></ul></div>
      <h2>Ünïcode heading</h2><p>Last</p><h2>Last</h2><h2>Last</h2></main>`);
    assert.deepEqual(texts(html), [
      ['', '', 'Title Intro'],
      ['setup', 'Setting up', 'Install it'],
      ['deep', 'Deeper', 'one two'],
      ['unicode_heading', 'Ünïcode heading', 'Last'],
      ['last', 'Last', ''],
      ['last_2', 'Last', ''],
    ]);
  });

  it('writes each section as standalone HTML, with no attribute of the page', () => {
    const { sections } = extractPage(page('', '<main><div class="a" onclick="x()"><p>One</p><h2>Two</h2><p>Three &lt;b&gt;</p></div></main>'), DEFAULT);
    assert.deepEqual(sections.map((section) => section.content), ['<div><p>One</p></div>', '<div><p>Three &lt;b&gt;</p></div>']);
  });

  it('leaves out data-search-ignore, hidden blocks, warning notes, scripts and styles', () => {
    const html = page('', `<main><p>Kept</p><aside data-search-ignore>Ignored</aside><div hidden>Hidden</div>
      <p style="display: none">None</p><div class="notecard warning">Warned</div><script>var x = "Script"</script>
      <style>.s{}</style><h2 data-search-ignore>Ignored heading</h2><p class="hidden">Classy</p><p>Also kept</p></main>`);
    assert.deepEqual(texts(html), [['', '', 'Kept Also kept']]);
  });

  it('never picks a hidden element as the content', () => {
    assert.deepEqual(texts(page('', '<main hidden>Hidden main</main><article>Shown</article>')), [['', '', 'Shown']]);
  });

  it('keeps text in CJK and other scripts as it is', () => {
    const html = page('<title>国际化路由</title>', '<main><h2>インストール</h2><p>国际化（i18n）路由と 한국어</p></main>', ' lang="zh-Hans"');
    const extracted = extractPage(html, DEFAULT);
    assert.equal(extracted.title, '国际化路由');
    assert.deepEqual(texts(html), [['インストール', 'インストール', '国际化（i18n）路由と 한국어']]);
  });

  it('reads broken HTML: unclosed elements end where the page does', () => {
    const extracted = extractPage('<html><title>Broken</title><body><main><p>One<p>Two<h2>Head</main><div>after', DEFAULT);
    assert.equal(extracted.title, 'Broken');
    assert.deepEqual(extracted.sections.map((section) => [section.title, stripHtml(section.content)]), [['', 'One Two'], ['Head', '']]);
    assert.doesNotThrow(() => extractPage('<<<>>><main <h2 <p>&#xffffff;&bogus;</', DEFAULT));
  });

  it('reads a page of a hundred thousand nested elements without running out of stack', () => {
    const depth = 100_000;
    const html = `<main>${'<div>'.repeat(depth)}<h2>Deep</h2>text${'</div>'.repeat(depth)}</main>`;
    const { sections } = extractPage(html, DEFAULT);
    assert.equal(sections.length, 1);
    assert.equal(stripHtml(sections[0]?.content ?? ''), 'text');
  });

  it('never throws, and gives sections whose text the reader can strip, for any markup', () => {
    const pieces = fc.constantFrom('<main>', '</main>', '<h2 id="a">', '</h2>', '<h3>', '<div hidden>', '</div>', '<p>', 'text', '国际', '&amp;', '<', '>', '"', '<script>', '</script>', '<!--', '-->', '<br/>', '<article>');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const extracted = extractPage(parts.join(''), DEFAULT);
        for (const section of extracted.sections) assert.equal(typeof stripHtml(section.content), 'string');
      }),
    );
  });
});
