/**
 * Pure policy of results for typos (SearchQuery.corrections), shared by both engines so that they correct by the same
 * rules: how far a spelling neighbour may lie, and when a word the index does hold is so rare beside a neighbour that
 * the neighbour's pages are wanted too. No I/O.
 */

/**
 * A word and a neighbour the longer of which has this many characters may lie one edit apart, and from
 * TWO_TYPOS_FROM two: shorter words have too many real neighbours.
 */
export const ONE_TYPO_FROM = 4;
export const TWO_TYPOS_FROM = 8;

/** The edits allowed between a word and a neighbour, by the length in characters the rule counts. */
export function typoDistance(length: number): number {
  return length >= TWO_TYPOS_FROM ? 2 : length >= ONE_TYPO_FROM ? 1 : 0;
}

/**
 * Words shorter than ONE_TYPO_FROM get one edit only when the rest of the query pins a title: against a word of that
 * title, which holds every other word of the query too, of more than PINNED_TYPO_FROM characters and no fewer than
 * the typed word's. A word of PINNED_TYPO_FROM characters is then one with a letter dropped (`rv` for `rev`): with one
 * of its two letters replaced, too little of it is left to name a word.
 */
export const PINNED_TYPO_FROM = 2;

/** Whether a word of `length` characters gets a typo only when a title pins it (see PINNED_TYPO_FROM). */
export function pinnable(length: number): boolean {
  return length >= PINNED_TYPO_FROM && typoDistance(length) === 0;
}

/** The edits allowed between a word and a neighbour that a title pins (see PINNED_TYPO_FROM), by their lengths in characters. */
export function pinnedTypoDistance(word: number, neighbour: number): number {
  return word >= PINNED_TYPO_FROM && neighbour > PINNED_TYPO_FROM && neighbour >= word && typoDistance(Math.max(word, neighbour)) === 0 ? 1 : 0;
}

/**
 * A word the index holds in at most this many documents is matched by its neighbours too when one of them is held at
 * least RARE_WORD_RATIO times as often: the word itself is most likely a typo that made it into a page.
 */
export const RARE_WORD_DOCUMENTS = 3;
export const RARE_WORD_RATIO = 50;

/** Whether a word held in `held` documents is joined by a neighbour held in `neighbour` documents (see RARE_WORD_DOCUMENTS). */
export function joinsRareWord(held: number, neighbour: number): boolean {
  return held > 0 && held <= RARE_WORD_DOCUMENTS && neighbour >= held * RARE_WORD_RATIO;
}
