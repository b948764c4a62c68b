/**
 * A locale as a path segment of the site (`en`, `en-US`): the renderer's routes match it and the edge's nginx map
 * copies the search page shell by it, so both must read this one pattern.
 */
export const LOCALE_SEGMENT = '[a-z]{2,3}(?:-[A-Z]{2})?';

/** A locale code as the search API and search page accept it, as BCP 47 writes it: `en-US`, `pt-BR`, `zh-Hant-TW`. */
export const SEARCH_LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;
