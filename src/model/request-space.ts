/** The request space as report.json counts it: its cells (operation × slot × class × credential), sent and judged. */

/** How a cell is sent with respect to the credential: with the key, without it, or the credential itself spelled. */
export type CellCredential = 'with' | 'without' | 'spelled';

/** One cell that was not judged (or broke its relation), and why. */
export interface UnjudgedCell {
  /** `getPet path.petId digits-100000 with`. */
  cell: string;
  reason: string;
}

/** The request space of a run: how many cells it has, how many were sent and judged, and each one not judged with its reason. */
export interface RequestSpaceSummary {
  cells: number;
  sent: number;
  judged: number;
  /** Cells by slot kind and place, as `operation slot`: how many classes each slot was spelled in. */
  slots: Record<string, number>;
  notJudged: UnjudgedCell[];
  /** Each cell that failed or warned, with the reason of its verdict: what a relation's one case shows the first of. */
  broken: UnjudgedCell[];
}
