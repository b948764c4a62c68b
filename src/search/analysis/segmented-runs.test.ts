import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { REMEMBERED_RUN_LENGTH, REMEMBERED_RUNS, segmentStarts } from './segmented-runs.js';

/** What the segmenter answers for a run asked afresh. */
function segmenterStarts(run: string): number[] {
  const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
  return [...segmenter.segment(run)].map((segment) => segment.index).filter((index) => index > 0);
}

/** Runs of Chinese, Japanese and Thai as a page holds them: words glued, sequences no dictionary holds, marks. */
const CHARACTERS = [...'国际化路由安装浏览器文档日本語のをインストール使う単語分割するファイルリンクシンボリックการติดตั้งโปรแกรม', '\u3099', '\u0301', '\u{20000}'];
const run = fc.array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: 40 }).map((characters) => characters.join(''));

describe('segmentStarts', () => {
  it('answers what the segmenter answers, asked once or again (property)', () => {
    fc.assert(
      fc.property(run, (text) => {
        assert.deepEqual(segmentStarts(text), segmenterStarts(text));
        assert.deepEqual(segmentStarts(text), segmenterStarts(text));
      }),
      { numRuns: 300 },
    );
  });

  it('answers a run cut from a page as it answers the run alone when the page is gone', () => {
    const page = `${'文档'.repeat(20)}国际化路由${'。'.repeat(10)}`;
    const cut = page.slice(40, 45);
    assert.deepEqual(segmentStarts(cut), segmenterStarts('国际化路由'));
    assert.deepEqual(segmentStarts('国际化路由'), segmenterStarts('国际化路由'));
  });

  it('answers runs longer than it remembers, and more runs than it remembers, as the segmenter does', () => {
    const long = '日本語の文章を単語に分割する'.repeat(Math.ceil(REMEMBERED_RUN_LENGTH / 10));
    assert.deepEqual(segmentStarts(long), segmenterStarts(long));
    const first = '国际化路由安装';
    assert.deepEqual(segmentStarts(first), segmenterStarts(first));
    // Twice as many other runs as a generation holds: the first is forgotten, and segmented again when asked.
    for (let i = 0; i < 2 * REMEMBERED_RUNS; i++) segmentStarts(`文档${i.toString(36)}`);
    assert.deepEqual(segmentStarts(first), segmenterStarts(first));
  });
});
