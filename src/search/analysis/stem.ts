import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as english } from 'stemmer';
import { ownCopy, type TermTable } from './term-table.js';

/**
 * Stemming per locale: English (Porter's algorithm, the `stemmer` package) for `en*`, the Snowball stemmer of the
 * locale's language (`@orama/stemmers`, generated from Snowball) where there is one, none otherwise. A stem is what the other forms of a word meet on (`measure`, `measuring`, `measured` → `measur`);
 * it is not shown to anyone. Stems are taken of folded terms (see terms.ts): the stemmers read lower-case text, and
 * the folding already dropped the accents some of them would have removed themselves. Pure: no I/O.
 */

/** A language the analysis stems, with the Elasticsearch filter that stems it the same way. */
export interface StemLanguage {
  name: string;
  stem: (term: string) => string;
  /** The token filter of an Elasticsearch analyzer with the same algorithm. */
  elasticsearch: { type: 'stemmer'; language: string } | { type: 'snowball'; language: string };
}

const snowball = (name: string, stem: (term: string) => string, language: string): StemLanguage => ({ name, stem, elasticsearch: { type: 'snowball', language } });

/** By the primary subtag of a locale (`en` of `en-US`), lower-cased. */
const LANGUAGES: ReadonlyMap<string, StemLanguage> = new Map([
  // Elasticsearch's `english` stemmer is Porter's, as this one; its Snowball `English` is Porter2.
  ['en', { name: 'english', stem: english, elasticsearch: { type: 'stemmer', language: 'english' } }],
  ['da', snowball('danish', danish, 'Danish')],
  ['de', snowball('german', german, 'German')],
  ['es', snowball('spanish', spanish, 'Spanish')],
  ['fi', snowball('finnish', finnish, 'Finnish')],
  ['fr', snowball('french', french, 'French')],
  ['ga', snowball('irish', irish, 'Irish')],
  ['hu', snowball('hungarian', hungarian, 'Hungarian')],
  ['it', snowball('italian', italian, 'Italian')],
  ['lt', snowball('lithuanian', lithuanian, 'Lithuanian')],
  ['nb', snowball('norwegian', norwegian, 'Norwegian')],
  ['nl', snowball('dutch', dutch, 'Dutch')],
  ['nn', snowball('norwegian', norwegian, 'Norwegian')],
  ['no', snowball('norwegian', norwegian, 'Norwegian')],
  ['pt', snowball('portuguese', portuguese, 'Portuguese')],
  ['ro', snowball('romanian', romanian, 'Romanian')],
  ['ru', snowball('russian', russian, 'Russian')],
  ['sv', snowball('swedish', swedish, 'Swedish')],
  ['tr', snowball('turkish', turkish, 'Turkish')],
]);

/** Every language stemmed, once each. */
export const STEM_LANGUAGES: readonly StemLanguage[] = [...new Map([...LANGUAGES.values()].map((language) => [language.name, language])).values()];

/** The language whose stemmer a locale's text takes, or undefined for a locale without one. */
export function stemLanguageOf(locale: string): StemLanguage | undefined {
  const primary = locale.toLowerCase().split(/[-_]/, 1)[0] ?? '';
  return LANGUAGES.get(primary);
}

const ENGLISH = LANGUAGES.get('en') as StemLanguage;

/**
 * The languages a locale's text is stemmed in, and its queries: its own language where it has a stemmer, and English
 * in every locale. Technical writing in any language is full of English words — names from code, terms left
 * untranslated, whole passages not translated yet — and a reader searches them in other forms too. English rules
 * rarely touch another language's words, and a word met only by its stem scores below the word as typed.
 */
export function stemLanguagesOf(locale: string): readonly StemLanguage[] {
  const own = stemLanguageOf(locale);
  if (own === undefined || own === ENGLISH) return ONLY_ENGLISH;
  let languages = WITH_ENGLISH.get(own);
  if (languages === undefined) {
    languages = [own, ENGLISH];
    WITH_ENGLISH.set(own, languages);
  }
  return languages;
}

// One array per set of languages, so that what is remembered per set (see stemTokens) is found again.
const ONLY_ENGLISH: readonly StemLanguage[] = [ENGLISH];
const WITH_ENGLISH = new Map<StemLanguage, readonly StemLanguage[]>();

/** Terms shorter than this, or holding a digit, are not stemmed: they are names, numbers and codes more than words. */
const MIN_STEMMED_LENGTH = 3;
const HAS_DIGIT = /\p{N}/u;

/** Values remembered per language and term, at most; forgotten all at once when full (a vocabulary is Zipfian: most come back). */
const REMEMBERED_PER_LANGUAGE = 100_000;

/** The stems found per language, by term. */
const stemsByLanguage = new WeakMap<StemLanguage, Map<string, string>>();

/** The stem of a folded term in a language; the term itself when it is not stemmed. Remembered. */
export function stemOf(language: StemLanguage, term: string): string {
  let stems = stemsByLanguage.get(language);
  if (stems === undefined) {
    stems = new Map();
    stemsByLanguage.set(language, stems);
  }
  const known = stems.get(term);
  if (known !== undefined) return known;
  // What is computed from the term's own copy holds no view of the page the term was read from (see ownCopy).
  const own = ownCopy(term);
  const stem = own.length < MIN_STEMMED_LENGTH || HAS_DIGIT.test(own) ? own : language.stem(own);
  if (stems.size >= REMEMBERED_PER_LANGUAGE) stems.clear();
  stems.set(own, stem);
  return stem;
}

/**
 * What marks a stem among an index's terms (a noncharacter, never part of a term): stems stand in columns of their
 * own, and the marker keeps them out of everything that lists an index's words ("did you mean", completions).
 */
export const STEM_MARKER = '\uFDD0';

/**
 * The stem tokens of terms (ids of `table`) in some languages: the marked stem of each term whose stem differs from
 * it, once each, in order of first appearance. Once: stems are matched word by word, never as phrases, so their
 * positions say nothing, and a page's other forms of a word count as one match of it (its forms as typed are what
 * bm25 weighs by frequency).
 */
export function stemTokensOf(table: TermTable, languages: readonly StemLanguage[], ...termLists: (readonly number[])[]): string[] {
  let stems = stemsByLanguages.get(languages);
  if (stems === undefined) {
    stems = new StemsById(languages);
    stemsByLanguages.set(languages, stems);
  }
  return stems.tokensOf(table, termLists);
}

/** What is remembered per set of languages (one array per set, see stemLanguagesOf). */
const stemsByLanguages = new WeakMap<readonly StemLanguage[], StemsById>();

/**
 * The stem tokens of one set of languages, remembered by term id (an array index, not a lookup by the term's text),
 * for one table and generation of it at a time; each token has an id too, so that a page's are kept once each by
 * marking them with the number of the list being made.
 */
class StemsById {
  readonly #languages: readonly StemLanguage[];
  #table: TermTable | undefined;
  #generation = -1;
  /** Per term id, the ids of its tokens once looked at. */
  #tokensOfTerm: (readonly number[] | undefined)[] = [];
  #tokens: string[] = [];
  #tokenIds = new Map<string, number>();
  /** Per token id, the last list it was put in. */
  #lastList: number[] = [];
  #list = 0;

  constructor(languages: readonly StemLanguage[]) {
    this.#languages = languages;
  }

  tokensOf(table: TermTable, termLists: readonly (readonly number[])[]): string[] {
    if (table !== this.#table || table.generation !== this.#generation) {
      this.#table = table;
      this.#generation = table.generation;
      this.#tokensOfTerm = [];
      this.#tokens = [];
      this.#tokenIds = new Map();
      this.#lastList = [];
    }
    const list = ++this.#list;
    const found: string[] = [];
    for (const terms of termLists) {
      for (const term of terms) {
        for (const token of this.#tokensOfTerm[term] ?? this.#lookAt(table, term)) {
          if (this.#lastList[token] === list) continue;
          this.#lastList[token] = list;
          found.push(this.#tokens[token] as string);
        }
      }
    }
    return found;
  }

  #lookAt(table: TermTable, id: number): readonly number[] {
    // Ids come nearly in order: filled up to this one, the array stays a plain list rather than a sparse one.
    while (this.#tokensOfTerm.length <= id) this.#tokensOfTerm.push(undefined);
    const term = table.term(id);
    const tokens: number[] = [];
    for (const language of this.#languages) {
      const stem = stemOf(language, term);
      if (stem === term) continue;
      const token = STEM_MARKER + stem;
      let tokenId = this.#tokenIds.get(token);
      if (tokenId === undefined) {
        tokenId = this.#tokens.length;
        this.#tokens.push(token);
        this.#lastList.push(0);
        this.#tokenIds.set(token, tokenId);
      }
      if (!tokens.includes(tokenId)) tokens.push(tokenId);
    }
    this.#tokensOfTerm[id] = tokens;
    return tokens;
  }
}
