/** The events a run emits; reporters listen to them. Every method is optional. */
import type { CheckInfo, CheckResult, RunMeta, RunReport } from './results.js';

/** A listener for the events of a run (the shape every reporter has). */
export interface RunListener {
  onRunStart?(meta: RunMeta, checks: readonly CheckInfo[]): void | Promise<void>;
  onCheckStart?(check: CheckInfo): void;
  onCheckEnd?(result: CheckResult): void;
  onRunEnd?(report: RunReport): void | Promise<void>;
}
