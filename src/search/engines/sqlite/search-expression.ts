import { matchExpression } from '../../policy/query-text.js';

/** The last word is matched as a prefix only from this many characters on: shorter prefixes expand to too many terms. */
export const MIN_PREFIX_LENGTH = 3;
/**
 * A word found in more than this share of an index's documents is common: when the query also has a rarer word, it is
 * neither required nor scored (reading its long position lists would dominate the query's cost and add almost nothing
 * to bm25, whose IDF for it is about zero). A stop-word list derived from the index itself.
 */
export const COMMON_WORD_SHARE = 0.3;
/** Below this many documents no word is common: shares in a small index say nothing about the language. */
export const COMMON_WORD_MIN_DOCUMENTS = 1000;

/** What the index knows about a query word: documents holding it, or undefined when it is not a term of the index. */
export type DocumentFrequency = (word: string) => number | undefined;

export interface QueryPlan {
  /** The words the engine matches and scores. */
  words: string[];
  /** Whether the last of them is matched as a prefix too. */
  prefixLast: boolean;
  /**
   * Whether every word is common, so none could be dropped: such a query matches a large share of the index, and
   * bm25 (whose IDF reads each word's whole posting list, positions included) costs much and tells little.
   */
  common: boolean;
  /**
   * The index terms an unfinished last word stands for (its most frequent completions, set by the engine), matched
   * instead of FTS5's `word*`, which merges the posting lists of every completion before returning one row.
   */
  expansions?: readonly string[];
  /**
   * Runs of two or more words that stand next to each other in the text, as [start, end) ranges of `words`: the
   * phrases whose matches score more than scattered words. A dropped common word splits a run, as `words` no longer
   * hold it: `fetch of element` gives none, since `"fetch element"` is not what was typed.
   */
  phrases: readonly Phrase[];
  /**
   * The common words dropped from `words`: not required, but a title that holds them all scores more (see the
   * SQLite engine's withDroppedWords), so that `get elements by class name` still prefers the page named so.
   */
  dropped?: readonly string[];
  /**
   * What else each word matches, aligned with `words` (set by the engine): an identifier's parts as a phrase, the
   * marked stems of the word, a spelling neighbour of a word the index does not hold. A word with alternatives
   * matches any of them, and the word itself scores on top of them where it stands (see searchExpression).
   */
  alternatives?: readonly (readonly string[] | undefined)[];
  /**
   * The terms of a query of two or more words as the index holds them in a row, common words included (and each
   * identifier followed by its parts, as a document's terms are): the documents holding them are walked apart and rank
   * as title matches do (see typed-phrase.ts). FTS5 walks a phrase by seeking each word's position list to the rowids
   * of the others, so a common word's long list is read only where the rarer words stand.
   */
  typedPhrase?: readonly string[];
}

/** A [start, end) range of a plan's words that stand next to each other in the text. */
export type Phrase = readonly [number, number];

/** The whole of `words` as one phrase, when there are two or more. */
function wholePhrase(words: readonly string[]): Phrase[] {
  return words.length > 1 ? [[0, words.length]] : [];
}

/**
 * Which words of a query the engine matches (see COMMON_WORD_SHARE), and whether the last one is matched as a prefix:
 * only when it is long enough and not a whole term of the index (a finished word needs no expansion, and expanding a
 * common stem such as `the` would read every term it starts).
 */
export function planQuery(words: readonly string[], documents: number, frequency: DocumentFrequency): QueryPlan {
  const last = words[words.length - 1];
  const prefixLast = last !== undefined && Array.from(last).length >= MIN_PREFIX_LENGTH && frequency(last) === undefined;
  const common = (word: string) => documents >= COMMON_WORD_MIN_DOCUMENTS && (frequency(word) ?? 0) > documents * COMMON_WORD_SHARE;
  const kept = words.map((word, index) => (index === words.length - 1 && prefixLast) || !common(word));
  const rare = words.filter((_, index) => kept[index]);
  if (rare.length === 0) return { words: [...words], prefixLast, common: words.length > 0, phrases: wholePhrase(words) };
  const phrases: Phrase[] = [];
  let start = 0;
  let run = 0;
  kept.forEach((keep, index) => {
    if (keep) run++;
    if (!keep || index === kept.length - 1) {
      if (run > 1) phrases.push([start, start + run]);
      start += run;
      run = 0;
    }
  });
  const dropped = words.filter((_, index) => !kept[index]);
  return { words: rare, prefixLast, common: false, phrases, ...(dropped.length === 0 ? {} : { dropped }), ...(words.length > 1 ? { typedPhrase: [...words] } : {}) };
}

function quote(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** Marks an alternative matched in titles only (see titleNeighbours in text-plan.ts): a typo is judged by the title it names. */
export const TITLE_ONLY = '\u0002';

/** An alternative as an FTS5 clause: quoted, and scoped to the title column when marked TITLE_ONLY. */
function alternativeClause(alternative: string): string {
  return alternative.startsWith(TITLE_ONLY) ? `title : ${quote(alternative.slice(TITLE_ONLY.length))}` : quote(alternative);
}

/** What a search's expressions are made of: a plan's words, how its last word matches, and its phrases. */
export type ExpressionPlan = Pick<QueryPlan, 'words' | 'prefixLast' | 'expansions' | 'phrases' | 'alternatives' | 'dropped'>;

/**
 * The FTS5 expression of a search: every word must match (the last one also as a prefix when it is long enough), and
 * extra phrases that match a subset of the same documents add to their bm25 score: the exact last word (so `fetch`
 * outranks `fetching`) and the phrases, adjacent words of the text (so they outrank scattered ones). Words are quoted, so no FTS5 syntax from the user reaches the engine. Undefined when
 * there is no word.
 */
export function searchExpression(plan: ExpressionPlan): string | undefined {
  if (plan.words.length === 0) return undefined;
  const all = allWords(plan.words, plan.prefixLast, plan.expansions, plan.alternatives);
  const scored = [`(${all})`];
  const phrase = phraseExpression(plan);
  if (phrase !== undefined) scored.push(phrase);
  return scored.length === 1 ? all : scored.join(' OR ');
}

function allWords(words: readonly string[], prefixLast: boolean, expansions: readonly string[] | undefined, alternatives?: ExpressionPlan['alternatives']): string {
  const last = words[words.length - 1] as string;
  const clause = (word: string, at: number) => {
    const others = alternatives?.[at];
    return others === undefined || others.length === 0 ? quote(word) : `(${[quote(word), ...others.map(alternativeClause)].join(' OR ')})`;
  };
  const head = words.slice(0, -1).map(clause);
  let lastTerm = clause(last, words.length - 1);
  if (prefixLast) {
    const others = (alternatives?.[words.length - 1] ?? []).map(alternativeClause);
    lastTerm = expansions === undefined
      ? `(${[quote(last), `${quote(last)}*`, ...others].join(' OR ')})`
      : `(${[...lastAlternatives(last, expansions).map(quote), ...others].join(' OR ')})`;
  }
  return [...head, lastTerm].join(' AND ');
}

function lastAlternatives(last: string, expansions: readonly string[]): string[] {
  return [last, ...expansions.filter((term) => term !== last)];
}

/**
 * The positions of the words every match of `searchExpression(plan)` holds as they are: all of them, except an
 * unfinished last word, which may match as one of its completions (or, unexpanded, as a prefix) — unless the engine
 * found none to expand it to — and words matched by alternatives too. Positions, not words: a query may repeat a word
 * that is required at one place and unfinished at the last.
 */
export function requiredPositions(plan: ExpressionPlan): number[] {
  const { words, prefixLast, expansions, alternatives } = plan;
  const asTyped = prefixLast && (expansions === undefined || expansions.length > 0) ? words.length - 1 : words.length;
  return Array.from({ length: asTyped }, (_, at) => at).filter((at) => (alternatives?.[at]?.length ?? 0) === 0);
}


/** One phrase of an FTS5 expression: its words, and whether its last word is matched as a prefix too. */
function prefixable(words: readonly string[]): boolean {
  const last = words[words.length - 1];
  return last !== undefined && Array.from(last).length >= MIN_PREFIX_LENGTH;
}

/** The expression of a count or a suggestion check: every word, exactly as `searchExpression` requires them. */
export function countExpression(words: readonly string[], prefixLast = prefixable(words), expansions?: readonly string[], alternatives?: ExpressionPlan['alternatives']): string | undefined {
  const alternated = alternatives?.some((others) => (others?.length ?? 0) > 0) === true;
  if (words.length > 0 && ((expansions !== undefined && prefixLast) || alternated)) return allWords(words, prefixLast, expansions, alternatives);
  return matchExpression(words, { prefixLast });
}

/** countExpression of a plan. */
export function planCountExpression(plan: ExpressionPlan): string | undefined {
  return countExpression(plan.words, plan.prefixLast, plan.expansions, plan.alternatives);
}

/**
 * The phrases of `searchExpression`, any of them: a phrase ending with the last word has it also as a prefix when asked
 * and not expanded (a phrase cannot hold alternatives, so with expansions it is matched as typed). Undefined when
 * there is none.
 */
export function phraseExpression({ words, prefixLast, expansions, phrases }: ExpressionPlan): string | undefined {
  const quoted = phrases.map(([start, end]) => `${quote(words.slice(start, end).join(' '))}${end === words.length && prefixLast && expansions === undefined ? '*' : ''}`);
  return quoted.length === 0 ? undefined : quoted.join(' OR ');
}

/**
 * The typed phrase of a plan (see QueryPlan.typedPhrase) as an FTS5 phrase: its last word a prefix as in
 * phraseExpression. Undefined when the plan has none.
 */
export function typedPhraseExpression({ typedPhrase, prefixLast, expansions }: Pick<QueryPlan, 'typedPhrase' | 'prefixLast' | 'expansions'>): string | undefined {
  if (typedPhrase === undefined) return undefined;
  return `${quote(typedPhrase.join(' '))}${prefixLast && expansions === undefined ? '*' : ''}`;
}

/**
 * The plan without the words at `dropped` (positions in `words`): their alternatives go with them, and a phrase that
 * held one of them is split around it.
 */
export function withoutWords<T extends ExpressionPlan>(plan: T, dropped: ReadonlySet<number>): T {
  const kept = plan.words.map((_, at) => at).filter((at) => !dropped.has(at));
  const newPosition = new Map(kept.map((at, position) => [at, position]));
  const phrases: Phrase[] = [];
  for (const [start, end] of plan.phrases) {
    let runStart: number | undefined;
    for (let at = start; at <= end; at++) {
      const position = at < end ? newPosition.get(at) : undefined;
      if (position !== undefined && runStart === undefined) runStart = position;
      if (position === undefined && runStart !== undefined) {
        const runEnd = (newPosition.get(at - 1) as number) + 1;
        if (runEnd - runStart > 1) phrases.push([runStart, runEnd]);
        runStart = undefined;
      }
    }
  }
  const alternatives = plan.alternatives === undefined ? undefined : kept.map((at) => plan.alternatives?.[at]);
  const last = plan.words.length - 1;
  return {
    ...plan,
    words: kept.map((at) => plan.words[at] as string),
    phrases,
    ...(alternatives === undefined ? {} : { alternatives }),
    // A prefix belongs to the last word typed only.
    prefixLast: plan.prefixLast && !dropped.has(last),
    ...(dropped.has(last) ? { expansions: undefined } : {}),
  };
}
