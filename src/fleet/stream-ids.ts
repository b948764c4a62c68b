/** Redis stream entry ids (`<ms>-<seq>`), compared as the numbers they are. Pure. */

const ID = /^(\d{1,20})-(\d{1,20})$/;

/** The id before every entry: a reader that starts from it reads the whole stream. */
export const STREAM_START = '0-0';

export function isStreamId(value: string): boolean {
  return ID.test(value);
}

/** Negative, zero or positive as `a` is before, equal to or after `b`; an id that is not one sorts first. */
export function compareStreamIds(a: string, b: string): number {
  const left = ID.exec(a);
  const right = ID.exec(b);
  if (left === null || right === null) return (left === null ? 0 : 1) - (right === null ? 0 : 1);
  const ms = BigInt(left[1] ?? '0') - BigInt(right[1] ?? '0');
  if (ms !== 0n) return ms < 0n ? -1 : 1;
  const seq = BigInt(left[2] ?? '0') - BigInt(right[2] ?? '0');
  return seq === 0n ? 0 : seq < 0n ? -1 : 1;
}
