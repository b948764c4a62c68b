/**
 * A locale as a path segment of the site (`en`, `en-US`): the renderer's routes match it and the edge's nginx map
 * copies the search page shell by it, so both must read this one pattern.
 */
export const LOCALE_SEGMENT = '[a-z]{2,3}(?:-[A-Z]{2})?';

/** A locale code as the search API and search page accept it, as BCP 47 writes it: `en-US`, `pt-BR`, `zh-Hant-TW`. */
export const SEARCH_LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/**
 * A page's language as BCP 47 spells it, for a locale the search API accepts (`en-us` → `en-US`, `zh_hant_tw` →
 * `zh-Hant-TW`); undefined when it is none. The from-site build files a page under it and the search box asks for it,
 * so both must read a page's `lang` by this one rule.
 */
export function canonicalLocale(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 35) return undefined;
  try {
    const [locale] = Intl.getCanonicalLocales(value.trim().replaceAll('_', '-'));
    return locale !== undefined && SEARCH_LOCALE.test(locale) ? locale : undefined;
  } catch {
    return undefined;
  }
}
