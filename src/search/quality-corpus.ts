import { seededRandom } from '../seeded-random.js';
import type { SyntheticDocument } from './synthetic.js';
import {
  ADJECTIVES,
  FUNCTION_WORDS,
  IDENTIFIER_NOUNS,
  IDENTIFIER_ROOTS,
  IDENTIFIER_VERBS,
  KNOWN_IDENTIFIERS,
  NAMESPACES,
  NOUNS,
  SHORT_NAMES,
  VERBS,
} from './quality-words.js';

/**
 * A second corpus for search-quality evaluation (`npm run bench search-quality`), of another shape than synthetic.ts's:
 * real English words (quality-words.ts) in inflected forms, long documents (3–40 KB of HTML by default), and code
 * identifiers — camelCase, PascalCase, dotted, snake_case, `ns::name` and letter-digit names such as `svg2png` — as
 * titles of about 40 % of the pages and in the text of every kind. The documents have the `index.json` shape of
 * synthetic.ts, in one locale (en-US). Deterministic for a given seed; pure.
 */

export interface QualityCorpusOptions {
  /** Documents to generate. @default 8_000 */
  documents?: number;
  /** PRNG seed; the same seed gives the same corpus. @default 1 */
  seed?: number;
  /** Smallest body, in bytes of HTML. @default 3_072 */
  minBytes?: number;
  /** Largest body before its last block, in bytes of HTML (sizes are drawn log-uniformly in between). @default 40_960 */
  maxBytes?: number;
  /** Share of the pages whose title is a code identifier. @default 0.4 */
  identifierShare?: number;
}

export const QUALITY_CORPUS_DEFAULTS = { documents: 8_000, seed: 1, minBytes: 3_072, maxBytes: 40_960, identifierShare: 0.4 } as const;

/** What a page's title is: English words, or a code identifier of one of these styles. */
export type TitleKind = 'prose' | 'camelCase' | 'PascalCase' | 'dotted' | 'snake_case' | 'namespaced' | 'letter-digit';

export interface QualityDocument extends SyntheticDocument {
  kind: TitleKind;
}

// ---------------------------------------------------------------------------------------------------------------
// Inflection

/** `stop` → `stopp…`: a one-syllable word ending in one vowel and one consonant (not w, x or y) doubles it. */
function doublesFinalConsonant(word: string): boolean {
  return /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(word);
}

/** Plural of a noun, or third person singular of a verb: `box` → `boxes`, `city` → `cities`, `tree` → `trees`. */
export function sForm(word: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** Past tense of a regular verb: `bake` → `baked`, `carry` → `carried`, `stop` → `stopped`, `visit` → `visited`. */
export function pastForm(verb: string): string {
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  if (doublesFinalConsonant(verb)) return `${verb}${verb.at(-1) ?? ''}ed`;
  return `${verb}ed`;
}

/** Present participle: `bake` → `baking`, `agree` → `agreeing`, `stop` → `stopping`, `carry` → `carrying`. */
export function ingForm(verb: string): string {
  if (verb.endsWith('ee')) return `${verb}ing`;
  if (verb.endsWith('e')) return `${verb.slice(0, -1)}ing`;
  if (doublesFinalConsonant(verb)) return `${verb}${verb.at(-1) ?? ''}ing`;
  return `${verb}ing`;
}

export interface Lexicon {
  /** Every base word (noun or verb or both), deduplicated, in the order of quality-words.ts. */
  lemmas: readonly string[];
  nouns: readonly string[];
  verbs: readonly string[];
  /** The forms of each base word: itself, its plural or third person, and for verbs its past and -ing forms. */
  formsOf: ReadonlyMap<string, readonly string[]>;
  /** The base word of each form. */
  lemmaOf: ReadonlyMap<string, string>;
}

let lexicon: Lexicon | undefined;

/** The English vocabulary of quality-words.ts with every word's inflected forms. */
export function englishLexicon(): Lexicon {
  if (lexicon !== undefined) return lexicon;
  const nouns = [...new Set(NOUNS)];
  const verbs = [...new Set(VERBS)];
  const formsOf = new Map<string, string[]>();
  const add = (lemma: string, forms: string[]) => {
    const known = formsOf.get(lemma) ?? [];
    formsOf.set(lemma, [...new Set([...known, ...forms])]);
  };
  for (const noun of nouns) add(noun, [noun, sForm(noun)]);
  for (const verb of verbs) add(verb, [verb, sForm(verb), pastForm(verb), ingForm(verb)]);
  const lemmaOf = new Map<string, string>();
  for (const [lemma, forms] of formsOf) for (const form of forms) if (!lemmaOf.has(form)) lemmaOf.set(form, lemma);
  lexicon = { lemmas: [...formsOf.keys()], nouns, verbs, formsOf, lemmaOf };
  return lexicon;
}

/** The other inflections of `word` (any case) in the English lexicon; empty when the word is not one of its forms. */
export function otherForms(word: string): string[] {
  const { formsOf, lemmaOf } = englishLexicon();
  const lower = word.toLowerCase();
  const lemma = lemmaOf.get(lower);
  return lemma === undefined ? [] : (formsOf.get(lemma) ?? []).filter((form) => form !== lower);
}

// ---------------------------------------------------------------------------------------------------------------
// Identifiers

/** A title that is one code name: no spaces, and either a separator (`.`, `::`, `_`), a case change or a digit in a word. */
export function isIdentifier(title: string): boolean {
  if (/\s/.test(title)) return false;
  return /[._]|::/.test(title) || /[a-z][A-Z]/.test(title) || /^[A-Z]{2,}[a-z]/.test(title) || (/\p{L}/u.test(title) && /\p{N}/u.test(title));
}

/**
 * The segments of a code name between its separators (`.`, `::`, `_`, `-`, `/`), each split into its words at case
 * changes and letter-digit boundaries: `XMLHttpRequest` → `XML`, `Http`, `Request`; `svg2png` → `svg`, `2`, `png`.
 */
export function identifierSegments(identifier: string): string[][] {
  return identifier
    .split(/::|[._\-/]+/)
    .filter((segment) => segment !== '')
    .map((segment) => segment.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [segment]);
}

/** The words of a code name, lower-cased, in order: `getElementById` → `get element by id`. */
export function identifierParts(identifier: string): string[] {
  return identifierSegments(identifier).flat().map((part) => part.toLowerCase());
}

// ---------------------------------------------------------------------------------------------------------------
// Generation

type Random = () => number;

const pickFrom = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Draws from `items` by Zipf's law over a seeded order (rank r has weight 1/r). */
function zipf<T>(items: readonly T[], seed: number): (random: Random) => T {
  const order = [...items];
  const shuffle = seededRandom(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(shuffle() * (i + 1));
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  const cumulative = new Float64Array(order.length);
  let sum = 0;
  for (let rank = 0; rank < order.length; rank++) cumulative[rank] = sum += 1 / (rank + 1);
  return (random) => {
    const target = random() * sum;
    let low = 0;
    let high = order.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return order[low] as T;
  };
}

function nounForm(random: Random, noun: string): string {
  return random() < 0.5 ? noun : sForm(noun);
}

function verbForm(random: Random, verb: string): string {
  const draw = random();
  return draw < 0.25 ? verb : draw < 0.5 ? sForm(verb) : draw < 0.75 ? pastForm(verb) : ingForm(verb);
}

function proseTitle(random: Random, nouns: readonly string[], verbs: readonly string[]): string {
  const noun = () => pickFrom(random, nouns);
  const verb = () => pickFrom(random, verbs);
  const adjective = () => pickFrom(random, ADJECTIVES);
  const words = (() => {
    switch (Math.floor(random() * 7)) {
      case 0:
        return [ingForm(verb()), ...(random() < 0.4 ? [adjective()] : []), sForm(noun())];
      case 1:
        return [noun(), nounForm(random, noun())];
      case 2:
        return ['how', 'to', verb(), 'a', noun()];
      case 3:
        return ['the', noun(), 'of', 'the', nounForm(random, noun())];
      case 4:
        return [sForm(noun()), 'and', sForm(noun())];
      case 5:
        return [noun(), pastForm(verb()), pickFrom(random, ['by', 'with', 'for', 'after']), 'the', noun()];
      default:
        return [adjective(), noun(), nounForm(random, noun())];
    }
  })();
  return capital(words.join(' '));
}

function camelMethod(random: Random): string {
  const verb = pickFrom(random, IDENTIFIER_VERBS);
  return random() < 0.3 ? verb : `${verb}${capital(pickFrom(random, IDENTIFIER_NOUNS))}`;
}

function identifierTitle(random: Random, kind: Exclude<TitleKind, 'prose'>): string {
  const noun = () => pickFrom(random, IDENTIFIER_NOUNS);
  switch (kind) {
    case 'camelCase': {
      const head = `${pickFrom(random, IDENTIFIER_VERBS)}${capital(noun())}`;
      const draw = random();
      if (draw < 0.3) return `${head}${random() < 0.3 ? 's' : ''}By${capital(noun())}`;
      if (draw < 0.6) return `${head}${capital(noun())}`;
      return head;
    }
    case 'PascalCase':
      return Array.from({ length: 2 + Math.floor(random() * 2) }, () => capital(noun())).join('');
    case 'dotted': {
      const draw = random();
      if (draw < 0.45) return `${pickFrom(random, IDENTIFIER_ROOTS)}.prototype.${camelMethod(random)}`;
      if (draw < 0.8) return `${pickFrom(random, IDENTIFIER_ROOTS)}.${camelMethod(random)}`;
      return `${noun()}.${noun()}.${pickFrom(random, IDENTIFIER_VERBS)}`;
    }
    case 'snake_case':
      return [pickFrom(random, IDENTIFIER_VERBS), noun(), ...(random() < 0.5 ? [noun()] : [])].join('_');
    case 'namespaced':
      return `${pickFrom(random, NAMESPACES)}::${random() < 0.5 ? noun() : `${noun()}_${noun()}`}`;
    case 'letter-digit': {
      const draw = random();
      const digit = String(2 + Math.floor(random() * 8));
      if (draw < 0.4) return `${pickFrom(random, SHORT_NAMES)}2${pickFrom(random, SHORT_NAMES)}`;
      if (draw < 0.8) return `${pickFrom(random, SHORT_NAMES)}${digit}`;
      return `${pickFrom(random, SHORT_NAMES)}${digit}${pickFrom(random, ['', '0', '4', '56'])}${pickFrom(random, ['', 'd', 'sum', 'x'])}`;
    }
  }
}

const IDENTIFIER_KINDS: readonly Exclude<TitleKind, 'prose'>[] = ['camelCase', 'PascalCase', 'dotted', 'snake_case', 'namespaced', 'letter-digit'];

/** The titles of a corpus, unique ignoring case: the known code names, generated names and English titles, shuffled. */
function corpusTitles(count: number, seed: number, identifierShare: number): { title: string; kind: TitleKind }[] {
  const random = seededRandom(seed);
  const { nouns, verbs } = englishLexicon();
  const seen = new Set<string>();
  const titles: { title: string; kind: TitleKind }[] = [];
  const add = (title: string, kind: TitleKind) => {
    if (seen.has(title.toLowerCase())) return false;
    seen.add(title.toLowerCase());
    titles.push({ title, kind });
    return true;
  };
  const known = KNOWN_IDENTIFIERS.slice(0, Math.floor(count * identifierShare));
  for (const title of known) add(title, IDENTIFIER_KINDS.find((kind) => kindOf(title) === kind) ?? 'camelCase');
  const identifiers = Math.floor(count * identifierShare);
  for (let attempts = 0; titles.length < identifiers && attempts < identifiers * 50; attempts++) {
    const kind = pickFrom(random, IDENTIFIER_KINDS);
    add(identifierTitle(random, kind), kind);
  }
  for (let attempts = 0; titles.length < count && attempts < count * 50; attempts++) add(proseTitle(random, nouns, verbs), 'prose');
  // eslint-disable-next-line no-restricted-syntax -- an invariant of a benchmark's corpus, seen by no user
  if (titles.length < count) throw new Error(`quality corpus: only ${titles.length} distinct titles of ${count}`);
  for (let i = titles.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [titles[i], titles[j]] = [titles[j] as (typeof titles)[number], titles[i] as (typeof titles)[number]];
  }
  return titles;
}

/** The style of a code name (or `prose` for a title that is not one). */
export function kindOf(title: string): TitleKind {
  if (!isIdentifier(title)) return 'prose';
  if (title.includes('::')) return 'namespaced';
  if (title.includes('.')) return 'dotted';
  if (title.includes('_')) return 'snake_case';
  if (/\d/.test(title) && !/[a-z][A-Z]/.test(title)) return 'letter-digit';
  return /^[A-Z]/.test(title) ? 'PascalCase' : 'camelCase';
}

/** Generates the documents one at a time; the titles (a few hundred KB) are drawn first, so that text can cite them. */
export function* qualityDocuments(options: QualityCorpusOptions = {}): Generator<QualityDocument> {
  const count = options.documents ?? QUALITY_CORPUS_DEFAULTS.documents;
  const seed = options.seed ?? QUALITY_CORPUS_DEFAULTS.seed;
  const minBytes = options.minBytes ?? QUALITY_CORPUS_DEFAULTS.minBytes;
  const maxBytes = Math.max(minBytes, options.maxBytes ?? QUALITY_CORPUS_DEFAULTS.maxBytes);
  const titles = corpusTitles(count, seed, options.identifierShare ?? QUALITY_CORPUS_DEFAULTS.identifierShare);
  const codeNames = titles.filter(({ kind }) => kind !== 'prose').map(({ title }) => title);
  const { nouns, verbs } = englishLexicon();
  const drawNoun = zipf(nouns, seed + 1);
  const drawVerb = zipf(verbs, seed + 2);
  for (let i = 0; i < count; i++) {
    const { title, kind } = titles[i] as (typeof titles)[number];
    const random = seededRandom((Math.imul(seed, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0);
    const pick = <T>(items: readonly T[]) => pickFrom(random, items);
    // The page's own words: a prose title's words as they are written in it, or a code name and its English parts.
    const topic =
      kind === 'prose'
        ? title.toLowerCase().split(' ').filter((word) => englishLexicon().lemmaOf.has(word))
        : identifierParts(title).filter((part) => englishLexicon().lemmaOf.has(part));
    const codeName = () => (kind !== 'prose' && random() < 0.5 ? title : pick(codeNames.length > 0 ? codeNames : KNOWN_IDENTIFIERS));
    const noun = () => (topic.length > 0 && random() < 0.08 ? pick(topic) : nounForm(random, drawNoun(random)));
    const verb = () => (topic.length > 0 && random() < 0.04 ? pick(topic) : verbForm(random, drawVerb(random)));
    /** A noun after `a`: singular, or a topic word as the title has it. */
    const oneNoun = () => (topic.length > 0 && random() < 0.08 ? pick(topic) : drawNoun(random));
    const adjective = () => (random() < 0.3 ? `${pick(ADJECTIVES)} ` : '');
    const preposition = () => pick(FUNCTION_WORDS.slice(5));
    const sentence = () => {
      switch (Math.floor(random() * 6)) {
        case 0:
          return `The ${adjective()}${noun()} ${verb()} the ${noun()} ${preposition()} the ${noun()}.`;
        case 1:
          return `${capital(noun())} and ${noun()} ${verb()} ${preposition()} a ${adjective()}${oneNoun()}.`;
        case 2:
          return `We ${verb()} the ${noun()} and ${verb()} its ${noun()} ${preposition()} the ${noun()}.`;
        case 3:
          return `A ${oneNoun()} of ${noun()} is ${verb()} the ${adjective()}${noun()}.`;
        case 4:
          return `When the ${noun()} ${verb()}, ${noun()} ${verb()} ${preposition()} the ${noun()} and the ${noun()}.`;
        default:
          return `Call <code>${codeName()}()</code> to ${verb()} the ${noun()} of a ${oneNoun()}.`;
      }
    };
    const paragraph = () => `<p>${Array.from({ length: 3 + Math.floor(random() * 5) }, sentence).join(' ')}</p>`;
    const block = () => {
      const draw = random();
      if (draw < 0.7) return paragraph();
      if (draw < 0.8) return `<ul>${Array.from({ length: 3 + Math.floor(random() * 3) }, () => `<li>${sentence()}</li>`).join('')}</ul>`;
      if (draw < 0.95) {
        const receiver = pick(IDENTIFIER_NOUNS);
        return `<pre class="brush: js"><code>const ${receiver} = ${codeName()}(${pick(IDENTIFIER_NOUNS)});\n${codeName()}(${receiver});</code></pre>`;
      }
      return `<div class="notecard note"><p><strong>Note:</strong> ${sentence()}</p></div>`;
    };
    const targetBytes = Math.round(minBytes * Math.exp(random() * Math.log(maxBytes / minBytes)));
    const body: QualityDocument['json']['doc']['body'] = [];
    let bytes = 0;
    while (bytes < targetBytes) {
      const sectionTitle = capital(`${noun()} ${random() < 0.5 ? 'and' : 'of'} ${noun()}`);
      const blocks: string[] = [];
      const sectionBytes = Math.min(targetBytes - bytes, 1500 + Math.floor(random() * 4000));
      let length = 0;
      while (length < sectionBytes) {
        const html = block();
        blocks.push(html);
        length += html.length;
      }
      body.push({ type: 'prose', value: { id: `${sectionTitle.toLowerCase().replace(/\s+/g, '_')}_${body.length}`, title: sectionTitle, content: blocks.join('\n') } });
      bytes += length;
    }
    const summary = kind === 'prose' ? sentence() : `The <code>${title}</code> ${pick(['method', 'function', 'class', 'property', 'program'])} ${verb()} the ${noun()}.`;
    const slug = `docs/Quality/${title.replace(/[^\p{L}\p{N}]+/gu, '_')}_${i}`;
    yield {
      kind,
      folder: `en-us/${slug.toLowerCase()}`,
      json: {
        doc: {
          title,
          summary,
          mdn_url: `/en-US/${slug}`,
          locale: 'en-US',
          popularity: Math.round(Math.pow(random(), 8) * 1e4) / 1e4,
          body,
        },
      },
    };
  }
}
