import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { matchWords } from './highlight-matches.js';
import { termsOfWord, wordsOf, type Word } from '../analysis/index.js';

/** The words (as [start, end)) inside the ranges matchWords finds in a text for some terms (and beginnings of terms). */
function markedWords(text: string, terms: ReadonlySet<string>, prefixes?: readonly string[]): [number, number][] {
  const source = matchWords(text, prefixes === undefined ? { terms } : { terms, prefixes });
  source.scanTo(text.length);
  return source.found.flatMap(([start, end]) => [...wordsOf(text.slice(start, end))].map((word): [number, number] => [start + word.start, start + word.end]));
}

/** Asserts that matchWords marks exactly the words of a text one of whose terms is asked for (`pick` of its n-th term). */
function marksExactly(text: string, pick: (at: number) => boolean): void {
  const words = [...wordsOf(text)];
  const terms = new Set([...new Set(words.flatMap(({ text: word }) => termsOfWord(word)))].filter((_, at) => pick(at)));
  const asked = ({ text: word }: Word) => termsOfWord(word).some((term) => terms.has(term));
  assert.deepEqual(markedWords(text, terms), words.filter(asked).map(({ start, end }): [number, number] => [start, end]));
}

describe('matchWords in scripts written without spaces', () => {
  const piece = fc.constantFrom('国际化', '路由', '配置文件', 'インストール', 'する', 'ファイルを', '설치', '파일', 'nginx', 'NGINX', 'Ｆｕｌｌ', 'ｶﾞ', 'Café', '。', '、', ' ', '\n', '（i18n）', '𠮷野家');

  it('marks exactly the words of the whole text one of whose terms is asked for, however long the text (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 600 }), fc.nat(), (pieces, seed) => {
        const text = pieces.join('');
        const words = [...wordsOf(text)];
        const candidates = [...new Set(words.flatMap((word) => termsOfWord(word.text)))];
        const terms = new Set(candidates.filter((_, at) => (at + seed) % 3 === 0));
        const expected = words.filter((word) => termsOfWord(word.text).some((term) => terms.has(term))).map((word): [number, number] => [word.start, word.end]);
        assert.deepEqual(markedWords(text, terms), expected);
      }),
      { numRuns: 200 },
    );
  });

  it('marks exactly the Korean words one of whose terms is asked for or begins with a beginning asked for, however Hangul is written (property)', () => {
    // Syllables with and without a final consonant, the same words as jamo and as compatibility jamo, a word longer
    // than a term, and words glued to Latin and Chinese.
    const korean = fc.constantFrom('설치', '설치하기', '참고', '참곤', '가', '각', '가나다', '파일과', '\u1109\u1165\u11af\u110e\u1175', 'ㅅㅓㄹ', 'ㄱ', '한'.repeat(30), '한'.repeat(30) + '글', 'Next.js인가', '국제化', 'ｶﾞ', ' ', '。', '\n', 'nginx');
    fc.assert(
      fc.property(fc.array(korean, { maxLength: 400 }), fc.nat(), fc.array(fc.constantFrom('가', '각', '설', '서', '파일', '한한', 'ㄱ', '\u1100', 'n'), { maxLength: 2 }), (pieces, seed, prefixes) => {
        const text = pieces.join('');
        const words = [...wordsOf(text)];
        const candidates = [...new Set(words.flatMap((word) => termsOfWord(word.text)))];
        const terms = new Set(candidates.filter((_, at) => (at + seed) % 3 === 0));
        const folded = prefixes.flatMap((prefix) => termsOfWord(prefix));
        const marked = (word: string) => termsOfWord(word).some((term) => terms.has(term) || folded.some((prefix) => term.startsWith(prefix)));
        const expected = words.filter((word) => marked(word.text)).map((word): [number, number] => [word.start, word.end]);
        assert.deepEqual(markedWords(text, terms, folded), expected);
      }),
      { numRuns: 300 },
    );
  });

  it('marks every word when marks dropped and Hangul decomposed leave the folded text as long as the text', () => {
    // Three halfwidth sound marks dropped, three jamo added: the folding is as long, but its characters have moved.
    const text = 'ｶﾞｶﾞ、ｶﾞ설치';
    assert.deepEqual(markedWords(text, new Set(['カ'])), [[0, 2], [2, 4], [5, 7]]);
  });

  it('marks exactly the words asked for next to signs that fold to several characters (property)', () => {
    // `…` and `‥` fold to full stops, `№` to letters, `ﬁ` to two letters.
    const piece = fc.constantFrom('analyze', 'Analyse', 'file', 'ﬁle', 'profile', 'Cyrillic', 'кириллица', '…', '‥', '№', '„', '—', ' ', '\n', 'é', '国际化');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), fc.nat(), (pieces, seed) => marksExactly(pieces.join(''), (at) => (at + seed) % 3 === 0)),
      { numRuns: 300 },
    );
  });

  it('marks the same words with a matcher that read other texts before as with a fresh one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 120 }), { minLength: 2, maxLength: 4 }), fc.nat(), (texts, seed) => {
        const words = texts.flatMap((pieces) => [...wordsOf(pieces.join(''))]);
        const candidates = [...new Set(words.flatMap((word) => termsOfWord(word.text)))];
        const terms = new Set(candidates.filter((_, at) => (at + seed) % 3 === 0));
        const shared = { terms };
        for (const pieces of texts) {
          const text = pieces.join('');
          const again = matchWords(text, shared);
          again.scanTo(text.length);
          const fresh = matchWords(text, { terms });
          fresh.scanTo(text.length);
          assert.deepEqual(again.found, fresh.found);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('marks nothing when no term asked for is in the text', () => {
    assert.deepEqual(markedWords('国际化路由。インストールする。'.repeat(200), new Set(['설치'])), []);
  });
});
