import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { foldPhrase, wordsOf } from '../../analysis/index.js';
import { testDirectory, withEngine } from '../../test-support/sqlite-engine.js';

const dir = testDirectory('sitestack-sqlite-autocomplete-');

/** Words of several scripts, spaced and unspaced; the analysis module says where the words of a title are. */
const WORDS = ['nginx', 'Server', 'side', 'Élan', 'производство', 'الخادم', '国际化', '路由', 'インストール', 'する', '인가', 'CMS', 'getElementById', 'v2'];

describe('SqliteEngine autocomplete', () => {
  it('finds a title from the start of any of its words, a prefix of each as typed, when titles are drawn at random (property)', async () => {
    await withEngine(join(dir, 'words.sqlite'), async (engine) => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }),
          fc.constantFrom(' ', '', '-', '：'),
          fc.integer({ min: 1, max: 12 }),
          async (words, separator, length) => {
            const index = `words${run++}`;
            const title = words.join(separator);
            await engine.createIndex(index);
            await engine.bulk(index, [{ id: 't', url: '/t', title, body: '', summary: '', popularity: 0.5, locale: 'en-US', slug: 't' }]);
            await engine.refresh(index);
            for (const word of wordsOf(title)) {
              const prefix = Array.from(foldPhrase(title.slice(word.start))).slice(0, length).join('');
              const found = await engine.autocomplete({ index, prefix, locales: ['en-US'] });
              assert.deepEqual(found.map((match) => match.url), ['/t'], `${prefix} in ${title}`);
            }
            await engine.deleteIndex(index);
          },
        ),
        { numRuns: 40 },
      );
    });
  });
});
