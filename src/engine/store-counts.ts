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
