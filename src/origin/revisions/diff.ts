import { diffLines } from 'diff';

/**
 * One row of a line diff as the desk shows it; a run of unchanged lines far from any change is one `skipped` row, and
 * the rows past the bound one `cut` row.
 */
export type DiffRow = { kind: 'added' | 'removed' | 'same'; text: string } | { kind: 'skipped'; count: number } | { kind: 'cut'; count: number };

export interface LineDiffOptions {
  /** Unchanged lines shown around each change. @default 2 */
  context?: number;
  /**
   * Longest a diff may take: two long sources rewritten throughout would otherwise hold the origin's one thread for
   * seconds. Past it the diff is not shown. @default 500
   */
  timeoutMs?: number;
  /** Rows shown: a source rewritten throughout would otherwise make a page of megabytes. @default 400 */
  maxRows?: number;
}

export const LINE_DIFF_DEFAULTS = { context: 2, timeoutMs: 500, maxRows: 400 } as const;

/** What a revision is, as text: the fields an editor sets, then the source. A change to any of them shows as a line. */
export function revisionText(revision: { title: string; format: string; categories: readonly string[]; pub_date: string; summary: string; body: string }): string {
  return [
    `Title: ${revision.title}`,
    `Format: ${revision.format}`,
    `Categories: ${revision.categories.join(', ')}`,
    `Date: ${revision.pub_date}`,
    `Summary: ${revision.summary}`,
    '',
    revision.body,
  ].join('\n');
}

function linesOf(value: string): string[] {
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The line diff from `before` to `after` (jsdiff), with unchanged runs cut to `context` lines around the changes;
 * undefined when it would take longer than `timeoutMs`.
 */
export function lineDiff(before: string, after: string, options: LineDiffOptions = {}): DiffRow[] | undefined {
  const context = options.context ?? LINE_DIFF_DEFAULTS.context;
  const changes = diffLines(before, after, { timeout: options.timeoutMs ?? LINE_DIFF_DEFAULTS.timeoutMs });
  if (changes === undefined) return undefined;
  const rows: DiffRow[] = [];
  changes.forEach((change, index) => {
    const lines = linesOf(change.value);
    if (change.added || change.removed) {
      for (const text of lines) rows.push({ kind: change.added ? 'added' : 'removed', text });
      return;
    }
    const head = index === 0 ? 0 : context;
    const tail = index === changes.length - 1 ? 0 : context;
    if (lines.length <= head + tail + 1) {
      for (const text of lines) rows.push({ kind: 'same', text });
      return;
    }
    for (const text of lines.slice(0, head)) rows.push({ kind: 'same', text });
    rows.push({ kind: 'skipped', count: lines.length - head - tail });
    for (const text of lines.slice(lines.length - tail)) rows.push({ kind: 'same', text });
  });
  const maxRows = options.maxRows ?? LINE_DIFF_DEFAULTS.maxRows;
  return rows.length <= maxRows ? rows : [...rows.slice(0, maxRows), { kind: 'cut', count: rows.length - maxRows }];
}

/** Whether a diff changes anything. */
export function hasChanges(rows: readonly DiffRow[]): boolean {
  return rows.some((row) => row.kind === 'added' || row.kind === 'removed');
}
