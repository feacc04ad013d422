/**
 * The store invariants of a listing answered 200 with an array, once: at most its limit, only pets of the status it asked
 * for, and, on a page shorter than its limit, every matching pet the run has seen. The exchange checks
 * (checks/invariants.ts) word them for a case; the load's listing judge and sampler (load/) apply them on the hot path.
 */

/** The contract's bounds of `limit`. */
export interface LimitBounds {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** The page size a listing asked for when it is one: the default without a limit, the limit within bounds; else undefined. */
export function pageLimit(asked: number | undefined, bounds: LimitBounds): number | undefined {
  if (asked === undefined) return bounds.default;
  return Number.isInteger(asked) && asked >= bounds.min && asked <= bounds.max ? asked : undefined;
}

/** The most pets a listing may hold: its page size, or the largest limit for one the contract gives no answer for. */
export function pageBound(asked: number | undefined, bounds: LimitBounds): number {
  return pageLimit(asked, bounds) ?? bounds.max;
}

/** The limit rule: whether `count` pets break it. */
export function overLimit(count: number, asked: number | undefined, bounds: LimitBounds): boolean {
  return count > pageBound(asked, bounds);
}

/** The status rule: the items whose status is not exactly the one asked for (a missing status included). */
export function strayStatuses<T>(items: readonly T[], asked: string, statusOf: (item: T) => unknown): T[] {
  return items.filter((item) => statusOf(item) !== asked);
}

/** Whether a listing is a short page, which must hold every matching pet: fewer pets than a page size it asked for. */
export function isShortPage(count: number, asked: number | undefined, bounds: LimitBounds): boolean {
  const limit = pageLimit(asked, bounds);
  return limit !== undefined && count < limit;
}

/** A pet a short page may be held to: its id as digits and its status, when it has a string one. */
export interface ListedCandidate {
  readonly id: string;
  readonly status: string | undefined;
}

/**
 * The completeness rule: the pets a short page lacks, of those it must hold (each settled pet of the status asked for; any
 * pet without a filter), given the ids the page holds.
 */
export function missingFromShortPage<P extends ListedCandidate>(
  held: ReadonlySet<string | undefined>,
  settled: Iterable<P>,
  asked: string | undefined,
): P[] {
  const missing: P[] = [];
  for (const pet of settled) if ((asked === undefined || pet.status === asked) && !held.has(pet.id)) missing.push(pet);
  return missing;
}
