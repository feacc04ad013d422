/**
 * A phase of a run, as an object (Schemathesis's Phase): what it is, the cases it can report, whether a plan asks for it,
 * why it cannot run for a plan, and how it runs. The engine's one list of them is PHASES (phases/index.ts).
 */
import type { Contract } from '../model/contract.js';
import type { LoadProfile } from '../model/load.js';
import type { CaseInfo, CaseResult, SkipCode } from '../model/results.js';
import type { CaseSpec } from '../model/scenario.js';
import { disabledCase, notJudgedCase, reportCase } from './case-report.js';
import type { RunSettings, RunPlan } from './plan.js';
import type { PhaseRun, RunContext } from './run-context.js';

/** What the cases a phase can report are derived from: the contract, the loaded cases, and a load profile when one is named. */
export interface PhaseInputs {
  contract: Contract;
  cases: readonly CaseSpec[];
  profile?: LoadProfile;
}

/** Why a phase the plan asks for does not run: every case it would report is not judged, with this. */
export interface PhaseSkip {
  code: SkipCode;
  reason: string;
}

/** A phase of a run. */
export interface Phase {
  /** Stable: events and `requestsBySuite` name it. */
  readonly id: string;
  /** One line: what it does. */
  readonly title: string;
  /** It decides whether the run can start at all (the preflight): it runs before onRunStart, reports no case and emits no event. */
  readonly gate?: boolean;
  /** It sends through the run's client: the run opens one only when a phase it enables does. */
  readonly usesRunClient?: boolean;
  /** The settings its requests depend on: recorded in the report only when a phase that reads them runs (--seed). */
  readonly reads?: ReadonlyArray<keyof RunSettings>;
  /**
   * The phases it needs over before it starts (those of them the plan enables); it runs beside any others. Without it, it
   * waits for every phase before it. A run at --concurrency 1, or one whose phases could reach --max-writes, takes the
   * phases one at a time (see `writes`).
   */
  readonly after?: readonly string[];
  /** The most pets it may create for this plan (a failure's shrinking aside); none when absent. */
  writes?(plan: RunPlan): number;
  /** It keeps only failing exchanges as evidence, so its requests are counted at the client for `requestsBySuite`. */
  readonly countsRequests?: boolean;
  /** It measures (or merges) a load, which the run rules judge: the ledger of judgement counts them only then. */
  readonly measuresLoad?: boolean;
  /** What its cases send, in the catalogue's words; undefined where each case says it step by step (the declared cases). */
  readonly sends?: string;
  /** The form of the ids it reports when they depend on the run's input (`load.<profile>`), for the catalogue. */
  readonly idPattern?: string;
  /** Every case it can report: what --check, --skip-check, the configuration's `disable` and the catalogue know of it. */
  cases(inputs: PhaseInputs): readonly CaseInfo[];
  /** Whether the plan asks for it (Schemathesis's is_enabled): a phase not enabled reports nothing at all. */
  enabled(plan: RunPlan): boolean;
  /** The cases it reports for this plan, in the order of the report. */
  planned(plan: RunPlan): readonly CaseInfo[];
  /** Why it cannot run for this plan though enabled (Schemathesis's is_supported); undefined when it runs. */
  skipReason(plan: RunPlan): PhaseSkip | undefined;
  /** Runs it: the results of its cases, in the order of the report (each told by case-start then case-end), and what it provides. */
  run(context: RunContext): Promise<PhaseRun>;
}

/** Why a phase whose every planned case is disabled does not run; each case still reports its own reason (see skipPhase). */
export function everyCaseDisabled(plan: RunPlan, cases: readonly CaseInfo[]): PhaseSkip | undefined {
  const ids = new Set(plan.disabled.map((d) => d.id));
  return cases.length > 0 && cases.every((c) => ids.has(c.id))
    ? { code: 'disabled', reason: 'every case of the phase is disabled' }
    : undefined;
}

/** The cases of a phase that does not run, each not judged: its own disabled reason when it has one, else the phase's. */
export async function skipPhase(context: RunContext, cases: readonly CaseInfo[], skip: PhaseSkip): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const info of cases)
    results.push(
      await reportCase(context.emit, info, () => disabledCase(info, context.judge.disabled) ?? notJudgedCase(info, skip.code, skip.reason)),
    );
  return results;
}

/** Those of `cases` the run selected (--suite, --phase, --check): a phase is enabled when one of them is. */
export function selectedOf(plan: RunPlan, cases: readonly CaseInfo[]): CaseInfo[] {
  return cases.filter((info) => plan.selection.ids.has(info.id));
}
