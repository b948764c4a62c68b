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
    title: title.text,
    summary: summary.text,
    body: body.text,
    titleStems: stemTokensOf(PAGE_TERMS, languages, title.ids).join(' '),
    textStems: stemTokensOf(PAGE_TERMS, languages, summary.ids, body.ids).join(' '),
    exactKey: exactKeyOf(document.title, stemLanguageOf(document.locale)),
  };
}

/** The terms of every page analysed on this thread, by id (see term-table.ts). */
const PAGE_TERMS = new TermTable();

/**
 * Where the field being read has its terms written, joined by spaces, as Latin-1 bytes: copying each term's
 * characters as it is read costs a fraction of joining an array of the terms, and the text made from the bytes is a
 * one-byte string. Grown when a field needs more; one field at a time, each made a string before the next is read.
 */
let joinedBytes = Buffer.allocUnsafeSlow(1 << 16);

/** A field's terms: their ids in PAGE_TERMS, and the terms joined by spaces. */
class FieldTerms implements TermSink {
  readonly ids: number[] = [];
  #length = 0;
  /** A term held a character beyond Latin-1: the text is joined from the terms instead of written as bytes. */
  #wide = false;

  word(text: string, start: number, end: number, capital: boolean, hash: number): void {
    this.ids.push(PAGE_TERMS.word(text, start, end, capital, hash));
    if (this.#wide) return;
    // A plain word is ASCII: its term is its characters, the first lower-cased when a capital.
    const bytes = this.#room(end - start + 1);
    let at = this.#length;
    if (at > 0) bytes[at++] = 0x20;
    bytes[at++] = capital ? text.charCodeAt(start) | 0x20 : text.charCodeAt(start);
    for (let i = start + 1; i < end; i++) bytes[at++] = text.charCodeAt(i);
    this.#length = at;
  }

  term(term: string): void {
    this.ids.push(PAGE_TERMS.intern(term));
    if (this.#wide) return;
    const bytes = this.#room(term.length + 1);
    let at = this.#length;
    if (at > 0) bytes[at++] = 0x20;
    for (let i = 0; i < term.length; i++) {
      const code = term.charCodeAt(i);
      if (code > 0xff) {
        this.#wide = true;
        return;
      }
      bytes[at++] = code;
    }
    this.#length = at;
  }

  /** The terms joined by spaces. */
  text(): string {
    return this.#wide ? this.ids.map((id) => PAGE_TERMS.term(id)).join(' ') : joinedBytes.toString('latin1', 0, this.#length);
  }

  /** The shared bytes, with room for `more` after what this field wrote. */
  #room(more: number): Buffer {
    const needed = this.#length + more;
    if (needed > joinedBytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, joinedBytes.length * 2));
      joinedBytes.copy(grown, 0, 0, this.#length);
      joinedBytes = grown;
    }
    return joinedBytes;
  }
}

/** A field's term ids and text (see FieldTerms). */
function fieldTerms(text: string): { ids: number[]; text: string } {
  const field = new FieldTerms();
  scanTerms(text, field);
  return { ids: field.ids, text: field.text() };
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
