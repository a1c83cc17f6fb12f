/** "Did you mean" through fastest-levenshtein: the closest candidate, if it is close enough to be a likely typo. */
import { closest, distance } from 'fastest-levenshtein';

export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const lower = word.toLowerCase();
  const sameLetters = candidates.find((c) => c.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  const best = closest(word, candidates);
  const limit = Math.max(2, Math.floor(word.length / 3));
  return distance(lower, best.toLowerCase()) <= limit ? best : undefined;
}
