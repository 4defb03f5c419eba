import { distance } from "fastest-levenshtein";

/**
 * Typo tolerance (issue 33, decision 041): a search word that nothing in the catalogue holds is
 * read as the catalogue's words within a small edit distance of it — 1 for words of 4 to 7
 * letters, 2 from 8; a letter added, dropped, changed, or two neighbours swapped, each one edit —
 * the closest ones only. Shorter words, and words with a digit (model
 * numbers, sizes), are taken as typed: one edit of "tv" or "xl" is half the word.
 */
export const TYPO_MIN_LENGTH = 4;
export const TWO_TYPOS_FROM_LENGTH = 8;
/**
 * at most this many corrections of one word: each is looked for in the whole vocabulary (a scan
 * of ~10 ms at 1M products), so a short word's many neighbours are cut to those sharing its first
 * letter first (a typo is rarely there), then in alphabetical order
 */
export const MAX_CORRECTIONS = 4;

/** How many edits a search word may be away from a catalogue word (0: none). */
export function typoAllowance(word: string): number {
  const length = [...word].length;
  if (length < TYPO_MIN_LENGTH || /\p{N}/u.test(word)) return 0;
  return length >= TWO_TYPOS_FROM_LENGTH ? 2 : 1;
}

/**
 * Edits from `word` to `candidate`, a swap of two neighbouring letters counting as one ("blakc" is
 * one from "black"): Levenshtein's distance (fastest-levenshtein), or one more than the distance
 * from the word with one pair swapped — the smaller.
 */
function edits(word: string, swapped: readonly string[], candidate: string): number {
  let least = distance(word, candidate);
  for (const variant of swapped) {
    if (least <= 1) break;
    least = Math.min(least, 1 + distance(variant, candidate));
  }
  return least;
}

/** The word with each pair of neighbouring letters swapped in turn. */
function swaps(word: string): string[] {
  const letters = [...word];
  const variants: string[] = [];
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const copy = letters.slice();
    [copy[i], copy[i + 1]] = [copy[i + 1]!, copy[i]!];
    variants.push(copy.join(""));
  }
  return variants;
}

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const LETTERS = /^\p{L}+$/u;

/**
 * The words a search word may be corrected to, built with the index (in its worker): each
 * catalogue word without its edge punctuation, kept when it is letters only and at least
 * TYPO_MIN_LENGTH - 1 long (codes like "X12" and numbers are never corrected to, as they are never
 * corrected), distinct, ordered by length: `words` joined by "\n", and per length m the number of
 * words shorter than m (`lengthStarts`, up to MAX_TYPO_WORD_LENGTH + 1).
 */
export const MAX_TYPO_WORD_LENGTH = 40;
export interface TypoWords {
  words: string[];
  lengthStarts: Int32Array;
}

export function typoWords(vocabulary: Iterable<string>): TypoWords {
  const kept = new Set<string>();
  for (const raw of vocabulary) {
    const word = raw.replace(EDGE_PUNCTUATION, "");
    if (word.length >= TYPO_MIN_LENGTH - 1 && word.length <= MAX_TYPO_WORD_LENGTH && LETTERS.test(word)) {
      kept.add(word);
    }
  }
  const words = [...kept].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const lengthStarts = new Int32Array(MAX_TYPO_WORD_LENGTH + 2);
  for (const word of words) lengthStarts[word.length + 1]! += 1;
  for (let m = 0; m <= MAX_TYPO_WORD_LENGTH; m++) lengthStarts[m + 1]! += lengthStarts[m] as number;
  return { words, lengthStarts };
}

/** The typo words whose length is within `allowance` of `word`'s. */
export function* nearLengths({ words, lengthStarts }: TypoWords, word: string, allowance: number) {
  const last = lengthStarts.length - 1;
  const from = lengthStarts[Math.min(Math.max(word.length - allowance, 0), last)] as number;
  const to = lengthStarts[Math.min(word.length + allowance + 1, last)] as number;
  for (let i = from; i < to; i++) yield words[i] as string;
}

/**
 * The catalogue words (`candidates`, each as it appears in the text: "headphones," included) that
 * are the closest to `word` within its allowance, stripped of edge punctuation, distinct; empty
 * when the word takes no corrections or none is close enough.
 */
export function closestWords(word: string, candidates: Iterable<string>): string[] {
  const allowance = typoAllowance(word);
  if (allowance === 0) return [];
  const swapped = swaps(word);
  let best = allowance;
  let found = new Set<string>();
  for (const raw of candidates) {
    const candidate = raw.replace(EDGE_PUNCTUATION, "");
    if (candidate === word || Math.abs(candidate.length - word.length) > allowance) continue;
    const count = edits(word, swapped, candidate);
    if (count === 0 || count > best) continue;
    if (count < best) {
      best = count;
      found = new Set();
    }
    found.add(candidate);
  }
  const first = word[0];
  return [...found]
    .sort((a, b) => Number(b[0] === first) - Number(a[0] === first) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_CORRECTIONS);
}

/**
 * The corrections of each search word that nothing holds — neither the word nor one of its
 * synonyms — given what an index holds and corrects a word to (decision 041); null when there are
 * none. One index asks its own; a patched one both of its.
 */
export function correctionsOf(
  words: readonly string[],
  synonyms: Readonly<Record<string, readonly string[]>> | undefined,
  holds: (word: string) => boolean,
  corrections: (word: string) => string[],
): Record<string, string[]> | null {
  const found: Record<string, string[]> = {};
  for (const word of words) {
    if ([word, ...(synonyms?.[word] ?? [])].some(holds)) continue;
    const close = corrections(word);
    if (close.length > 0) found[word] = close;
  }
  return Object.keys(found).length > 0 ? found : null;
}
