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
import { ownCopy } from './terms.js';

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

/**
 * A function of a language (or a set of them, as one array) and a term, remembered (it never answers undefined: that
 * marks what is not remembered), as the function of the term in one language: a caller with many terms of one
 * language (a page) finds the language's values once.
 */
function rememberedPerLanguage<L extends object, T extends NonNullable<unknown> | null>(compute: (language: L, term: string) => T): (language: L) => (term: string) => T {
  const remembered = new WeakMap<L, (term: string) => T>();
  return (language) => {
    let within = remembered.get(language);
    if (within === undefined) {
      const values = new Map<string, T>();
      within = (term) => {
        const known = values.get(term);
        if (known !== undefined) return known;
        // What is computed from the term's own copy holds no view of the page the term was read from (see ownCopy).
        const own = ownCopy(term);
        const value = compute(language, own);
        if (values.size >= REMEMBERED_PER_LANGUAGE) values.clear();
        values.set(own, value);
        return value;
      };
      remembered.set(language, within);
    }
    return within;
  };
}

const stemsIn = rememberedPerLanguage((language: StemLanguage, term) => (term.length < MIN_STEMMED_LENGTH || HAS_DIGIT.test(term) ? term : language.stem(term)));

/** The stem of a folded term in a language; the term itself when it is not stemmed. Remembered. */
export function stemOf(language: StemLanguage, term: string): string {
  return stemsIn(language)(term);
}

/**
 * What marks a stem among an index's terms (a noncharacter, never part of a term): stems stand in columns of their
 * own, and the marker keeps them out of everything that lists an index's words ("did you mean", completions).
 */
export const STEM_MARKER = '\uFDD0';

/**
 * The stem tokens of texts' terms in some languages: the marked stem of each term whose stem differs from it, once
 * each, in order of first appearance. Once: stems are matched word by word, never as phrases, so their positions say
 * nothing, and a page's other forms of a word count as one match of it (its forms as typed are what bm25 weighs by
 * frequency).
 */
export function stemTokens(languages: readonly StemLanguage[], ...texts: (readonly string[])[]): string[] {
  const tokensOf = stemTokensIn(languages);
  const tokens: string[] = [];
  const seen = new Set<string>();
  for (const terms of texts) {
    for (const term of terms) {
      for (const token of tokensOf(term)) {
        if (!seen.has(token)) {
          seen.add(token);
          tokens.push(token);
        }
      }
    }
  }
  return tokens;
}

/** The marked stems of a term in some languages, once each (one lookup per term of a page). Remembered per set. */
const stemTokensIn = rememberedPerLanguage((languages: readonly StemLanguage[], term): readonly string[] => {
  const tokens: string[] = [];
  for (const language of languages) {
    const stem = stemOf(language, term);
    const token = stem === term ? null : STEM_MARKER + stem;
    if (token !== null && !tokens.includes(token)) tokens.push(token);
  }
  return tokens;
});
