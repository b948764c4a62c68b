import { stemLanguageOf, stemLanguagesOf, stemOf, stemTokens, type StemLanguage } from './stem.js';
import { groupsOf, termsOf } from './terms.js';

/**
 * What a page becomes for the full-text engine: each field's terms (joined by spaces), the marked stems of the title
 * and of the rest in the page's languages (see stemLanguagesOf), and the key its title is found by as a whole query. Pure: the indexer's
 * reading threads compute it beside reading the file, so that the one thread that writes the index does not.
 */
export interface DocumentAnalysis {
  title: string;
  summary: string;
  body: string;
  titleStems: string;
  textStems: string;
  exactKey: string;
}

/** The analysis of a page's fields in its locale. */
export function analyzeDocument(document: { title: string; summary: string; body: string; locale: string }): DocumentAnalysis {
  const languages = stemLanguagesOf(document.locale);
  const title = termsOf(document.title);
  const summary = termsOf(document.summary);
  const body = termsOf(document.body);
  return {
    title: title.join(' '),
    summary: summary.join(' '),
    body: body.join(' '),
    titleStems: stemTokens(languages, title).join(' '),
    textStems: stemTokens(languages, summary, body).join(' '),
    exactKey: exactKeyOf(document.title, stemLanguageOf(document.locale)),
  };
}

/**
 * The key a title is found by as the whole query (the exact-title boost): the stems (in `language`, when it has a
 * stemmer) of the pieces of its words run together, so that `getElementsByClassName` and `get elements by class name`
 * name the same title, `Cart layout` is `cart-layout`, and `Kettles ring` is `Kettle rings`: a query that names the
 * page up to word forms and splitting still names it. Between the forms, bm25 prefers the words as typed.
 */
export function exactKeyOf(text: string, language: StemLanguage | undefined): string {
  return groupsOf(text)
    .flatMap((group) => group.pieces)
    .map((piece) => (language === undefined ? piece : stemOf(language, piece)))
    .join('');
}

/** Whether a value is a DocumentAnalysis (one computed in another thread reaches the engine as plain data). */
export function isDocumentAnalysis(value: unknown): value is DocumentAnalysis {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return ['title', 'summary', 'body', 'titleStems', 'textStems', 'exactKey'].every((field) => typeof fields[field] === 'string');
}
