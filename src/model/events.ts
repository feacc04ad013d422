/** The events a run emits, as one typed union (RunEvent), and the listener reporters implement: every method optional. */
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

/** Every event of a run, each spelled once: `emit` hands one to a listener's method of the same name (tellListener). */
export type RunEvent =
  | { readonly type: 'service-wait'; readonly wait: ServiceWait }
  | { readonly type: 'run-start'; readonly meta: RunMeta; readonly cases: readonly CaseInfo[] }
  | { readonly type: 'phase-start'; readonly phase: PhaseInfo }
  | { readonly type: 'phase-end'; readonly phase: PhaseInfo; readonly results: readonly CaseResult[] }
  | { readonly type: 'case-start'; readonly info: CaseInfo }
  | { readonly type: 'case-end'; readonly result: CaseResult }
  | { readonly type: 'wait'; readonly wait: ServerWait }
  | { readonly type: 'load-progress'; readonly progress: LoadProgress }
  | { readonly type: 'load-end' }
  | { readonly type: 'run-not-started'; readonly report: NotStartedReport }
  | { readonly type: 'run-end'; readonly report: RunReport };

/** Emits an event: what every part of a run that tells of something calls, never a listener's method itself. */
export type Emit = (event: RunEvent) => void | Promise<void>;

/** The one place an event becomes a call of the listener's method (the begin and end of a run may be awaited). */
export function tellListener(listener: RunListener, event: RunEvent): void | Promise<void> {
  switch (event.type) {
    case 'service-wait':
      return listener.onServiceWait?.(event.wait);
    case 'run-start':
      return listener.onRunStart?.(event.meta, event.cases);
    case 'phase-start':
      return listener.onPhaseStart?.(event.phase);
    case 'phase-end':
      return listener.onPhaseEnd?.(event.phase, event.results);
    case 'case-start':
      return listener.onCaseStart?.(event.info);
    case 'case-end':
      return listener.onCaseEnd?.(event.result);
    case 'wait':
      return listener.onWait?.(event.wait);
    case 'load-progress':
      return listener.onLoadProgress?.(event.progress);
    case 'load-end':
      return listener.onLoadEnd?.();
    case 'run-not-started':
      return listener.onRunNotStarted?.(event.report);
    case 'run-end':
      return listener.onRunEnd?.(event.report);
  }
}
