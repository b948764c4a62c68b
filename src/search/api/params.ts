import { SEARCH_LOCALE } from '../../locale.js';
import type { SortOrder } from '../engines/types.js';
import { MAX_TYPED_PREFIX } from '../policy/autocomplete.js';

/**
 * Pure validation of the search and autocomplete query strings (DESIGN §7). Lengths are counted in Unicode code points.
 * An empty value takes the default; a parameter that is not repeatable but given twice is an error (`repeated`) rather
 * than a silent choice; unknown parameters are ignored (cache busters, tracking tags).
 */

export const SEARCH_PARAM_LIMITS = {
  /** Longest `q`, in code points. */
  maxQueryLength: 200,
  minSize: 1,
  maxSize: 100,
  minPage: 1,
  maxPage: 10,
  /** Values of a repeatable parameter (`locale`, `slug_prefix`) accepted at most. */
  maxRepeats: 10,
  /** Longest `slug_prefix`, in code points. */
  maxSlugPrefixLength: 200,
  /** Longest autocomplete `q`, in code points. */
  maxAutocompleteLength: MAX_TYPED_PREFIX,
} as const;

export const SEARCH_PARAM_DEFAULTS = { locale: 'en-US', sort: 'best', size: 10, page: 1, exact: false } as const satisfies {
  locale: string;
  sort: SortOrder;
  size: number;
  page: number;
  exact: boolean;
};

/** The values of `exact`: `1` searches the words as typed, `0` (like absent or empty) lets the engine correct them. */
export const EXACT_VALUES: readonly string[] = ['0', '1'];

export const SORT_ORDERS: readonly SortOrder[] = ['best', 'relevance', 'popularity'];

export interface SearchParams {
  q: string;
  /** Distinct locales, in the order given. */
  locales: string[];
  sort: SortOrder;
  size: number;
  page: number;
  /** Distinct slug prefixes without a leading `/`. */
  slugPrefixes: string[];
  /**
   * `exact=1`: match the words as typed only (the engine's `corrections: false`), as the "search instead for" link of
   * a corrected search asks. @default false
   */
  exact: boolean;
}

export type FieldErrorCode =
  | 'required'
  | 'too_long'
  | 'repeated'
  | 'too_many'
  | 'invalid'
  | 'invalid_choice'
  | 'not_an_integer'
  | 'out_of_range';

export interface FieldError {
  message: string;
  code: FieldErrorCode;
}

/** The 400 body: every invalid field with all of its problems. */
export interface ValidationErrorBody {
  errors: Record<string, FieldError[]>;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; body: ValidationErrorBody };

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

class Errors {
  readonly fields: Record<string, FieldError[]> = {};
  add(field: string, code: FieldErrorCode, message: string): void {
    (this.fields[field] ??= []).push({ message, code });
  }
  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
}

/** The values of a query parameter: undefined when absent; anything that is not a string counts as invalid. */
function valuesOf(query: unknown, name: string): unknown[] | undefined {
  if (query === null || typeof query !== 'object' || !Object.hasOwn(query, name)) return undefined;
  const value = (query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : [value];
}

/** The one value of a non-repeatable parameter; '' when absent or empty (take the default); undefined after an error. */
function single(query: unknown, name: string, errors: Errors): string | undefined {
  const values = valuesOf(query, name);
  if (values === undefined || values.length === 0) return '';
  if (values.length > 1) {
    errors.add(name, 'repeated', `${name} may be given once`);
    return undefined;
  }
  const [value] = values;
  if (typeof value !== 'string') {
    errors.add(name, 'invalid', `${name} must be a string`);
    return undefined;
  }
  return value;
}

function repeatable(query: unknown, name: string, errors: Errors): string[] | undefined {
  const values = (valuesOf(query, name) ?? []).filter((value) => value !== '');
  if (values.some((value) => typeof value !== 'string')) {
    errors.add(name, 'invalid', `${name} must be a string`);
    return undefined;
  }
  if (values.length > SEARCH_PARAM_LIMITS.maxRepeats) {
    errors.add(name, 'too_many', `${name} may be given at most ${SEARCH_PARAM_LIMITS.maxRepeats} times`);
    return undefined;
  }
  return values as string[];
}

function integer(query: unknown, name: string, fallback: number, min: number, max: number, errors: Errors): number {
  const value = single(query, name, errors);
  if (value === undefined) return fallback;
  if (value === '') return fallback;
  if (!/^[0-9]{1,6}$/.test(value)) {
    errors.add(name, 'not_an_integer', `${name} must be a whole number from ${min} to ${max}`);
    return fallback;
  }
  const number = Number(value);
  if (number < min || number > max) errors.add(name, 'out_of_range', `${name} must be from ${min} to ${max}`);
  return number;
}

function distinctBy(values: readonly string[], key: (value: string) => string): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const folded = key(value);
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

/** Validates the query of `GET /api/v1/search`. */
export function parseSearchParams(query: unknown): Parsed<SearchParams> {
  const errors = new Errors();
  const q = single(query, 'q', errors);
  if (q !== undefined) {
    if (q.trim() === '') errors.add('q', 'required', 'q is required');
    else if (codePointLength(q) > SEARCH_PARAM_LIMITS.maxQueryLength) {
      errors.add('q', 'too_long', `q must be at most ${SEARCH_PARAM_LIMITS.maxQueryLength} characters`);
    }
  }
  const locales = localesOf(query, errors);

  const sortValue = single(query, 'sort', errors);
  const sort = sortValue === undefined || sortValue === '' ? SEARCH_PARAM_DEFAULTS.sort : sortValue;
  if (!(SORT_ORDERS as readonly string[]).includes(sort)) {
    errors.add('sort', 'invalid_choice', `sort must be one of ${SORT_ORDERS.join(', ')}`);
  }
  const size = integer(query, 'size', SEARCH_PARAM_DEFAULTS.size, SEARCH_PARAM_LIMITS.minSize, SEARCH_PARAM_LIMITS.maxSize, errors);
  const page = integer(query, 'page', SEARCH_PARAM_DEFAULTS.page, SEARCH_PARAM_LIMITS.minPage, SEARCH_PARAM_LIMITS.maxPage, errors);

  const slugPrefixes = (repeatable(query, 'slug_prefix', errors) ?? []).map((prefix) => prefix.replace(/^\/+/, ''));
  if (slugPrefixes.some((prefix) => CONTROL.test(prefix))) errors.add('slug_prefix', 'invalid', 'slug_prefix must not contain control characters');
  if (slugPrefixes.some((prefix) => codePointLength(prefix) > SEARCH_PARAM_LIMITS.maxSlugPrefixLength)) {
    errors.add('slug_prefix', 'too_long', `slug_prefix must be at most ${SEARCH_PARAM_LIMITS.maxSlugPrefixLength} characters`);
  }

  const exactValue = single(query, 'exact', errors);
  if (exactValue !== undefined && exactValue !== '' && !EXACT_VALUES.includes(exactValue)) {
    errors.add('exact', 'invalid_choice', `exact must be one of ${EXACT_VALUES.join(', ')}`);
  }

  if (!errors.empty) return { ok: false, body: { errors: errors.fields } };
  return {
    ok: true,
    value: {
      q: q as string,
      locales,
      sort: sort as SortOrder,
      size,
      page,
      slugPrefixes: distinctBy(slugPrefixes, (prefix) => prefix.toLowerCase()),
      exact: exactValue === '' || exactValue === undefined ? SEARCH_PARAM_DEFAULTS.exact : exactValue === '1',
    },
  };
}

/**
 * The `locale` values, checked: distinct (case-insensitively), in the order given; the default locale when none is
 * given. Search and autocomplete read them alike.
 */
function localesOf(query: unknown, errors: Errors): string[] {
  const locales = repeatable(query, 'locale', errors) ?? [];
  if (locales.some((locale) => !SEARCH_LOCALE.test(locale))) errors.add('locale', 'invalid', 'locale must be a locale code such as en-US');
  return locales.length === 0 ? [SEARCH_PARAM_DEFAULTS.locale] : distinctBy(locales, (locale) => locale.toLowerCase());
}

export interface AutocompleteParams {
  q: string;
  /** Distinct locales, in the order given (see SearchParams.locales). */
  locales: string[];
}

/**
 * Validates the query of `GET /api/search/autocomplete`: `q` present, not empty, given once, at most 200 characters;
 * `locale` as search takes it.
 */
export function parseAutocompleteParams(query: unknown): Parsed<AutocompleteParams> {
  const errors = new Errors();
  const q = single(query, 'q', errors);
  if (q === '') errors.add('q', 'required', 'q is required');
  else if (q !== undefined && codePointLength(q) > SEARCH_PARAM_LIMITS.maxAutocompleteLength) {
    errors.add('q', 'too_long', `q must be at most ${SEARCH_PARAM_LIMITS.maxAutocompleteLength} characters`);
  }
  const locales = localesOf(query, errors);
  return errors.empty ? { ok: true, value: { q: q as string, locales } } : { ok: false, body: { errors: errors.fields } };
}

/**
 * How long a shared cache (the edge, a CDN) keeps a search or autocomplete answer: long enough to absorb a burst of
 * the same query, short enough that a published, renamed or unpublished post shows through the edge within seconds,
 * as its pages do (the edge cannot be told which cached searches a change alters).
 */
const SHARED_CACHE_SECONDS = 1;

/**
 * Autocomplete answers for `q` of 1–9 code points may be kept by a browser for an hour (the spec's `public,
 * max-age=3600`), by a shared cache for a second: an edge that kept one an hour would offer an unpublished post's title
 * for that hour, to every reader. Longer ones are not kept.
 */
export function autocompleteCacheControl(q: string): string | undefined {
  const length = codePointLength(q);
  return length >= 1 && length <= 9 ? `public, max-age=3600, s-maxage=${SHARED_CACHE_SECONDS}` : undefined;
}

/**
 * Successful search answers: a shared cache (the edge, a CDN) may keep one a second (SHARED_CACHE_SECONDS), a browser
 * 10 s, so a search through the edge reflects a change to the index within seconds, and in a browser that asked before
 * within 11 s. A browser keeps it at all because a repeated submit or a back navigation asks the same URL again at once.
 */
export const SEARCH_CACHE_CONTROL = `public, max-age=10, s-maxage=${SHARED_CACHE_SECONDS}`;
