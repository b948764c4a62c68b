import { MAX_TERM_LENGTH } from '../analysis/index.js';

/**
 * Hangul syllables as highlighting searches them: folding decomposes each syllable into two or three jamo (NFKD), so
 * a chunk of Korean folded as the analysis folds it is longer than the chunk, could only be read word by word, and
 * cost several times a chunk of Chinese. Instead the chunk keeps its syllables, every other character folded alone,
 * and what marks a word is looked for with its jamo composed back into syllables. Pure: no I/O.
 *
 * A syllable's jamo always compose back into it, and a word's terms hold whole syllables, so a term found in the
 * folded text is found composed in the text as kept. What may end inside a syllable of the text is looked for without
 * its last syllable: a beginning (an unfinished word `가` is the start of `각`) or a term cut to MAX_TERM_LENGTH.
 */

/** Unicode's arithmetic of Hangul syllables: the first code of each kind of jamo and of the syllables, and how many. */
const { SYLLABLE_FIRST, SYLLABLE_LAST, LEADING_FIRST, VOWEL_FIRST, TRAILING_BEFORE, VOWELS, TRAILINGS, LEADINGS } = {
  SYLLABLE_FIRST: 0xac00, SYLLABLE_LAST: 0xd7a3, LEADING_FIRST: 0x1100, VOWEL_FIRST: 0x1161, TRAILING_BEFORE: 0x11a7, VOWELS: 21, TRAILINGS: 28, LEADINGS: 19,
} as const;

/** Whether a UTF-16 code unit is a precomposed Hangul syllable. */
export function isHangulSyllable(code: number): boolean {
  return code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST;
}

/**
 * Whether a character is a conjoining jamo, which a syllable decomposes into: text that folds to one (jamo typed
 * apart, compatibility jamo) is searched as the analysis folds it, where they compose with nothing.
 */
export function isConjoiningJamo(code: number): boolean {
  return (code >= 0x1100 && code <= 0x11ff) || (code >= 0xa960 && code <= 0xa97f) || (code >= 0xd7b0 && code <= 0xd7ff);
}

/**
 * What is looked for in text whose syllables are kept, for a folded term, beginning or anchor (`open`: it may end
 * inside a syllable of the text); undefined when nothing of it is left to look for. Modern leading and vowel jamo
 * compose into a syllable, and a trailing one joins the syllable before it, as canonical composition does.
 */
export function composedNeedle(needle: string, open: boolean): string | undefined {
  const units: number[] = [];
  for (let at = 0; at < needle.length; at++) {
    const code = needle.charCodeAt(at);
    const previous = units[units.length - 1] ?? -1;
    const leading = previous - LEADING_FIRST;
    const vowel = code - VOWEL_FIRST;
    if (leading >= 0 && leading < LEADINGS && vowel >= 0 && vowel < VOWELS) {
      units[units.length - 1] = SYLLABLE_FIRST + (leading * VOWELS + vowel) * TRAILINGS;
      continue;
    }
    const trailing = code - TRAILING_BEFORE;
    if (isHangulSyllable(previous) && (previous - SYLLABLE_FIRST) % TRAILINGS === 0 && trailing > 0 && trailing < TRAILINGS) {
      units[units.length - 1] = previous + trailing;
      continue;
    }
    units.push(code);
  }
  const last = units[units.length - 1] ?? -1;
  const mayGrow = isConjoiningJamo(last) || (isHangulSyllable(last) && (last - SYLLABLE_FIRST) % TRAILINGS === 0);
  if ((open || needle.length >= MAX_TERM_LENGTH) && mayGrow) units.pop();
  return units.length === 0 ? undefined : String.fromCharCode(...units);
}
