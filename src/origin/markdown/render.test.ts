import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoPosts } from '../seed.js';
import { headingSlug, HIGHLIGHT_MAX_LENGTH } from './render.js';
import { renderPostBody } from './index.js';

const md = (source: string) => renderPostBody('markdown', source);

describe('renderPostBody of Markdown', () => {
  it('renders GitHub tables with their column alignment', () => {
    assert.equal(
      md('| Name | Size |\n|:-----|-----:|\n| a | 1 |'),
      '<table>\n<thead>\n<tr>\n<th style="text-align:left">Name</th>\n<th style="text-align:right">Size</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td style="text-align:left">a</td>\n<td style="text-align:right">1</td>\n</tr>\n</tbody>\n</table>\n',
    );
  });

  it('renders task lists as disabled checkboxes and strikethrough as <s>', () => {
    assert.equal(
      md('- [ ] to do\n- [x] ~~done~~'),
      '<ul class="contains-task-list">\n' +
        '<li class="task-list-item"><input type="checkbox" disabled class="task-list-item-checkbox" /> to do</li>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled checked class="task-list-item-checkbox" /> <s>done</s></li>\n</ul>\n',
    );
  });

  it('highlights fenced code in a language highlight.js knows, with classes only, and escapes any other', () => {
    assert.equal(
      md('```js\nconst a = "<b>";\n```'),
      '<pre><code class="language-js"><span class="hljs-keyword">const</span> a = <span class="hljs-string">"&lt;b&gt;"</span>;\n</code></pre>\n',
    );
    assert.equal(md('```nosuchlanguage\n<b>&\n```'), '<pre><code class="language-nosuchlanguage">&lt;b&gt;&amp;\n</code></pre>\n');
    assert.equal(md('```\nplain\n```'), '<pre><code>plain\n</code></pre>\n');
    const long = `\`\`\`js\n${'let a = 1;\n'.repeat(HIGHLIGHT_MAX_LENGTH / 10)}\`\`\``;
    assert.doesNotMatch(md(long), /hljs-/);
  });

  it('gives headings unique ids of their words in any script, as the content build\'s sections read them', () => {
    assert.equal(
      md('## Setup\n\n## Setup\n\n### Café au lait\n\n## 缓存 策略\n\n## ???\n\n## Comments'),
      '<h2 id="setup">Setup</h2>\n<h2 id="setup-2">Setup</h2>\n<h3 id="café-au-lait">Café au lait</h3>\n' +
        '<h2 id="缓存-策略">缓存 策略</h2>\n<h2 id="section">???</h2>\n<h2 id="section-comments">Comments</h2>\n',
    );
    assert.equal(md('## Setup'), '<h2 id="setup">Setup</h2>\n', 'each post counts its own slugs');
  });

  it('makes links, marking those to other sites, and bare URLs links', () => {
    assert.equal(
      md('[archive](/plog) and [example](https://example.org "Ex") and https://example.com/x'),
      '<p><a href="/plog">archive</a> and <a href="https://example.org" title="Ex" rel="noopener noreferrer">example</a> and ' +
        '<a href="https://example.com/x" rel="noopener noreferrer">https://example.com/x</a></p>\n',
    );
  });

  it('keeps an image with its alt text and leaves a link or image to a script URL as text', () => {
    assert.equal(md('![A cat](/img/cat.webp) [x](javascript:alert(1)) ![y](javascript:alert(1))'), '<p><img src="/img/cat.webp" alt="A cat" /> [x](javascript:alert(1)) ![y](javascript:alert(1))</p>\n');
  });

  it('lets safe raw HTML through and drops the rest', () => {
    assert.equal(md('<div class="notecard note">\n\n**Note**\n\n</div>\n\n<script>alert(1)</script>\n\n<b onclick="x()">b</b>'), '<div class="notecard note">\n<p><strong>Note</strong></p>\n</div>\n\n<p><b>b</b></p>\n');
  });
});

describe('renderPostBody of HTML', () => {
  it('leaves every demo post exactly as written', () => {
    for (const post of demoPosts()) assert.equal(renderPostBody('html', post.body_html), post.body_html, post.oid);
  });
});

describe('headingSlug', () => {
  it('keeps letters and digits of any script, lower-cased and NFC, and joins the rest with single hyphens', () => {
    const cases: [string, string][] = [
      ['Hello, World!', 'hello-world'],
      ['Cafe\u0301  Crème', 'café-crème'],
      ['  --a--b--  ', 'a-b'],
      ['Ünïcode 😀 2026', 'ünïcode-2026'],
      ['日本語のテキスト', '日本語のテキスト'],
      ['', 'section'],
      ['😀', 'section'],
    ];
    for (const [text, slug] of cases) assert.equal(headingSlug(text), slug, text);
    assert.ok(headingSlug('word '.repeat(100)).length <= 80);
    assert.doesNotMatch(headingSlug('word '.repeat(100)), /-$/);
  });
});
