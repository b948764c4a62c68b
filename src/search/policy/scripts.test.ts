import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { titleOf } from './highlight-fragments.js';
import { matchWords } from './highlight-matches.js';
import { spellable } from './spelling.js';
import { queryTerms, queryText, queryWords, termsOfWord, wordsOf } from '../analysis/index.js';

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}\p{Co}]/u;

/** The ranges a highlighter should mark: the words holding a term of `terms`, neighbours with no word character between made one. */
function expectedRanges(text: string, terms: ReadonlySet<string>): [number, number][] {
  const ranges: [number, number][] = [];
  for (const word of wordsOf(text)) {
    if (!termsOfWord(word.text).some((term) => terms.has(term))) continue;
    const last = ranges.at(-1);
    if (last !== undefined && !WORD_CHARACTER.test(text.slice(last[1], word.start))) last[1] = word.end;
    else ranges.push([word.start, word.end]);
  }
  return ranges;
}

function found(text: string, terms: ReadonlySet<string>): (readonly [number, number])[] {
  const source = matchWords(text, { terms });
  source.scanTo(text.length);
  return [...source.found];
}

const WORDS = ['国际', '化', '路由', '安装', '浏览器', '日本語', 'の', 'を', 'インストール', 'コンポーネント', '単語', '인가', 'React', 'npm', 'café'];

describe('highlighting words in every script', () => {
  it('marks a Chinese or Japanese query word inside a longer run, and nothing else of the run', () => {
    assert.deepEqual(titleOf(matchWords('国际化（i18n）路由', { terms: new Set(queryTerms('国际')) })), ['<mark>国际</mark>化（i18n）路由']);
    assert.deepEqual(titleOf(matchWords('npmをインストール', { terms: new Set(queryTerms('インストール')) })), ['npmを<mark>インストール</mark>']);
  });

  it('marks a Korean word glued to a Latin name without the name', () => {
    assert.deepEqual(titleOf(matchWords('Next.js인가 설명', { terms: new Set(queryTerms('인가')) })), ['Next.js<mark>인가</mark> 설명']);
  });

  it('marks exactly the words holding a query term when the text mixes scripts (property)', () => {
    const text = fc.array(fc.constantFrom(...WORDS, ' ', '、', '（', '）'), { minLength: 1, maxLength: 16 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, fc.subarray(WORDS, { minLength: 1 }), (page, asked) => {
        const terms = new Set(asked.flatMap((word) => queryTerms(word)));
        assert.deepEqual(found(page, terms), expectedRanges(page, terms));
      }),
      { numRuns: 300 },
    );
  });

  it('marks the same words when a long text without spaces is read a chunk at a time', () => {
    const page = Array.from({ length: 120 }, (_, i) => `${WORDS[i % WORDS.length] ?? ''}${WORDS[(i * 7) % WORDS.length] ?? ''}、`).join('');
    const terms = new Set([...queryTerms('路由'), ...queryTerms('インストール')]);
    assert.deepEqual(found(page, terms), expectedRanges(page, terms));
  });
});

describe('corrections of words in every script', () => {
  it('files no word of a script written without spaces for spelling, and Korean and Latin words still', () => {
    assert.deepEqual(['浏览器兼容', 'インストール', 'การติดตั้ง', '설정하기', 'routing'].map(spellable), [false, false, false, true, true]);
  });

  it('writes a corrected query back with the words glued as typed, and spaces elsewhere', () => {
    const words = queryWords('国际化路由 routng, 設定');
    assert.equal(queryText(words, (word) => (word.term === 'routng' ? 'routing' : word.typed)), `${words.slice(0, -2).map((word) => word.typed).join('')} routing 設定`);
    assert.equal(queryText(queryWords('npmをインストール'), (word) => word.typed), 'npmをインストール');
  });
});
