import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { breaksOf, fold, queryTerms, termsOf, wordsOf } from './index.js';

/** Real words of several scripts, and characters to glue them with. */
const PIECES = [
  '国际化', '路由', '安装', '浏览器', '文档', '日本語', 'の', 'を', 'インストール', 'コンポーネント', '使う', '単語',
  '인가', '문서', '설치', 'การติดตั้ง', 'โปรแกรม', 'ພາສາລາວ', 'React', 'Next.js', 'npm', 'i18n', 'getElementById',
  'café', '2026', ' ', ' ', '（', '）', '、', '。', '-',
];
const textOf = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((pieces) => pieces.join(''));
/** Any characters of those scripts, glued at random: sequences no dictionary holds. */
const HAN_KANA_HANGUL_THAI = fc.array(fc.constantFrom(...'国际化路由安装文档日本語のをインストール使う인가문서การติดตั้งab1 '), { minLength: 1, maxLength: 24 }).map((characters) => characters.join(''));

describe('words in every script', () => {
  it('cuts text written without spaces into words, and a run of another script at the change', () => {
    const table: [string, string][] = [
      ['国际化（i18n）路由', '国际 化 i18n i 18 n 路 由'],
      ['npmをインストール', 'npm を インストール'],
      ['日本語の文章を単語に分割する', '日本語 の 文章 を 単語 に 分割 する'],
      ['Next.js인가', 'nextjs next js 인가'],
      ['Reactコンポーネント', 'react コンポーネント'],
      ['การติดตั้งโปรแกรม', 'การ ติด ตั้ง โปรแกรม'],
      ['한국어 문서', '한국어 문서'],
    ];
    // The terms are folded as any other text: marks dropped (Kana's voicing, Thai vowels), Hangul syllables decomposed.
    for (const [text, terms] of table) assert.equal(termsOf(text).join(' '), fold(terms), text);
  });

  it('finds no break when the text holds no such script', () => {
    assert.deepEqual(breaksOf('getElementById café Ελληνικά русский العربية हिन्दी'), []);
  });

  it('gives the words of wordsOf cut at the breaks, covering each run of word characters', () => {
    assert.deepEqual([...wordsOf('国际化 Next.js인가')].map((word) => word.text), ['国际', '化', 'Next', 'js', '인가']);
  });

  it('finds every word of a text, segmented alone as a query, among the text’s terms (property)', () => {
    for (const texts of [textOf, HAN_KANA_HANGUL_THAI]) {
      fc.assert(
        fc.property(texts, (text) => {
          const terms = new Set(termsOf(text));
          for (const word of wordsOf(text)) for (const term of queryTerms(word.text)) assert.ok(terms.has(term), `${term} of ${word.text} in ${text}`);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('gives a query the same words as the text it was cut from when it is the whole text (property)', () => {
    fc.assert(
      fc.property(textOf, (text) => {
        const terms = new Set(termsOf(text));
        for (const term of queryTerms(text)) assert.ok(terms.has(term), `${term} in ${text}`);
      }),
    );
  });
});
