import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fold } from '../analysis/index.js';
import { CandidatePlaces, patternsOf } from './highlight-candidates.js';

/**
 * Characters folding does something to: capitals, precomposed and combining marks, a final sigma, a dotted capital I,
 * ligatures and letters that fold to several, full-width and mathematical (astral) letters, Hangul, Han, Kana, emoji,
 * spaces and punctuation.
 */
const TRICKY = [
  ...'aAeEéÉèçÇnñÑsSßtTiIİıфФйЙёЁиИзЗщЩΣσςΟοΔδ',
  '\u0301', '\u0308', '\u0306', '\u0307',
  ...'ﬁﬂĳǅ½™㎏ＡａＺ',
  '𝐀', '𝐳', '😀',
  ...'한국어ㄱ调节国際化インストールをする',
  ' ', '.', ',', '-', '’',
];

const text = fc.array(fc.constantFrom(...TRICKY), { maxLength: 40 }).map((characters) => characters.join(''));

describe('CandidatePlaces', () => {
  it('finds a place within every stretch whose folding holds a needle (property)', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 5 }), (whole, a, b, c, length) => {
        const from = a % (whole.length + 1);
        const to = from + (b % (whole.length - from + 1));
        const folded = fold(whole.slice(from, to));
        if (folded.length === 0) return;
        const start = c % folded.length;
        const needle = folded.slice(start, start + length);
        // The needles highlighting looks for are folded words: never a lone half of a pair.
        if (/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(needle)) return;
        assert.ok(new CandidatePlaces(whole, [needle]).next(from) < to, `${JSON.stringify(needle)} in ${JSON.stringify(whole.slice(from, to))}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds a place for one needle among several when its folding holds that one (property)', () => {
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 3 }), (whole, others) => {
        const folded = fold(whole);
        if (folded.length === 0) return;
        const needles = [...others.map(fold).filter((needle) => needle !== '' && !folded.includes(needle) && !/[\ud800-\udfff]/.test(needle)), folded.slice(0, 3)];
        if (/[\ud800-\udbff]$/.test(folded.slice(0, 3))) return;
        assert.ok(new CandidatePlaces(whole, needles).next(0) < whole.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('passes over text whose folding holds no needle, as far as the first place it may', () => {
    const body = 'Процессы могут использовать механизм ключей памяти. '.repeat(200);
    assert.equal(new CandidatePlaces(`${body}ЗАЩИТЫ`, ['защиты']).next(0), body.length);
    assert.equal(new CandidatePlaces(body, ['защиты']).next(0), body.length);
    // Marks may stand between a needle's characters.
    assert.equal(new CandidatePlaces(`${body}за\u0301щиты`, ['защиты']).next(0), body.length);
    assert.equal(new CandidatePlaces(`${body}ключе\u0301й`, ['защиты']).next(0), body.length + 7);
  });

  it('finds a needle spelled with a final sigma, a combining mark or a full-width letter', () => {
    assert.equal(new CandidatePlaces('ΟΔΟΣ', ['οδος']).next(0), 0);
    assert.equal(new CandidatePlaces('xx café', ['cafe']).next(0), 3);
    assert.equal(new CandidatePlaces('xx cafe\u0301', ['cafe']).next(0), 3);
    assert.equal(new CandidatePlaces('x ＡＢ', ['ab']).next(0), 2);
  });

  it('finds the places the needles\' whole expressions find, read from the characters they may start with (property)', () => {
    /** The first match at or after `from` of the needles' expressions read over the text as they are. */
    const reference = (whole: string, needles: string[], from: number): number => {
      const patterns = patternsOf(needles);
      if (patterns === undefined) return whole.length;
      const first = (source: string | undefined) => {
        if (source === undefined) return whole.length;
        const expression = new RegExp(source, 'g');
        expression.lastIndex = from;
        return expression.exec(whole)?.index ?? whole.length;
      };
      return Math.min(first(patterns.spelledAt?.source), first(patterns.severalAt.source));
    };
    const needle = fc.array(fc.constantFrom(...TRICKY), { minLength: 1, maxLength: 4 }).map((characters) => fold(characters.join('')));
    fc.assert(
      fc.property(text, fc.array(needle, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 6 }), (whole, needles, steps) => {
        const places = new CandidatePlaces(whole, needles);
        let from = 0;
        for (const step of [0, ...steps]) {
          from = Math.min(whole.length, from + (step % 8));
          assert.equal(places.next(from), reference(whole, needles, from), `${JSON.stringify(needles)} from ${from} in ${JSON.stringify(whole)}`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the places of a Chinese or Japanese needle in a long page, with the characters that fold to it', () => {
    const page = `${'コンパイラのオプションを指定する。'.repeat(300)}ｺﾝ㌙国際`;
    const places = new CandidatePlaces(page, ['コン']);
    assert.equal(places.next(0), 0);
    assert.equal(places.next(1), 17);
    assert.equal(places.next(page.length - 5), page.length - 5);
    assert.equal(places.next(page.length - 4), page.length - 3);
    assert.equal(new CandidatePlaces(page, ['国際']).next(0), page.length - 2);
  });

  it('answers the text length when there is nothing to look for', () => {
    assert.equal(new CandidatePlaces('abc', []).next(0), 3);
    assert.equal(new CandidatePlaces('abc', ['']).next(1), 3);
  });
});
