import { stemLanguageOf, stemLanguagesOf, stemOf, stemTokensOf, type StemLanguage } from './stem.js';
import { TermTable } from './term-table.js';
import { groupsOf, scanTerms, type TermSink } from './terms.js';

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
  PAGE_TERMS.makeRoom();
  const languages = stemLanguagesOf(document.locale);
  const title = fieldTerms(document.title);
  const summary = fieldTerms(document.summary);
  const body = fieldTerms(document.body);
  return {
    title: title.terms.join(' '),
    summary: summary.terms.join(' '),
    body: body.terms.join(' '),
    titleStems: stemTokensOf(PAGE_TERMS, languages, title.ids).join(' '),
    textStems: stemTokensOf(PAGE_TERMS, languages, summary.ids, body.ids).join(' '),
    exactKey: exactKeyOf(document.title, stemLanguageOf(document.locale)),
  };
}

/** The terms of every page analysed on this thread, by id (see term-table.ts). */
const PAGE_TERMS = new TermTable();

/** A field's terms, and their ids in PAGE_TERMS. */
class FieldTerms implements TermSink {
  readonly terms: string[] = [];
  readonly ids: number[] = [];

  word(text: string, start: number, end: number, capital: boolean, hash: number): void {
    this.#add(PAGE_TERMS.word(text, start, end, capital, hash));
  }

  term(term: string): void {
    this.#add(PAGE_TERMS.intern(term));
  }

  #add(id: number): void {
    this.ids.push(id);
    this.terms.push(PAGE_TERMS.term(id));
  }
}

function fieldTerms(text: string): FieldTerms {
  const field = new FieldTerms();
  scanTerms(text, field);
  return field;
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
