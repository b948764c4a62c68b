import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The docs name files by path; a move that forgets them leaves a newcomer looking for a file that is gone. This test
// holds README.md and docs/*.md, their links and their anchors to the tree as it is.

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Top-level folders whose paths the docs name; paths under any other folder (`dist/`, `DATA_DIR/`) are not checked. */
const CHECKED_ROOTS = ['src', 'bench', 'test', 'scripts', 'docs', 'deploy'] as const;

interface Mention {
  line: number;
  text: string;
}

// A path starts at one of the checked roots, not inside a longer path or URL (`/en-US/docs/Web`, `../src/x`), and runs
// until a character that cannot be part of a path in prose or Markdown.
const PATH_PATTERN = new RegExp(`(?<![\\w./@-])(?:${CHECKED_ROOTS.join('|')})/[^\\s\`'"()\\[\\]|,;:]*`, 'g');

// Only a path written with a file extension or a trailing slash is taken for one: `docs/s` in "3,000 docs/s" and a
// site path such as `docs/Web/API` are prose.
const LOOKS_LIKE_PATH = /(?:\/|\.[A-Za-z][\w]*)$/;

/** The repository paths a Markdown text names (`src/x.ts`, `bench/suites/`), with their line numbers. */
function repositoryPaths(markdown: string): Mention[] {
  const mentions: Mention[] = [];
  markdown.split('\n').forEach((lineText, index) => {
    for (const match of lineText.matchAll(PATH_PATTERN)) {
      const path = match[0].replace(/#.*$/, '').replace(/[.…]+$/, '');
      if (LOOKS_LIKE_PATH.test(path)) mentions.push({ line: index + 1, text: path });
    }
  });
  return mentions;
}

// Inline links and images `[text](target "title")`, and reference definitions `[label]: target`.
const INLINE_LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_LINK = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;

interface Link {
  line: number;
  /** The linked file as written, relative to the page; empty for an anchor of the page itself. */
  file: string;
  anchor: string | undefined;
}

/** The relative links of a Markdown text, as file and anchor; links with a scheme (`https:`, `mailto:`) are left out. */
function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  markdown.split('\n').forEach((lineText, index) => {
    const targets = [...lineText.matchAll(INLINE_LINK)].map((match) => match[1] ?? '');
    const reference = REFERENCE_LINK.exec(lineText)?.[1];
    if (reference !== undefined) targets.push(reference);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      const file = decodeURIComponent((hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, ''));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      if (file !== '' || anchor !== undefined) links.push({ line: index + 1, file, anchor });
    }
  });
  return links;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped, each space a `-`. */
function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings (outside code fences), a repeated one numbered as GitHub numbers it. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

// `*` in a name and `<placeholder>` segments stand for any name, so `src/x/contract*.ts` and
// `bench/suites/<suite>.ts` are checked for at least one match.
function segmentPattern(segment: string): RegExp {
  const source = segment
    .split(/(\*|<[^>]+>)/)
    .map((part) => (part === '*' || /^<[^>]+>$/.test(part) ? '.*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Whether `path` (relative to `base`, `*` and `<name>` as wildcards) names a file or folder that exists. */
function pathExists(base: string, path: string): boolean {
  const segments = path.split('/').filter((segment) => segment !== '');
  let candidates = [base];
  for (const segment of segments) {
    if (!/[*<]/.test(segment)) {
      candidates = candidates.map((dir) => join(dir, segment)).filter((candidate) => existsSync(candidate));
      continue;
    }
    const pattern = segmentPattern(segment);
    candidates = candidates.flatMap((dir) =>
      isDirectory(dir) ? readdirSync(dir).filter((name) => pattern.test(name)).map((name) => join(dir, name)) : [],
    );
  }
  return candidates.length > 0 && (!path.endsWith('/') || candidates.some(isDirectory));
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name));
  return [join(ROOT, 'README.md'), ...docs];
}

describe('docs paths', () => {
  it('finds README.md and the docs/ pages when run from the repository', () => {
    assert.ok(markdownFiles().length > 2);
  });

  it('names only repository paths that exist when README.md or a docs/ page names one', () => {
    const missing = markdownFiles().flatMap((file) =>
      repositoryPaths(readFileSync(file, 'utf8'))
        .filter((mention) => !pathExists(ROOT, mention.text))
        .map((mention) => `${relative(ROOT, file)}:${mention.line} names ${mention.text}, which does not exist`),
    );
    assert.deepEqual(missing, []);
  });

  it('links only to files that exist when README.md or a docs/ page links relatively', () => {
    const missing = markdownFiles().flatMap((file) =>
      relativeLinks(readFileSync(file, 'utf8'))
        .filter((link) => link.file !== '' && !existsSync(resolve(dirname(file), link.file)))
        .map((link) => `${relative(ROOT, file)}:${link.line} links to ${link.file}, which does not exist`),
    );
    assert.deepEqual(missing, []);
  });

  it('links only to headings that exist when a link to a Markdown page names an anchor', () => {
    const missing = markdownFiles().flatMap((file) =>
      relativeLinks(readFileSync(file, 'utf8')).flatMap((link) => {
        const target = link.file === '' ? file : resolve(dirname(file), link.file);
        if (link.anchor === undefined || !target.endsWith('.md') || !existsSync(target)) return [];
        if (headingAnchors(readFileSync(target, 'utf8')).has(link.anchor)) return [];
        return [`${relative(ROOT, file)}:${link.line} links to ${link.file}#${link.anchor}, a heading that does not exist`];
      }),
    );
    assert.deepEqual(missing, []);
  });

  it('links every docs/ page from README.md when a page is added', () => {
    const readme = join(ROOT, 'README.md');
    const linked = new Set(relativeLinks(readFileSync(readme, 'utf8')).map((link) => resolve(ROOT, link.file)));
    const unlinked = markdownFiles()
      .filter((file) => file !== readme && !linked.has(file))
      .map((file) => relative(ROOT, file));
    assert.deepEqual(unlinked, []);
  });
});

describe('repositoryPaths', () => {
  const cases: { markdown: string; paths: string[]; when: string }[] = [
    { when: 'a file is named in backticks', markdown: 'see `src/search/index.ts` for it', paths: ['src/search/index.ts'] },
    { when: 'a folder is named with its trailing slash', markdown: 'the suites under bench/suites/.', paths: ['bench/suites/'] },
    { when: 'a link target names a docs page with an anchor', markdown: '[x](docs/edge.md#cache-behaviour)', paths: ['docs/edge.md'] },
    { when: 'a sentence ends right after the path', markdown: 'It lives in scripts/run-tests.mjs.', paths: ['scripts/run-tests.mjs'] },
    { when: 'a wildcard stands for several files', markdown: '`src/search/engines/contract*.ts`', paths: ['src/search/engines/contract*.ts'] },
    { when: 'the words are a unit of speed', markdown: '3,093 docs/s and 2,000 docs/s.', paths: [] },
    { when: 'the path is a site URL', markdown: '`/en-US/docs/Web/API` → `docs/Web/API`', paths: [] },
    { when: 'the path is relative to another folder', markdown: '`../src/x.ts` and `build/bench/run.js`', paths: [] },
    { when: 'the path is inside a URL', markdown: 'https://example.com/src/x.ts', paths: [] },
  ];
  for (const { when, markdown, paths } of cases) {
    it(`gives ${JSON.stringify(paths)} when ${when}`, () => {
      assert.deepEqual(repositoryPaths(markdown).map((mention) => mention.text), paths);
    });
  }

  it('gives the line number of each path', () => {
    assert.deepEqual(repositoryPaths('one\n`test/a.test.ts`\nthree src/b.ts'), [
      { line: 2, text: 'test/a.test.ts' },
      { line: 3, text: 'src/b.ts' },
    ]);
  });
});

describe('relativeLinks', () => {
  const cases: { markdown: string; links: string[]; when: string }[] = [
    { when: 'a link names a sibling page with an anchor', markdown: 'see [edge](edge.md#cache) now', links: ['edge.md#cache'] },
    { when: 'a link has a title', markdown: '[a](docs/a.md "A page")', links: ['docs/a.md'] },
    { when: 'an image names a file', markdown: '![plot](img/plot.png)', links: ['img/plot.png'] },
    { when: 'a reference definition names a file', markdown: '[ops]: operations.md#metrics', links: ['operations.md#metrics'] },
    { when: 'a link is escaped', markdown: '[s](my%20page.md)', links: ['my page.md'] },
    { when: 'a link names an anchor of the same page', markdown: '[b](#top)', links: ['#top'] },
    { when: 'links have a scheme', markdown: '[a](https://x.org/a.md) [c](mailto:x@y)', links: [] },
    { when: 'two links share a line', markdown: '[a](a.md), [b](../b.md?x=1)', links: ['a.md', '../b.md'] },
  ];
  for (const { when, markdown, links } of cases) {
    it(`gives ${JSON.stringify(links)} when ${when}`, () => {
      const found = relativeLinks(markdown).map((link) => (link.anchor === undefined ? link.file : `${link.file}#${link.anchor}`));
      assert.deepEqual(found, links);
    });
  }
});

describe('headingAnchors', () => {
  const cases: { heading: string; anchor: string; when: string }[] = [
    { when: 'the heading is plain words', heading: '## How the suites run', anchor: 'how-the-suites-run' },
    { when: 'the heading holds code and punctuation', heading: '## `GET /api/v1/search`', anchor: 'get-apiv1search' },
    { when: 'the heading holds placeholders and options', heading: '## `sitestack purge [<pathname>...] [--key <key>...]`', anchor: 'sitestack-purge-pathname---key-key' },
    { when: 'the heading keeps underscores and drops an apostrophe', heading: "### The reader's `LOG_REQUESTS`", anchor: 'the-readers-log_requests' },
    { when: 'the heading holds a link', heading: '## See [the edge](edge.md)', anchor: 'see-the-edge' },
    { when: 'the heading has closing hashes', heading: '### Scale ###', anchor: 'scale' },
  ];
  for (const { when, heading, anchor } of cases) {
    it(`gives ${anchor} when ${when}`, () => {
      assert.ok(headingAnchors(heading).has(anchor), [...headingAnchors(heading)].join());
    });
  }

  it('numbers a repeated heading and skips headings in code fences', () => {
    assert.deepEqual([...headingAnchors('## Use\n```sh\n# not a heading\n```\n## Use\n')], ['use', 'use-1']);
  });
});

describe('pathExists', () => {
  it('finds a file and a folder of the repository', () => {
    assert.equal(pathExists(ROOT, 'scripts/run-tests.mjs'), true);
    assert.equal(pathExists(ROOT, 'bench/suites/'), true);
  });

  it('refuses a file that is missing or a file named as a folder', () => {
    assert.equal(pathExists(ROOT, 'scripts/no-such-file.mjs'), false);
    assert.equal(pathExists(ROOT, 'scripts/run-tests.mjs/'), false);
  });

  it('matches wildcards and placeholders against the names in a folder', () => {
    assert.equal(pathExists(ROOT, 'bench/suites/<suite>.ts'), true);
    assert.equal(pathExists(ROOT, 'bench/suites/search-*.ts'), true);
    assert.equal(pathExists(ROOT, 'bench/suites/no-such-*.ts'), false);
  });
});
