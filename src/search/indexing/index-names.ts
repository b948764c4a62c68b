/** Naming of the indices a run creates (spec §2): `<prefix>_<UTC YYYYMMDDHHMMSS>`, with `_<n>` when that is taken. */

/** The prefix of a run's indices and the name of the alias searched, unless `SEARCH_PREFIX` says otherwise. */
export const DEFAULT_INDEX_PREFIX = 'site_docs';

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** `<prefix>_<UTC YYYYMMDDHHMMSS>`, plus `_<attempt>` from the second attempt on. */
export function runIndexName(prefix: string, at: Date, attempt = 1): string {
  const stamp =
    String(at.getUTCFullYear()).padStart(4, '0') +
    twoDigits(at.getUTCMonth() + 1) +
    twoDigits(at.getUTCDate()) +
    twoDigits(at.getUTCHours()) +
    twoDigits(at.getUTCMinutes()) +
    twoDigits(at.getUTCSeconds());
  return attempt <= 1 ? `${prefix}_${stamp}` : `${prefix}_${stamp}_${attempt}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `name` is an index some run of `prefix` created — the only indices a run ever deletes. */
export function isRunIndexName(prefix: string, name: string): boolean {
  return new RegExp(`^${escapeRegExp(prefix)}_\\d{14}(?:_\\d+)?$`).test(name);
}
