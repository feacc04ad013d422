/** The events a run emits; reporters listen to them. Every method is optional. */
import type { ServerWait } from './exchange.js';
import type { LoadProgress } from './load.js';
import type { CaseInfo, CaseResult, NotStartedReport, RunMeta, RunReport } from './results.js';

/** A phase of a run (the store fill, the declared cases, fuzzing, a load...), as events name it. */
export interface PhaseInfo {
  id: string;
  title: string;
}

/** A try of --wait-for that got no answer: the service is still starting, or not there. */
export interface ServiceWait {
  url: string;
  /** Tries so far, this one included. */
  tries: number;
  /** Since the first try began. */
  waitedMs: number;
  boundMs: number;
  /** Why this try got no answer, in words. */
  last: string;
}

/**
 * A listener for the events of a run (the shape every reporter has). Begin and end events come in pairs: every
 * onCaseEnd follows its onCaseStart, every onPhaseEnd its onPhaseStart, both inside onRunStart and onRunEnd.
 */
export interface RunListener {
  /** --wait-for: a try got no answer; the service is asked again after a pause, within the bound (before onRunStart). */
  onServiceWait?(wait: ServiceWait): void;
  /** The run is about to send its first case (after the preflight). */
  onRunStart?(meta: RunMeta, cases: readonly CaseInfo[]): void | Promise<void>;
  /** A phase begins (one the plan runs; its cases may still all be reported not judged, with why). */
  onPhaseStart?(phase: PhaseInfo): void;
  /** A phase is over: the results of its cases, in the order of the report. */
  onPhaseEnd?(phase: PhaseInfo, results: readonly CaseResult[]): void;
  onCaseStart?(info: CaseInfo): void;
  onCaseEnd?(result: CaseResult): void;
  /** The server asked the suite to wait (429, 503 with Retry-After), and it waits: nothing moves until the wait is over. */
  onWait?(wait: ServerWait): void;
  /** Once a second while a load profile runs. */
  onLoadProgress?(progress: LoadProgress): void;
  /** The load has stopped (before its result is judged). */
  onLoadEnd?(): void;
  /** The run could not start (before onRunStart; no other event follows): nothing was judged, only what stopped it is known. */
  onRunNotStarted?(report: NotStartedReport): void | Promise<void>;
  /** The run is over and judged: the report is final. */
  onRunEnd?(report: RunReport): void | Promise<void>;
  /** Every reporter has finished: the files written, for a reporter that lists them. */
  onReportsWritten?(files: readonly string[]): void;
}
