import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The docs name files by path; a move that forgets them leaves a newcomer looking for a file that is gone. This test
// holds README.md and docs/*.md to the tree as it is.

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Top-level folders whose paths the docs name; paths under any other folder (`dist/`, `DATA_DIR/`) are not checked. */
const CHECKED_ROOTS = ['src', 'bench', 'test', 'scripts', 'docs'] as const;

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

/** The relative file targets of a Markdown text's links, without their anchors; URLs and same-page anchors are left out. */
function relativeLinks(markdown: string): Mention[] {
  const mentions: Mention[] = [];
  markdown.split('\n').forEach((lineText, index) => {
    const targets = [...lineText.matchAll(INLINE_LINK)].map((match) => match[1] ?? '');
    const reference = REFERENCE_LINK.exec(lineText)?.[1];
    if (reference !== undefined) targets.push(reference);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      const file = decodeURIComponent(target.replace(/[#?].*$/, ''));
      if (file !== '') mentions.push({ line: index + 1, text: file });
    }
  });
  return mentions;
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
        .filter((mention) => !existsSync(resolve(dirname(file), mention.text)))
        .map((mention) => `${relative(ROOT, file)}:${mention.line} links to ${mention.text}, which does not exist`),
    );
    assert.deepEqual(missing, []);
  });

  it('links every docs/ page from README.md when a page is added', () => {
    const readme = join(ROOT, 'README.md');
    const linked = new Set(relativeLinks(readFileSync(readme, 'utf8')).map((mention) => resolve(ROOT, mention.text)));
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
    { when: 'a link names a sibling page with an anchor', markdown: 'see [edge](edge.md#cache) now', links: ['edge.md'] },
    { when: 'a link has a title', markdown: '[a](docs/a.md "A page")', links: ['docs/a.md'] },
    { when: 'an image names a file', markdown: '![plot](img/plot.png)', links: ['img/plot.png'] },
    { when: 'a reference definition names a file', markdown: '[ops]: operations.md#metrics', links: ['operations.md'] },
    { when: 'a link is escaped', markdown: '[s](my%20page.md)', links: ['my page.md'] },
    { when: 'links are URLs or anchors of the same page', markdown: '[a](https://x.org/a.md) [b](#top) [c](mailto:x@y)', links: [] },
    { when: 'two links share a line', markdown: '[a](a.md), [b](../b.md)', links: ['a.md', '../b.md'] },
  ];
  for (const { when, markdown, links } of cases) {
    it(`gives ${JSON.stringify(links)} when ${when}`, () => {
      assert.deepEqual(relativeLinks(markdown).map((mention) => mention.text), links);
    });
  }
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
