/** "Did you mean": the known name closest to a mistyped one, by edit distance (a swap of two neighbours counts once). */

/** Edits from `a` to `b`: insertions, deletions, substitutions, and transpositions of neighbours (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** How many edits a mistyped name of this length may be from the one meant: one for a short name, a third of a long one. */
function tolerance(length: number): number {
  return Math.max(1, Math.floor(length / 3));
}

/**
 * The known name most likely meant by `given`: the closest within the tolerance (case ignored), else the one name that
 * starts with it (three characters at least); undefined when none is close or two are equally close.
 */
export function closest(given: string, known: Iterable<string>): string | undefined {
  const word = given.toLowerCase();
  const names = [...new Set(known)];
  const near = names
    .map((name) => ({ name, distance: editDistance(word, name.toLowerCase()) }))
    .filter(({ distance }) => distance <= tolerance(word.length));
  const least = Math.min(...near.map(({ distance }) => distance));
  const best = near.filter(({ distance }) => distance === least);
  if (best.length === 1) return best[0]?.name;
  if (best.length > 1 || word.length < 3) return undefined;
  const started = names.filter((name) => name.toLowerCase().startsWith(word));
  return started.length === 1 ? started[0] : undefined;
}

/** ` (did you mean X?)` after the name a message calls unknown, or nothing; `shown` writes the name as the user would (`--base-url`). */
export function didYouMean(given: string, known: Iterable<string>, shown: (name: string) => string = (name) => name): string {
  const match = closest(given, known);
  return match === undefined ? '' : ` (did you mean ${shown(match)}?)`;
}
