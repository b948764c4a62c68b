import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hasChanges, lineDiff, revisionText, type DiffRow } from './diff.js';
import { suggestSlug } from './policy.js';
import { OID_PATTERN } from '../validation.js';

const side = (rows: readonly DiffRow[], kind: 'added' | 'removed') => rows.flatMap((row) => (row.kind === 'same' || row.kind === kind ? [row.text] : []));

describe('lineDiff', () => {
  it('gives back both texts line for line when nothing is cut, whatever the lines', () => {
    const lines = fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }).filter((line) => !line.includes('\n') && !line.includes('\r')), { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (before, after) => {
        const [old, now] = [before.join('\n'), after.join('\n')];
        const rows = lineDiff(old, now, { context: Number.MAX_SAFE_INTEGER })!;
        // A text's last line break ends its last line rather than starting an empty one.
        assert.equal(side(rows, 'removed').join('\n'), old.replace(/\n$/, ''));
        assert.equal(side(rows, 'added').join('\n'), now.replace(/\n$/, ''));
        assert.equal(hasChanges(rows), old !== now);
      }),
    );
  });

  it('cuts unchanged runs to the context around each change', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const after = before.map((line, i) => (i === 10 ? 'changed' : line));
    assert.deepEqual(lineDiff(before.join('\n'), after.join('\n'), { context: 1 }), [
      { kind: 'skipped', count: 9 },
      { kind: 'same', text: 'line 9' },
      { kind: 'removed', text: 'line 10' },
      { kind: 'added', text: 'changed' },
      { kind: 'same', text: 'line 11' },
      { kind: 'skipped', count: 8 },
    ]);
  });

  it('shows no more than its bound of rows, saying how many it left out', () => {
    const rows = lineDiff('', Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n'), { maxRows: 4 });
    assert.deepEqual(rows?.slice(3), [
      { kind: 'added', text: 'line 3' },
      { kind: 'cut', count: 6 },
    ]);
  });

  it('gives up, answering undefined, when a diff would take longer than its bound', () => {
    const lines = (seed: number) => Array.from({ length: 40_000 }, (_, i) => `${(i * seed) % 7919}`).join('\n');
    assert.equal(lineDiff(lines(31), lines(37), { timeoutMs: 1 }), undefined);
  });

  it('shows every field an editor sets as a line of the revision', () => {
    const text = revisionText({ title: 'T', format: 'markdown', categories: ['A', 'B'], pub_date: '2026-01-01T00:00:00.000Z', summary: 'S', body: 'Body' });
    assert.equal(text, 'Title: T\nFormat: markdown\nCategories: A, B\nDate: 2026-01-01T00:00:00.000Z\nSummary: S\n\nBody');
  });
});

describe('suggestSlug', () => {
  it('answers a valid slug or nothing, whatever was typed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (typed) => {
        const slug = suggestSlug(typed);
        assert.ok(slug === '' || (OID_PATTERN.test(slug) && slug.length <= 100), JSON.stringify(slug));
      }),
    );
    assert.equal(suggestSlug('Ça va? Très bien!'), 'ca-va-tres-bien');
  });
});
