import { keyBase, pathOf } from './key.js';

export interface PurgeRules {
  dataRoutePrefix: string;
  /** Whether a locale segment follows the build in data routes (see PageCacheOptions.dataRouteLocale). @default true */
  dataRouteLocale?: boolean | undefined;
  purgeQueryVariants: boolean;
}

const JSON_SUFFIX = '.json';

/**
 * True when `base` is the home page's data route: `<prefix><build>/<locale>/index.json`, or `<prefix><build>/index.json`
 * without `locale` (Next.js), with an optional query. The build is any one segment: the cache does not know it.
 */
export function isHomeDataRoute(base: string, dataRoutePrefix: string, locale = true): boolean {
  if (!base.startsWith(dataRoutePrefix)) return false;
  const segments = pathOf(base).slice(dataRoutePrefix.length).split('/');
  return segments.length === (locale ? 3 : 2) && segments.every((segment) => segment !== '') && segments.at(-1) === 'index.json';
}

/**
 * The purge rule of spec §4 for one key and one pathname, as DESIGN §3 extends it:
 * - the key (without a `path+variant` suffix) equals the pathname;
 * - or it starts with the data-route prefix and contains `<pathname>.json`;
 * - or the pathname is `/` and the key is the home page's data route;
 * - or, with `purgeQueryVariants`, the key's path (query string removed) equals the pathname.
 */
export function purgeMatches(key: string, pathname: string, rules: PurgeRules): boolean {
  const base = keyBase(key);
  if (base === pathname) return true;
  if (base.startsWith(rules.dataRoutePrefix)) {
    if (base.includes(pathname + JSON_SUFFIX)) return true;
    if (pathname === '/' && isHomeDataRoute(base, rules.dataRoutePrefix, rules.dataRouteLocale)) return true;
  }
  return rules.purgeQueryVariants && pathOf(base) === pathname;
}

function addUnique(targets: string[], target: string): void {
  if (!targets.includes(target)) targets.push(target);
}

/**
 * Every pathname starting with `/` that {@link purgeMatches} matches `key` with, or `undefined` when there are more than
 * `limit` of them (only contrived data-route keys, with many slashes and `.json`s, get there).
 */
export function purgeTargets(key: string, rules: PurgeRules, limit: number): string[] | undefined {
  const base = keyBase(key);
  const targets = [base];
  if (rules.purgeQueryVariants) addUnique(targets, pathOf(base));
  if (base.startsWith(rules.dataRoutePrefix)) {
    if (isHomeDataRoute(base, rules.dataRoutePrefix, rules.dataRouteLocale)) addUnique(targets, '/');
    // Each pathname P with `<P>.json` inside the key starts at a '/' and ends right before a '.json'.
    for (let end = base.indexOf(JSON_SUFFIX); end !== -1; end = base.indexOf(JSON_SUFFIX, end + 1)) {
      for (let start = base.lastIndexOf('/', end - 1); start !== -1; start = start === 0 ? -1 : base.lastIndexOf('/', start - 1)) {
        addUnique(targets, base.slice(start, end));
        if (targets.length > limit) return undefined;
      }
    }
  }
  return targets;
}

/**
 * An index from purge pathnames to the keys they remove, so a purge costs in proportion to the keys it removes, not to
 * the number of keys held. For every pathname starting with `/`, {@link keysFor} yields exactly the held keys that
 * {@link purgeMatches} matches (in the order they were added).
 */
export class PurgeIndex {
  readonly #rules: PurgeRules;
  readonly #limit: number;
  /** Target → its one key, or the set of its keys when several share it (most targets have exactly one). */
  readonly #byTarget = new Map<string, string | Set<string>>();
  readonly #targetsByKey = new Map<string, string[]>();
  /** Keys with too many targets to index; scanned with the rule itself on every purge. */
  readonly #unindexed = new Set<string>();

  constructor(rules: PurgeRules, limit = 256) {
    this.#rules = rules;
    this.#limit = limit;
  }

  get size(): number {
    return this.#targetsByKey.size + this.#unindexed.size;
  }

  add(key: string): void {
    if (this.#targetsByKey.has(key) || this.#unindexed.has(key)) return;
    const targets = purgeTargets(key, this.#rules, this.#limit);
    if (targets === undefined) {
      this.#unindexed.add(key);
      return;
    }
    this.#targetsByKey.set(key, targets);
    for (const target of targets) {
      const keys = this.#byTarget.get(target);
      if (keys === undefined) this.#byTarget.set(target, key);
      else if (typeof keys === 'string') this.#byTarget.set(target, new Set([keys, key]));
      else keys.add(key);
    }
  }

  remove(key: string): void {
    if (this.#unindexed.delete(key)) return;
    const targets = this.#targetsByKey.get(key);
    if (targets === undefined) return;
    this.#targetsByKey.delete(key);
    for (const target of targets) {
      const keys = this.#byTarget.get(target);
      if (keys === undefined) continue;
      if (typeof keys === 'string') {
        if (keys === key) this.#byTarget.delete(target);
        continue;
      }
      keys.delete(key);
      if (keys.size === 1) this.#byTarget.set(target, keys.values().next().value as string);
    }
  }

  /** The held keys `pathname` purges, as a fresh array (safe to remove them while iterating). */
  keysFor(pathname: string): string[] {
    const indexed = this.#byTarget.get(pathname);
    const keys = indexed === undefined ? [] : typeof indexed === 'string' ? [indexed] : [...indexed];
    for (const key of this.#unindexed) {
      if (purgeMatches(key, pathname, this.#rules)) keys.push(key);
    }
    return keys;
  }
}
