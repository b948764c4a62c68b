/** The figures the search-quality suite reports. Pure. */

/** The value at quantile `q` of ascending `sorted`; NaN when empty. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** `found` as a percentage of `of`; NaN when `of` is 0. */
export function share(found: number, of: number): number {
  return of === 0 ? Number.NaN : (100 * found) / of;
}
