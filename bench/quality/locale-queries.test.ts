import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { alphabetOf, bodyPhrases, dominantScript, scriptOf, segmentWords, titleWordQuery } from './locale-queries.js';
import { foldWord, typoQuery } from './queries.js';
import { seededRandom } from '../../src/seeded-random.js';

/** Words of several scripts, to build titles and texts from. */
const WORDS = ['目录', '内容', '文件', 'ディレクトリ', '表示', '파일', '압축', 'Datei', 'entfernen', 'fichier', 'файл', 'ls', 'xz'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).chain((words) =>
  fc.array(fc.constantFrom(' ', '', '\n', ' - '), { minLength: words.length, maxLength: words.length }).map((gaps) => words.map((word, i) => word + (gaps[i] ?? '')).join('')),
);
const locale = fc.constantFrom('zh-CN', 'ja', 'ko', 'de', 'fr', 'ru');

describe('segmentWords', () => {
  it('gives words found at their offsets when the text is of any script', () => {
    fc.assert(
      fc.property(text, locale, (sample, at) => {
        for (const word of segmentWords(sample, at)) assert.equal(sample.slice(word.index, word.index + word.text.length), word.text);
      }),
    );
  });

  it('cuts Chinese and Japanese runs into words when they have no spaces', () => {
    assert.deepEqual(segmentWords('ls - ディレクトリの内容', 'ja').map((word) => word.text), ['ls', 'ディレクトリ', 'の', '内容']);
    assert.ok(segmentWords('列出目录内容', 'zh-CN').length > 1);
  });

  it('keeps offsets right when the text is longer than one piece', () => {
    const long = `${'Datei '.repeat(300)}Ende`;
    const words = segmentWords(long, 'de');
    assert.equal(words.length, 301);
    assert.equal(long.slice(words.at(-1)?.index), 'Ende');
  });
});

describe('titleWordQuery', () => {
  it('picks a word of the title in the locale script when few titles hold it', () => {
    fc.assert(
      fc.property(text, locale, fc.integer({ min: 1, max: 1000 }), (title, at, seed) => {
        const words = segmentWords(title, at).map((word) => word.text);
        const script = dominantScript(words);
        const picked = titleWordQuery(title, at, script, () => 1, seededRandom(seed));
        if (picked === undefined) return;
        assert.ok(words.includes(picked));
        assert.equal(scriptOf(picked), script);
        assert.ok(Array.from(picked).length >= 2);
      }),
    );
  });

  it('counts a word with a typographic apostrophe as the same word written with a straight one', () => {
    assert.equal(foldWord('D’Une'), "d'une");
    const titlesWith = (key: string) => (key === "d'une" ? 12 : 1);
    assert.equal(titleWordQuery('la présence d’une', 'fr', 'Latin', titlesWith, () => 0.99), 'présence');
  });

  it('gives nothing when every word is in too many titles', () => {
    assert.equal(titleWordQuery('ls - 列出目录内容', 'zh-CN', 'other', () => 4, seededRandom(1)), undefined);
  });
});

describe('bodyPhrases', () => {
  it('gives two neighbouring words as written when only blanks part them', () => {
    fc.assert(
      fc.property(text, locale, fc.integer({ min: 1, max: 1000 }), (sample, at, seed) => {
        const script = dominantScript(segmentWords(sample, at).map((word) => word.text));
        for (const phrase of bodyPhrases(sample, at, script, seededRandom(seed))) {
          assert.ok(sample.replace(/\s+/g, ' ').includes(phrase), phrase);
          assert.equal(segmentWords(phrase, at).length, 2, phrase);
        }
      }),
    );
  });

  it('leaves out pairs parted by punctuation or of another script', () => {
    assert.deepEqual(bodyPhrases('Datei - entfernen xz', 'de', 'Latin', seededRandom(1)).sort(), ['entfernen xz']);
    assert.deepEqual(bodyPhrases('Datei entfernen', 'de', 'Cyrillic', seededRandom(1)), []);
  });
});

describe('typos in a locale alphabet', () => {
  it('draws letters of the alphabet given when the title is Cyrillic', () => {
    const alphabet = alphabetOf(['файл', 'каталог']);
    assert.equal(alphabet, 'агиклотф');
    for (let seed = 1; seed < 50; seed++) {
      const typo = typoQuery('каталог файлов', seededRandom(seed), () => false, alphabet);
      if (typo !== undefined) assert.match(foldWord(typo.typo), /^[\p{Script=Cyrillic}]+$/u);
    }
  });
});
