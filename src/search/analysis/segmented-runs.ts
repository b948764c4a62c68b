import { ownCopy } from './term-table.js';

/**
 * Where Intl.Segmenter starts a word inside a run of one script written without spaces (see scripts.ts), remembered
 * by the run's characters. Segmenting costs about a microsecond a character (ICU's dictionary search), which was a
 * quarter of a Chinese or Japanese search: highlighting cuts each run of the page's text that holds a query word into
 * words, and the same runs come back in the next search (a popular page's title and first paragraphs, a phrase many
 * pages share). The segmenter's answer depends on the run's characters alone, so what is remembered is what it would
 * answer again. Pure: no I/O.
 */

const SEGMENTER = new Intl.Segmenter('und', { granularity: 'word' });

/** Runs longer than this many UTF-16 units are segmented every time: few come back, and each would take much room. */
export const REMEMBERED_RUN_LENGTH = 128;

/**
 * Runs remembered in each of two generations: a run asked again is moved to the newer one, and once the newer is
 * full the older is dropped, so what is asked often stays while memory stays bounded (some megabytes at most).
 */
export const REMEMBERED_RUNS = 8192;

const NO_STARTS: readonly number[] = [];
let newer = new Map<string, readonly number[]>();
let older = new Map<string, readonly number[]>();

/** The UTF-16 offsets, after 0 and in order, at which the segmenter starts a segment of `run`. */
export function segmentStarts(run: string): readonly number[] {
  if (run.length > REMEMBERED_RUN_LENGTH) return segment(run);
  let starts = newer.get(run);
  if (starts !== undefined) return starts;
  starts = older.get(run) ?? segment(run);
  if (newer.size >= REMEMBERED_RUNS) {
    older = newer;
    newer = new Map();
  }
  // The run is often a slice of a page's body: its own copy keeps the page from being held with it.
  newer.set(ownCopy(run), starts);
  return starts;
}

function segment(run: string): readonly number[] {
  let starts: number[] | undefined;
  for (const { index } of SEGMENTER.segment(run)) if (index > 0) (starts ??= []).push(index);
  return starts ?? NO_STARTS;
}
