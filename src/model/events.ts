/** The events a run emits; reporters listen to them. Every method is optional. */
import type { ServerWait } from './exchange.js';
import type { LoadProgress } from './load.js';
import type { CaseInfo, CaseResult, RunMeta, RunReport } from './results.js';

/** A listener for the events of a run (the shape every reporter has). */
export interface RunListener {
  /** The run is about to send its first case (after the preflight). */
  onRunStart?(meta: RunMeta, cases: readonly CaseInfo[]): void | Promise<void>;
  onCaseStart?(info: CaseInfo): void;
  onCaseEnd?(result: CaseResult): void;
  /** The server asked the suite to wait (429, 503 with Retry-After), and it waits: nothing moves until the wait is over. */
  onWait?(wait: ServerWait): void;
  /** Once a second while a load profile runs. */
  onLoadProgress?(progress: LoadProgress): void;
  /** The load has stopped (before its result is judged). */
  onLoadEnd?(): void;
  /** The run is over and judged: the report is final. */
  onRunEnd?(report: RunReport): void | Promise<void>;
  /** Every reporter has finished: the files written, for a reporter that lists them. */
  onReportsWritten?(files: readonly string[]): void;
}
