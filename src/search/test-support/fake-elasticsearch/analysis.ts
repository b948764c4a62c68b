import { EsError } from './types.js';
import type { Analyzer, FieldMapping, Json, Token } from './types.js';

const ASCII_EXTRA: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH' };

function asciiFold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆøØœŒđĐłŁþÞ]/g, (character) => ASCII_EXTRA[character] ?? character);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

function standardTokenizer(text: string): Token[] {
  const tokens: Token[] = [];
  for (const segment of segmenter.segment(text)) {
    if (segment.isWordLike !== true) continue;
    // Lucene's max_token_length: longer runs are split every 255 characters.
    for (let at = 0; at < segment.segment.length; at += 255) {
      const piece = segment.segment.slice(at, at + 255);
      tokens.push({ term: piece, start: segment.index + at, end: segment.index + at + piece.length, position: tokens.length });
    }
  }
  return tokens;
}

/** Elasticsearch's pattern tokenizer: with `group` 0 the matches of the pattern are the tokens, else the text between them. */
function patternTokenizer(name: string, definition: Json): Analyzer {
  const pattern = new RegExp(String(definition['pattern'] ?? '\\W+'), 'gu');
  const group = Number(definition['group'] ?? -1);
  if (group !== 0 && group !== -1) throw new EsError(400, 'illegal_argument_exception', `tokenizer [${name}]: the fake supports group 0 and -1 only`);
  return (text) => {
    const tokens: Token[] = [];
    const push = (term: string, start: number) => {
      if (term !== '') tokens.push({ term, start, end: start + term.length, position: tokens.length });
    };
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      if (group === 0) push(match[0], match.index);
      else push(text.slice(last, match.index), last);
      last = match.index + match[0].length;
    }
    if (group === -1) push(text.slice(last), last);
    return tokens;
  };
}

type TokenFilter = (tokens: Token[]) => Token[];

/**
 * Filters the stand-in accepts and does not model: each passes its tokens through unchanged. Re-implementing Lucene's
 * word splitting and stemmers here would test the stand-in, not the engine; the cluster's own behaviour is checked by
 * the contract suite's language-analysis tests on a live cluster (ELASTICSEARCH_TEST_URL). So on the stand-in an
 * identifier such as `snake_case` stays one term, and no word is stemmed.
 */
const PASS_THROUGH_TYPES = new Set(['word_delimiter_graph', 'flatten_graph', 'stemmer', 'snowball', 'keyword_marker']);
const passThrough: TokenFilter = (tokens) => tokens;

function builtInFilter(name: string): TokenFilter | undefined {
  if (PASS_THROUGH_TYPES.has(name)) return passThrough;
  if (name === 'lowercase') return (tokens) => tokens.map((token) => ({ ...token, term: token.term.toLowerCase() }));
  if (name === 'asciifolding') return (tokens) => tokens.map((token) => ({ ...token, term: asciiFold(token.term) }));
  if (name === 'trim') return (tokens) => tokens.map((token) => ({ ...token, term: token.term.trim() }));
  return undefined;
}

function customFilter(name: string, definition: Json): TokenFilter {
  const type = definition['type'];
  if (type === 'edge_ngram') {
    const min = Number(definition['min_gram'] ?? 1);
    const max = Number(definition['max_gram'] ?? 2);
    return (tokens) =>
      tokens.flatMap((token) => {
        const characters = Array.from(token.term);
        const grams: Token[] = [];
        for (let length = min; length <= Math.min(max, characters.length); length++) grams.push({ ...token, term: characters.slice(0, length).join('') });
        return grams;
      });
  }
  const builtIn = typeof type === 'string' ? builtInFilter(type) : undefined;
  if (builtIn !== undefined) return builtIn;
  throw new EsError(400, 'illegal_argument_exception', `failed to find or create token filter [${name}] of type [${String(type)}]`);
}

export class Analysis {
  readonly #filters = new Map<string, TokenFilter>();
  readonly #charFilters = new Map<string, (text: string) => string>();
  readonly #tokenizers = new Map<string, Analyzer>();
  readonly analyzers = new Map<string, Analyzer>();
  readonly normalizers = new Map<string, (value: string) => string>();

  constructor(settings: Json) {
    const analysis = ((settings['analysis'] ?? (settings['index'] as Json | undefined)?.['analysis'] ?? {}) as Json);
    for (const [name, definition] of Object.entries((analysis['filter'] ?? {}) as Record<string, Json>)) this.#filters.set(name, customFilter(name, definition));
    for (const [name, definition] of Object.entries((analysis['char_filter'] ?? {}) as Record<string, Json>)) {
      if (definition['type'] !== 'pattern_replace') throw new EsError(400, 'illegal_argument_exception', `unknown char_filter type [${String(definition['type'])}] for [${name}]`);
      const pattern = new RegExp(String(definition['pattern']), 'gu');
      const replacement = String(definition['replacement'] ?? '');
      this.#charFilters.set(name, (text) => text.replace(pattern, replacement));
    }
    for (const [name, definition] of Object.entries((analysis['tokenizer'] ?? {}) as Record<string, Json>)) {
      if (definition['type'] !== 'pattern') throw new EsError(400, 'illegal_argument_exception', `unknown tokenizer type [${String(definition['type'])}] for [${name}]`);
      this.#tokenizers.set(name, patternTokenizer(name, definition));
    }
    this.analyzers.set('standard', (text) => this.#filter('lowercase')(standardTokenizer(text)));
    this.analyzers.set('keyword', (text) => [{ term: text, start: 0, end: text.length, position: 0 }]);
    for (const [name, definition] of Object.entries((analysis['analyzer'] ?? {}) as Record<string, Json>)) {
      if (definition['type'] !== 'custom') throw new EsError(400, 'illegal_argument_exception', `analyzer [${name}]: only custom analyzers are supported by the fake`);
      const tokenizer = definition['tokenizer'];
      const custom = typeof tokenizer === 'string' ? this.#tokenizers.get(tokenizer) : undefined;
      const tokenize: Analyzer =
        custom !== undefined
          ? custom
          : tokenizer === 'standard'
          ? standardTokenizer
          : tokenizer === 'keyword'
            ? (text) => [{ term: text, start: 0, end: text.length, position: 0 }]
            : (() => {
                throw new EsError(400, 'illegal_argument_exception', `failed to find tokenizer under [${String(tokenizer)}]`);
              })();
      const charFilters = this.#charFiltersOf(definition);
      const filters = ((definition['filter'] ?? []) as string[]).map((filter) => this.#filter(filter));
      this.analyzers.set(name, (text) => {
        const filtered = charFilters.reduce((value, filter) => filter(value), text);
        return filters.reduce((tokens, filter) => filter(tokens), tokenize(filtered)).filter((token) => token.term !== '');
      });
    }
    for (const [name, definition] of Object.entries((analysis['normalizer'] ?? {}) as Record<string, Json>)) {
      const charFilters = this.#charFiltersOf(definition);
      const filters = ((definition['filter'] ?? []) as string[]).map((filter) => this.#filter(filter));
      this.normalizers.set(name, (value) => {
        const filtered = charFilters.reduce((text, filter) => filter(text), value);
        return filters.reduce((tokens, filter) => filter(tokens), [{ term: filtered, start: 0, end: filtered.length, position: 0 }])[0]?.term ?? '';
      });
    }
  }

  #charFiltersOf(definition: Json): ((text: string) => string)[] {
    return ((definition['char_filter'] ?? []) as string[]).map((filter) => {
      const found = this.#charFilters.get(filter);
      if (found === undefined) throw new EsError(400, 'illegal_argument_exception', `failed to find char_filter under [${filter}]`);
      return found;
    });
  }

  #filter(name: string): TokenFilter {
    const found = this.#filters.get(name) ?? builtInFilter(name);
    if (found === undefined) throw new EsError(400, 'illegal_argument_exception', `failed to find token filter under [${name}]`);
    return found;
  }

  analyzer(name: unknown): Analyzer {
    const found = this.analyzers.get(typeof name === 'string' ? name : 'standard');
    if (found === undefined) throw new EsError(400, 'mapper_parsing_exception', `analyzer [${String(name)}] has not been configured in mappings`);
    return found;
  }
}

export function mapFields(mappings: Json, analysis: Analysis): Map<string, FieldMapping> {
  const fields = new Map<string, FieldMapping>();
  const add = (path: string, definition: Json) => {
    const type = definition['type'];
    // An object field (`type: object`, or properties alone) maps its properties under `<path>.`; documents give them
    // as dotted names (`stemmed_english.title`), as the engine sends them.
    if (definition['properties'] !== undefined && (type === undefined || type === 'object')) {
      for (const [name, sub] of Object.entries(definition['properties'] as Record<string, Json>)) add(`${path}.${name}`, sub);
      return;
    }
    if (type !== 'text' && type !== 'keyword' && type !== 'float') {
      throw new EsError(400, 'mapper_parsing_exception', `No handler for type [${String(type)}] declared on field [${path}] (fake supports text, keyword, float)`);
    }
    const analyzer = analysis.analyzer(definition['analyzer']);
    const normalizerName = definition['normalizer'];
    const normalize = typeof normalizerName === 'string' ? analysis.normalizers.get(normalizerName) : (value: string) => value;
    if (normalize === undefined) throw new EsError(400, 'mapper_parsing_exception', `normalizer [${String(normalizerName)}] not found for field [${path}]`);
    fields.set(path, {
      type,
      analyzer,
      searchAnalyzer: definition['search_analyzer'] === undefined ? analyzer : analysis.analyzer(definition['search_analyzer']),
      normalize,
      indexed: definition['index'] !== false,
      norms: definition['norms'] !== false,
      copyTo: ((definition['copy_to'] ?? []) as string[]).concat(),
    });
    for (const [name, sub] of Object.entries((definition['fields'] ?? {}) as Record<string, Json>)) add(`${path}.${name}`, sub);
  };
  for (const [name, definition] of Object.entries((mappings['properties'] ?? {}) as Record<string, Json>)) add(name, definition);
  return fields;
}
