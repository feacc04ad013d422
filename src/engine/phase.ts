/**
 * A phase of a run, as an object (Schemathesis's Phase): what it is, the cases it can report, whether a plan asks for it,
 * why it cannot run for a plan, and how it runs. The engine's one list of them is PHASES (phases.ts).
 */
import type { Judge } from '../checks/judge.js';
import type { Client, HttpClientOptions } from '../http/client.js';
import type { Sender } from '../http/write-gate.js';
import { variantsSendingTheKey } from '../http/credentials.js';
import type { StoreModel } from '../model/store-model.js';
import type { RunFindings } from './findings.js';
import type { Clock } from '../model/clock.js';
import type { Contract } from '../model/contract.js';
import type { RunListener } from '../model/events.js';
import type { LoadProfile, LoadReport } from '../model/load.js';
import type { CaseInfo, CaseResult, SkipCode } from '../model/results.js';
import type { CaseSpec } from '../model/scenario.js';
import type { Variables } from '../model/template.js';
import { disabledCase, reportCase, notJudgedCase, type CaseRunOptions } from './cases.js';
import type { CreatedPets } from './phases/created-pets.js';
import type { RunPlan } from './plan.js';
import type { StoreCounts } from './phases/store-fill.js';

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

/** What a running phase reads and leaves for the phases after it. */
export interface PhaseContext {
  readonly plan: RunPlan;
  /** Names what the run creates, e.g. pc-20261121T220500-3fa2. */
  readonly runId: string;
  /** Where requests go: the plan's base URL, or the embedded server's. */
  readonly baseUrl: string;
  /** The embedded reference server is the target (it is reached directly, never through a proxy). */
  readonly embedded: boolean;
  /** The suite's own client, for the conformance phases; a load measures with connections of its own. */
  readonly client: Client | undefined;
  /** The client (its last layer the run's one write gate: read-only mode, --max-writes): what every phase sends through. */
  readonly sender: Sender | undefined;
  /** The client's options for the run, which a load's connections share (without the client's abort and wait events). */
  readonly http: HttpClientOptions;
  readonly listener: RunListener;
  /** Checks and cases switched off, with the reason each report shows. */
  readonly disabled: ReadonlyMap<string, string>;
  /** Values of the built-in variables (runId, categoryId, unknownPetId), the same for every case of the run. */
  readonly variables: Variables;
  /** Every pet the run created, whichever phase created it. */
  readonly created: CreatedPets;
  /** What the run has seen of the store, from every phase's responses (the client's observe layer): what the invariants judge against. */
  readonly model: StoreModel;
  /** The run's one judge: exchanges, requests without an answer, the load, the verdict. */
  readonly judge: Judge;
  /** What the recommendation-level exchange checks found, by check id, from every phase. */
  readonly findings: RunFindings;
  /** What a read-after-write step's window and backoff are measured by. */
  readonly clock: Clock;
  /** Ctrl-C (or SIGTERM): the run stops starting work and still reports. */
  readonly signal: AbortSignal | undefined;
  /** Ctrl-C, or the client stopping the run (the server gone, a wait longer than allowed). */
  readonly stop: AbortSignal | undefined;
  /** Aborts the requests in flight (the run was interrupted and their grace ran out). */
  readonly abort: AbortSignal | undefined;
  /** What the store fill counted and added, once it ran. */
  store?: StoreCounts;
  /** The load measured or merged, once a load phase ran. */
  load?: LoadReport;
}

/** A phase of a run. */
export interface Phase {
  /** Stable: events and `requestsBySuite` name it. */
  readonly id: string;
  /** One line: what it does. */
  readonly title: string;
  /** It decides whether the run can start at all (the preflight): it runs before onRunStart, reports no case and emits no event. */
  readonly gate?: boolean;
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
  /** Runs it: the results of its cases, in the order of the report, each announced by onCaseStart then onCaseEnd. */
  run(context: PhaseContext): Promise<CaseResult[]>;
}

/** Why a phase whose every planned case is disabled does not run; each case still reports its own reason (see skipPhase). */
export function everyCaseDisabled(plan: RunPlan, cases: readonly CaseInfo[]): PhaseSkip | undefined {
  const ids = new Set(plan.disabled.map((d) => d.id));
  return cases.length > 0 && cases.every((c) => ids.has(c.id))
    ? { code: 'disabled', reason: 'every case of the phase is disabled' }
    : undefined;
}

/** The cases of a phase that does not run, each not judged: its own disabled reason when it has one, else the phase's. */
export async function skipPhase(context: PhaseContext, cases: readonly CaseInfo[], skip: PhaseSkip): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const info of cases)
    results.push(
      await reportCase(context.listener, info, () => disabledCase(info, context.disabled) ?? notJudgedCase(info, skip.code, skip.reason)),
    );
  return results;
}

/** The options the case-running phases share; only a run with a conformance part and a client has them. */
export function caseOptions(context: PhaseContext): CaseRunOptions {
  const { plan, sender } = context;
  const conformance = plan.conformance;
  if (conformance === undefined || sender === undefined) throw new Error('a conformance phase ran in a run without conformance cases');
  return {
    client: sender,
    contract: plan.contract,
    variables: context.variables,
    now: plan.now,
    readOnly: conformance.readOnly,
    concurrency: conformance.concurrency,
    consistencyWindowMs: conformance.consistencyWindowMs,
    excerptBytes: plan.excerptBytes,
    disabled: context.disabled,
    listener: context.listener,
    created: context.created,
    model: context.model,
    judge: context.judge,
    findings: context.findings,
    ...(conformance.exchangeChecks === undefined ? {} : { exchangeChecks: conformance.exchangeChecks }),
    ...(context.store === undefined ? {} : { store: context.store }),
    // The client stops the run when the server is gone or asks for more waiting than allowed; Ctrl-C stops it too.
    ...(context.stop === undefined ? {} : { signal: context.stop }),
    maxWrites: conformance.maxWrites,
    ...(context.client === undefined ? {} : { budget: context.client.writeBudget }),
    waitClock: context.clock,
    keyAsWrong: variantsSendingTheKey(plan.target.apiKey),
  };
}
