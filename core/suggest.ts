/**
 * "Did you mean ...?" for mistyped names: CLI options and commands,
 * settings keys.
 *
 * @module
 */

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        d[i][j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(
        d[i - 1][j] + 1,
        d[i][j - 1] + 1,
        d[i - 1][j - 1] + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate nearest to `word`, if it is near enough to be a likely
 * typo (at most 2 edits, and fewer than half the word's length), or a
 * candidate that starts with `word` when exactly one does.
 */
export function nearest(
  word: string,
  candidates: readonly string[],
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = editDistance(word, c);
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  if (
    best !== undefined && bestDistance <= 2 && bestDistance * 2 < word.length
  ) {
    return best;
  }
  const prefixed = candidates.filter((c) => c.startsWith(word));
  return word.length >= 2 && prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` (did you mean 'X'?)` when there is a near candidate, else "". */
export function didYouMean(
  word: string,
  candidates: readonly string[],
): string {
  const n = nearest(word, candidates);
  return n === undefined ? "" : ` (did you mean '${n}'?)`;
}
