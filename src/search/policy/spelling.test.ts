import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { deletionNeighbourhood, editDistance, heldFirst, spellable, spliceAlternatives } from './spelling.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as 1 each', () => {
    assert.equal(editDistance('flexbox', 'flexbox'), 0);
    assert.equal(editDistance('flexbx', 'flexbox'), 1);
    assert.equal(editDistance('flexbox', 'flexboxx'), 1);
    assert.equal(editDistance('flexbox', 'flaxbox'), 1);
    assert.equal(editDistance('flexbox', 'flexbxo'), 1);
    assert.equal(editDistance('ab', 'ba'), 1);
    assert.equal(editDistance('flexbox', 'flxebxo'), 2);
    assert.equal(editDistance('grid', 'flexbox'), 3, 'anything beyond the limit is limit + 1');
    assert.equal(editDistance('😀a', 'a😀'), 1, 'by code point');
  });

  it('is the optimal-string-alignment distance, capped at limit + 1, for any two strings (property)', () => {
    /** The whole table, by code point, with nothing kept between calls. */
    const reference = (a: string, b: string): number => {
      const left = Array.from(a);
      const right = Array.from(b);
      const d = Array.from({ length: left.length + 1 }, (_, i) => Array.from({ length: right.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= left.length; i++) {
        for (let j = 1; j <= right.length; j++) {
          const row = d[i] as number[];
          const above = d[i - 1] as number[];
          row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (left[i - 1] === right[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
        }
      }
      return (d[left.length] as number[])[right.length] as number;
    };
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '😀', '\u0301'), maxLength: 90 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 4 }), (a, b, limit) => {
        assert.equal(editDistance(a, b, limit), Math.min(reference(a, b), limit + 1));
      }),
      { numRuns: 2000 },
    );
  });
});

const word = fc.string({ unit: fc.constantFrom(...'abcdefghé'), minLength: 1, maxLength: 12 });

function edit(text: string, kind: number, at: number, letter: string): string {
  const characters = Array.from(text);
  const i = at % (characters.length + 1);
  if (kind === 0 && characters.length > 1) characters.splice(Math.min(i, characters.length - 1), 1);
  else if (kind === 1) characters.splice(i, 0, letter);
  else if (kind === 2 && i < characters.length) characters[i] = letter;
  else if (kind === 3 && i + 1 < characters.length) [characters[i], characters[i + 1]] = [characters[i + 1] as string, characters[i] as string];
  return characters.join('');
}

describe('deletionNeighbourhood', () => {
  it('includes the word and every single and double deletion of its first 7 characters', () => {
    assert.deepEqual([...deletionNeighbourhood('abc')].sort(), ['a', 'ab', 'abc', 'ac', 'b', 'bc', 'c']);
    assert.deepEqual([...deletionNeighbourhood('ab')].sort(), ['', 'a', 'ab', 'b']);
    assert.ok(deletionNeighbourhood('abcdefghij').has('bdefg'));
  });

  it('deletes whole characters when a character takes two UTF-16 units', () => {
    assert.deepEqual([...deletionNeighbourhood('a\u{1D4B3}b', 1)].sort(), ['a\u{1D4B3}', 'a\u{1D4B3}b', 'ab', '\u{1D4B3}b'].sort());
  });

  it('is every deletion of up to two characters of the first 7, whatever the characters (property)', () => {
    const reference = (text: string): Set<string> => {
      const found = new Set<string>();
      const visit = (characters: string[], left: number) => {
        found.add(characters.join(''));
        if (left > 0) characters.forEach((_, i) => visit(characters.toSpliced(i, 1), left - 1));
      };
      visit(Array.from(text).slice(0, 7), 2);
      return found;
    };
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\u{1D4B3}', '\u{1F600}'), maxLength: 9 }), (text) => {
        assert.deepEqual([...deletionNeighbourhood(text)].sort(), [...reference(text)].sort());
      }),
      { numRuns: 500 },
    );
  });

  it('shares a key of a word\'s one-deletion neighbourhood with the filed keys of any word one edit away (property)', () => {
    const step = fc.tuple(fc.nat(3), fc.nat(20), fc.constantFrom('a', 'z', 'é'));
    fc.assert(
      fc.property(word, step, (original, [kind, at, letter]) => {
        const typo = edit(original, kind, at, letter);
        const filed = deletionNeighbourhood(original);
        assert.ok([...deletionNeighbourhood(typo, 1)].some((key) => filed.has(key)), `${original} / ${typo}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('shares a key between a word and any word one or two edits away (property)', () => {
    const edits = fc.array(fc.tuple(fc.nat(3), fc.nat(20), fc.constantFrom('a', 'z', 'é')), { minLength: 1, maxLength: 2 });
    fc.assert(
      fc.property(word, edits, (original, steps) => {
        const typo = steps.reduce((text, [kind, at, letter]) => edit(text, kind, at, letter), original);
        if (editDistance(original, typo) > 2) return;
        const keys = deletionNeighbourhood(original);
        assert.ok([...deletionNeighbourhood(typo)].some((key) => keys.has(key)), `${original} / ${typo}`);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('spellable', () => {
  it('files words of 3 to 40 characters that start with a letter, digits allowed after it', () => {
    assert.ok(spellable('flexbox'));
    assert.ok(spellable('élan'));
    for (const term of ['rabin2', 'iperf3', 'a1b2']) assert.ok(spellable(term), term);
    for (const term of ['ab', '123', '3d', 'x'.repeat(41), 'foo_bar']) assert.equal(spellable(term), false, term);
  });

  it('takes shorter words when a shortest length is given', () => {
    assert.deepEqual([spellable('rv', 2), spellable('r', 2), spellable('3d', 2)], [true, false, false]);
  });
});

describe('spliceAlternatives', () => {
  it('splices candidates into the whole query, closest and most frequent first', () => {
    const candidates = new Map([
      [0, [{ term: 'flexbox', distance: 1, docs: 5 }, { term: 'flexbot', distance: 1, docs: 1 }]],
      [2, [{ term: 'grid', distance: 2, docs: 9 }]],
    ]);
    assert.deepEqual(
      spliceAlternatives(['flexbx', 'and', 'grod'], candidates, 3, 5).map((alternative) => alternative.words.join(' ')),
      ['flexbox and grid', 'flexbot and grid'],
    );
    assert.deepEqual(spliceAlternatives(['fine'], new Map(), 3, 5), [], 'nothing to correct, nothing suggested');
  });
});

describe('heldFirst', () => {
  it('keeps the first items held, in order, and asks no further once it has enough', () => {
    const asked: number[] = [];
    const held = (item: number) => {
      asked.push(item);
      return item % 2 === 0;
    };
    assert.deepEqual(heldFirst([1, 2, 3, 4, 5, 6, 8], 2, held), [2, 4]);
    assert.deepEqual(asked, [1, 2, 3, 4]);
    assert.deepEqual(heldFirst([1, 3], 2, held), [], 'none held');
  });
});
