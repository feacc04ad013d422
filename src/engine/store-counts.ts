/** What the store fill found the store to hold, and what a case that needs pets is told when it holds too few. */
import type { StoreRequirement } from '../model/scenario.js';

/** What the store was found to hold (lower bounds: listings are capped), and what the run added to it. */
export interface StoreCounts {
  /** Pets in all, at least. */
  total: number;
  /** Pets of each status counted, at least. */
  byStatus: ReadonlyMap<string, number>;
  /** Pets the run created so that these cases can be judged. */
  created: number;
  /** Why the store could not be counted or filled, when it could not. */
  problem?: string;
}

/** Why a case cannot be judged with what the store holds ("only 13 pets: limit=20 cannot show a cap"); undefined when it can. */
export function unmetRequirement(
  requirement: StoreRequirement | undefined,
  store: StoreCounts | undefined,
  readOnly: boolean,
): string | undefined {
  if (requirement === undefined || store === undefined) return undefined;
  const have = requirement.status === undefined ? store.total : (store.byStatus.get(requirement.status) ?? 0);
  if (have >= requirement.pets) return undefined;
  const pets = requirement.status === undefined ? 'pets' : `${requirement.status} pets`;
  const why = store.problem ?? (readOnly ? 'read-only: the suite creates none' : undefined);
  return `only ${have} ${pets} (${requirement.pets} needed): ${requirement.because}${why === undefined ? '' : ` (${why})`}`;
}

/**
 * The status a run writes where any status would do: the one counted with most pets (the earliest of the enum on a tie, and
 * the first when nothing was counted). Its page is the fullest already, so these writes leave the other statuses' pages short
 * for as long as the store lets them, and with them the rules only a page shorter than its limit can judge.
 */
export function spareStatusOf(statuses: readonly string[], store: StoreCounts | undefined): string | undefined {
  const count = (status: string): number => store?.byStatus.get(status) ?? 0;
  return statuses.reduce<string | undefined>(
    (spare, status) => (spare === undefined || count(status) > count(spare) ? status : spare),
    undefined,
  );
}
