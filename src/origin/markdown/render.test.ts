import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoPosts } from '../seed.js';
import { headingSlug, HIGHLIGHT_MAX_LENGTH } from './render.js';
import { responsiveImage } from '../images/index.js';
import { imagesWithoutAlt, renderPostBody, type ImageResolver } from './index.js';

const HASH = '0123456789abcdef0123456789abcdef';
const images: ImageResolver = (src) =>
  src === `/_render/image/${HASH}-1600.jpg` ? responsiveImage({ hash: HASH, widths: [480, 960, 1600], formats: ['webp', 'jpg'], width: 1600, height: 1200 }) : undefined;

/** Golden cases: what a save makes of each construct an editor writes (lines of HTML joined, to read as a page). */
const GOLDEN: { does: string; source: string; html: string[] }[] = [
  {
    does: 'renders GitHub tables with their column alignment',
    source: '| Name | Size |\n|:-----|-----:|\n| a | 1 |',
    html: ['<table>', '<thead>', '<tr>', '<th style="text-align:left">Name</th>', '<th style="text-align:right">Size</th>', '</tr>', '</thead>',
      '<tbody>', '<tr>', '<td style="text-align:left">a</td>', '<td style="text-align:right">1</td>', '</tr>', '</tbody>', '</table>', ''],
  },
  {
    does: 'renders task lists as disabled checkboxes and strikethrough as <s>',
    source: '- [ ] to do\n- [x] ~~done~~',
    html: ['<ul class="contains-task-list">', '<li class="task-list-item"><input type="checkbox" disabled class="task-list-item-checkbox" /> to do</li>',
      '<li class="task-list-item"><input type="checkbox" disabled checked class="task-list-item-checkbox" /> <s>done</s></li>', '</ul>', ''],
  },
  {
    does: 'highlights fenced code in a language highlight.js knows, with classes only',
    source: '```js\nconst a = "<b>";\n```',
    html: ['<pre><code class="language-js"><span class="hljs-keyword">const</span> a = <span class="hljs-string">"&lt;b&gt;"</span>;', '</code></pre>', ''],
  },
  { does: 'escapes code in a language highlight.js does not know', source: '```nosuchlanguage\n<b>&\n```', html: ['<pre><code class="language-nosuchlanguage">&lt;b&gt;&amp;', '</code></pre>', ''] },
  {
    does: 'gives headings unique ids of their words in any script, as the content build\'s sections read them',
    source: '## Setup\n\n## Setup\n\n### Café au lait\n\n## 缓存 策略\n\n## ???\n\n## Comments',
    html: ['<h2 id="setup">Setup</h2>', '<h2 id="setup-2">Setup</h2>', '<h3 id="café-au-lait">Café au lait</h3>', '<h2 id="缓存-策略">缓存 策略</h2>',
      '<h2 id="section">???</h2>', '<h2 id="section-comments">Comments</h2>', ''],
  },
  { does: 'counts each post\'s slugs on their own', source: '## Setup', html: ['<h2 id="setup">Setup</h2>', ''] },
  {
    does: 'makes links, marking those to other sites, and bare URLs links',
    source: '[archive](/plog) and [example](https://example.org "Ex") and https://example.com/x',
    html: ['<p><a href="/plog">archive</a> and <a href="https://example.org" title="Ex" rel="noopener noreferrer">example</a> and <a href="https://example.com/x" rel="noopener noreferrer">https://example.com/x</a></p>', ''],
  },
  {
    does: 'keeps an image with its alt text and leaves a link or image to a script URL as text',
    source: '![A cat](/img/cat.webp) [x](javascript:alert(1)) ![y](javascript:alert(1))',
    html: ['<p><img src="/img/cat.webp" alt="A cat" /> [x](javascript:alert(1)) ![y](javascript:alert(1))</p>', ''],
  },
  {
    does: 'lets safe raw HTML through and drops the rest',
    source: '<div class="notecard note">\n\n**Note**\n\n</div>\n\n<script>alert(1)</script>\n\n<b onclick="x()">b</b>',
    html: ['<div class="notecard note">', '<p><strong>Note</strong></p>', '</div>', '', '<p><b>b</b></p>', ''],
  },
];

describe('renderPostBody of Markdown', () => {
  for (const { does, source, html } of GOLDEN) {
    it(does, () => assert.equal(renderPostBody('markdown', source), html.join('\n')));
  }

  it('leaves a code block too long to highlight plain', () => {
    const long = `\`\`\`js\n${'let a = 1;\n'.repeat(HIGHLIGHT_MAX_LENGTH / 10)}\`\`\``;
    assert.doesNotMatch(renderPostBody('markdown', long), /hljs-/);
    assert.equal(renderPostBody('markdown', '```\nplain\n```'), '<pre><code>plain\n</code></pre>\n');
  });
});

describe('renderPostBody of HTML', () => {
  it('leaves every demo post exactly as written', () => {
    for (const post of demoPosts()) assert.equal(renderPostBody('html', post.body_html), post.body_html, post.oid);
  });
});

describe('headingSlug', () => {
  it('keeps letters and digits of any script, lower-cased and NFC, and joins the rest with single hyphens', () => {
    const slugs = new Map([
      ['Hello, World!', 'hello-world'], ['Cafe\u0301  Crème', 'café-crème'], ['  --a--b--  ', 'a-b'], ['Ünïcode 😀 2026', 'ünïcode-2026'],
      ['日本語のテキスト', '日本語のテキスト'], ['', 'section'], ['😀', 'section'],
    ]);
    for (const [text, slug] of slugs) assert.equal(headingSlug(text), slug, text);
    assert.ok(headingSlug('word '.repeat(100)).length <= 80);
    assert.doesNotMatch(headingSlug('word '.repeat(100)), /-$/);
  });
});

describe('renderPostBody of images', () => {
  it('renders an uploaded image as a picture with WebP and JPEG srcsets, sizes, intrinsic size, lazy loading and its alt text', () => {
    const src = `/_render/image/${HASH}`;
    const srcset = (format: string) => [480, 960, 1600].map((width) => `${src}-${width}.${format} ${width}w`).join(', ');
    const sizes = '(max-width: 46rem) calc(100vw - 2rem), 44rem';
    assert.equal(
      renderPostBody('markdown', `![A cat & "friend"](${src}-1600.jpg "On the <mat>")`, images),
      `<p><picture><source type="image/webp" srcset="${srcset('webp')}" sizes="${sizes}" />` +
        `<img src="${src}-1600.jpg" srcset="${srcset('jpg')}" sizes="${sizes}" width="1600" height="1200" alt="A cat &amp; &quot;friend&quot;" title="On the &lt;mat&gt;" loading="lazy" decoding="async" /></picture></p>\n`,
    );
  });

  it('leaves an image that is not one of ours plain, and every image plain without a resolver', () => {
    assert.equal(renderPostBody('markdown', '![Logo](https://example.org/logo.png)', images), '<p><img src="https://example.org/logo.png" alt="Logo" /></p>\n');
    assert.equal(renderPostBody('markdown', `![x](/_render/image/${'f'.repeat(32)}-1600.jpg)`, images), `<p><img src="/_render/image/${'f'.repeat(32)}-1600.jpg" alt="x" /></p>\n`);
    assert.equal(renderPostBody('markdown', `![x](/_render/image/${HASH}-1600.jpg)`), `<p><img src="/_render/image/${HASH}-1600.jpg" alt="x" /></p>\n`);
  });
});

describe('imagesWithoutAlt', () => {
  it('lists the src of each Markdown image whose alt text is empty or blank, once, in order', () => {
    const source = ['![](/a.png) ![ ](/b.png) ![ok](/c.png)', '', '- ![](/d.png)', '', '| x |\n|---|\n| ![](/e.png) |', '', '![](/a.png) [![](/f.png)](/link)', '', '```\n![](/code.png)\n```', '<img src="/html.png">'].join('\n');
    assert.deepEqual(imagesWithoutAlt(source), ['/a.png', '/b.png', '/d.png', '/e.png', '/f.png']);
    assert.deepEqual(imagesWithoutAlt('![**bold** alt](/g.png) and ![`code`](/h.png)'), []);
    assert.deepEqual(imagesWithoutAlt(''), []);
  });
});
