/**
 * The result model: what a run found, in the shape the JSON report stores it. A case is what a file declares; a check is a
 * registered rule that judges it.
 */
import type { ServerWait } from './exchange.js';
import type { LoadReport } from './load.js';
import type { RequestSpaceSummary } from './request-space.js';
import type { OperationName } from './contract-names.js';
import type { SourceLocation } from './source-location.js';

/**
 * How a case or a check ended, each word meaning one thing: `not-judged` (there was nothing to conclude, or it was not run:
 * the reason says why), `could-not-test` (the server or the network prevented it; never a verdict on the contract) and
 * `internal-error` (a check or a phase of this project threw: a bug here, not in the server).
 */
export type Outcome = 'passed' | 'failed' | 'warned' | 'not-judged' | 'could-not-test' | 'internal-error';

/** Every outcome, worst first: the order a case's checks decide it by, and the order reports list them in. */
export const OUTCOMES: readonly Outcome[] = ['failed', 'internal-error', 'could-not-test', 'warned', 'passed', 'not-judged'];

/** The outcomes as people read them: `not judged`, `could not test`, `internal error`. */
export function outcomeWords(outcome: Outcome): string {
  return outcome.replace(/-/g, ' ');
}

/** How much a broken rule weighs: `fail` where the contract speaks, `warn` where practice recommends. */
export type Level = 'fail' | 'warn';

/** One problem a check found, typed so that no reporter has to parse prose. */
export interface Failure {
  message: string;
  /** What the rule wanted, as text (e.g. `200`, `at most 20 items`). */
  expected?: string;
  /** What the server gave, as text. */
  actual?: string;
  /** JSON pointer into the response body where the problem is. */
  pointer?: string;
  /** The schema keyword that rejected the value, e.g. `#/properties/id/format`. */
  schemaPath?: string;
}

/** The outcome of one registered check judging one exchange of a case (or a case's load run). */
export interface CheckOutcome {
  /** The registered check's id, e.g. `expect.status` or `errors.error-body`. */
  id: string;
  level: Level;
  outcome: Outcome;
  /** Index of the step whose exchange was judged (from 0 here; report.json counts from 1, as every report shows it). */
  step: number;
  message: string;
  /** Every problem it found (empty or absent when it passed). */
  failures?: Failure[];
  /** Where the expectation it judged is declared (absent for rules that apply to every exchange). */
  source?: SourceLocation;
  /** A load threshold as it was judged, for reports to show beside the verdict. */
  threshold?: ThresholdLine;
}

/** A load threshold as it was judged: the bound as load tools print it (`p99 <= 500 ms`), and what was measured (`p99 = 12.3 ms`). */
export interface ThresholdLine {
  expression: string;
  measured: string;
}

/** A request as sent, with the credential redacted. */
export interface RequestEvidence {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response as received, bounded. */
export interface ResponseEvidence {
  status: number;
  headers: Record<string, string>;
  /** The start of the body as text, at most the excerpt size. */
  body: string;
  /** Bytes read from the body (up to the response size cap). */
  bytes: number;
  /** True when the body was longer than the cap or the excerpt. */
  truncated: boolean;
  /** The content coding the body was decoded from, when the server sent one. */
  coding?: string;
}

/** One request/response exchange of a step, as evidence. */
export interface ExchangeEvidence {
  step: number;
  /** When the kept attempt's request was sent (ISO 8601); absent in reports of versions before it was recorded. */
  startedAt?: string;
  request: RequestEvidence;
  response?: ResponseEvidence;
  /** A transport failure: timeout, refused connection, oversized body. */
  error?: { code: string; message: string };
  durationMs: number;
  /** How many times the step was sent (more than 1 when read-after-write needed a retry). */
  attempts: number;
  /** A curl command that sends the request again, the key read from $PETSTORE_API_KEY. */
  reproduce?: string;
  /** Why the request was sent a second time on a fresh connection, when it was. */
  connectionRetry?: string;
  /** Responses that asked the suite to wait before this one answered (429, or 503 with Retry-After), and the time waited. */
  throttled?: { responses: number; waitedMs: number };
}

/** The static description of a case: what the catalogue lists. */
export interface CaseInfo {
  id: string;
  title: string;
  clause: string;
  suite: string;
  operation: OperationName;
  level: Level;
  /** Where the case is declared; absent for cases built from what the run itself did (the pets it created). */
  source?: SourceLocation;
}

/** Why a case was not judged, as a stable code: the kind of its reason (the reason says it in words). */
export type SkipCode = 'clock' | 'read-only' | 'precondition' | 'interrupted' | 'disabled' | 'write-budget' | 'http10';

/** The result of one case: its outcome, and the outcome of every check that judged it. */
export interface CaseResult extends CaseInfo {
  outcome: Outcome;
  durationMs: number;
  /** Why a case was not judged or could not be tested, or a one-line summary of its failure. */
  reason?: string;
  /** The kind of reason a case was not judged, when it was not. */
  skip?: SkipCode;
  checks: CheckOutcome[];
  exchanges: ExchangeEvidence[];
  /** Extra sends made inside the read-after-write window. */
  retries: number;
}

/** Counts of cases by outcome. */
export type OutcomeCounts = Record<Outcome, number>;

/** A registered check switched off by the configuration, and why. */
export interface DisabledCheck {
  id: string;
  reason: string;
}

/** Facts about the run itself. */
export interface RunMeta {
  tool: { name: string; version: string };
  runId: string;
  baseUrl: string;
  /** True when the suite started its own reference server. */
  embeddedServer: boolean;
  startedAt: string;
  /** The suite's clock: the date cases judge time-bound rules by. */
  clock: string;
  suites: string[];
  /** The version of the contract the run judged by (the package's openapi.yaml `info.version`). */
  contract?: string;
  options: Record<string, string | number | boolean | string[]>;
  /**
   * Deprecated operations, the day the contract removes each (YYYY-MM-DD) and the days the suite's clock leaves until then
   * (negative once past).
   */
  deprecations: Array<{ operation: OperationName; sunset: string; daysLeft: number }>;
  /** Checks and cases the configuration disabled, with the reason it gives. */
  disabled: DisabledCheck[];
}

/**
 * not-started.json: a run that could not start (nothing listening, a base URL that is no pet store, a refused key, a TLS
 * mismatch, the embedded server not starting). It judged nothing, so it says only what stopped it; the reports of the
 * last run that started are left where they were.
 */
export interface NotStartedReport {
  reportVersion: 4;
  status: 'not-started';
  tool: { name: string; version: string };
  runId: string;
  /** The base URL tried; absent when the embedded server was to be tested and did not start. */
  baseUrl?: string;
  embeddedServer: boolean;
  startedAt: string;
  finishedAt: string;
  /** What stopped it, with its stable code (ERR_UNREACHABLE, ERR_KEY_REFUSED, ERR_TLS, ...). */
  cause: { code: string; message: string };
}

/** The verdict of a whole run; it decides the exit code: passed 0, failed 1, incomplete 2, internal-error 3. */
export type Verdict = 'passed' | 'failed' | 'incomplete' | 'internal-error';

/** The canonical report: every other format renders from this. */
export interface RunReport {
  reportVersion: 4;
  meta: RunMeta;
  finishedAt: string;
  durationMs: number;
  /**
   * failed: a case failed (or warned, or a finding was made, in strict mode): the contract is broken; internal-error:
   * nothing failed but a check or phase of this project threw; incomplete: a case could not be tested, or the run was
   * interrupted or stopped; passed: none of these.
   */
  verdict: Verdict;
  /** Cases by outcome. */
  counts: OutcomeCounts;
  /** Requests sent to the server by the suite's own client, preflight and retries included (load traffic is in `load`). */
  requests: number;
  /**
   * What the suite's own client did besides plain exchanges: responses that asked it to wait (429, 503 with Retry-After),
   * the time it waited, requests sent again on a fresh connection.
   */
  traffic?: { throttledResponses: number; waitedMs: number; connectionRetries: number; waits: ServerWait[] };
  /** Pets the run created; each one's name starts with the run id. */
  createdPets: {
    count: number;
    namedWith: string;
    /** Of these, the pets created only so that the rules that depend on how many pets exist could be judged. */
    toJudge?: number;
  };
  /** Requests the cases of each suite (phase) sent, retries included; load traffic is in `load`. */
  requestsBySuite?: Record<string, number>;
  /** A signal stopped the run (Ctrl-C, SIGTERM, SIGHUP): the cases it had not started are not judged; the exit code is 130, 143 or 129. */
  interrupted?: true;
  /** What stopped the run before its end (the server gone, rate limits beyond the budget, a load that could not start): exit 2. */
  stopped?: { code: string; message: string };
  cases: CaseResult[];
  /** Every warned check of the run's cases (their declared warn-level expectations), in case order (also inside each case). */
  warnings: RunWarning[];
  /** Recommendations (warn-level exchange checks) the server's responses did not follow, by check id: never a case's outcome. */
  findings: Finding[];
  /** Checks and phases of this project that threw (a bug here, not in the server), by where: exit 3. */
  internalErrors: InternalError[];
  /** The load profile's result, when the run included one (its thresholds judge the load case). */
  load?: LoadReport;
  /** The ledger of judgement: every registered rule, what judged it and in which states, or why nothing did. */
  judgement?: JudgementLedger;
  /** The request space: its cells (operation × slot × class × credential), how many were sent and judged, and why not. */
  requestSpace?: RequestSpaceSummary;
  /** What changed since the run given as --baseline: new failures, fixed, still failing, newly not judged, by id. */
  sinceBaseline?: SinceBaseline;
}

/**
 * How a rule fared in a run: `judged` (at least one judgement concluded: passed, failed or warned), `not-judged` (the
 * selection could have judged it and nothing did), `not-selected` (outside what the run selected: not counted).
 */
export type RuleStatus = 'judged' | 'not-judged' | 'not-selected';

/** One reason a rule was not judged where it could have been, and how many times it was the reason. */
export interface RuleReason {
  reason: string;
  count: number;
}

/** How a rule fared in a run, as a baseline compares it: a failure among its judgements, judged, or not judged. */
export type RuleState = 'failed' | 'judged' | 'not-judged';

/** One case (or rule) that changed, or did not, since the baseline: what it was there (`absent`: not in it) and is now. */
export interface BaselineChange {
  id: string;
  was: Outcome | RuleState | 'absent';
  now: Outcome | RuleState;
}

/** The comparison of a run with its baseline, as report.json's `sinceBaseline` holds it. */
export interface SinceBaseline {
  file: string;
  /** How the baseline's run differs from this one (suite version, contract, base URL); empty when alike. */
  unlike: string[];
  /** Cases failing now that passed, were not judged or did not exist in the baseline. */
  newFailures: BaselineChange[];
  /** Cases that failed in the baseline and pass (or warn) now. */
  fixed: BaselineChange[];
  /** Cases that failed in the baseline and fail now. */
  stillFailing: BaselineChange[];
  /** Cases judged in the baseline that are not judged now. */
  newlyNotJudged: BaselineChange[];
  /** The rules of the ledger, compared the same way (a rule fails where any judgement of it failed). */
  rules: { newFailures: BaselineChange[]; fixed: BaselineChange[]; newlyNotJudged: BaselineChange[] };
  /** Findings (recommendations not followed) whose id the baseline did not have. */
  newFindings: string[];
}

/** One registered rule in the ledger: what judged it, by outcome, in which phases and states, or why nothing did. */
export interface RuleLedgerEntry {
  id: string;
  title: string;
  clause: string;
  /** The check's scope (see CheckScope): what kind of thing judges it. */
  scope: 'exchange' | 'case' | 'run' | 'transport';
  level: Level;
  status: RuleStatus;
  /** Judgements that concluded (passed, failed, warned): each one an exchange (a load, for a run rule) it judged. */
  judged: number;
  /** Every judgement of it by outcome: only the outcomes it had. */
  outcomes: Partial<Record<Outcome, number>>;
  /** The phases whose exchanges it judged, in the order they first did. */
  phases: string[];
  /** The states of the listings it judged (filtered or not, the page full or not), when it judged listings. */
  states?: string[];
  /** Why it was not judged where it could have been (or, for a rule not selected, why not): each reason with its count. */
  reasons?: RuleReason[];
}

/**
 * The ledger of judgement of a run: `judged` (N) of `selected` (M) rules, M being every registered rule the run's
 * selection could have judged; the rules it could not (unselected suites, phases or checks, a load profile's unset
 * bounds, disabled checks) are listed as `not-selected` and not counted.
 */
export interface JudgementLedger {
  /** N: the selected rules at least one judgement concluded on. */
  judged: number;
  /** M: the rules the selection could have judged. */
  selected: number;
  /** 100 × N / M, to one decimal (0 when M is 0). */
  percent: number;
  /** --min-judged: the least percent a run must judge, when set. */
  minJudged?: number;
  /** The run judged less than --min-judged, of its rules or of its request space's cells: the verdict is incomplete (exit 2). */
  belowMinimum?: true;
  /** The request space's cells, judged of those it holds, when it ran: --min-judged counts them too. */
  cells?: { judged: number; of: number };
  /** Every registered rule, in the registry's order. */
  rules: RuleLedgerEntry[];
}

/** One warning of a run: a rule practice recommends that the server did not follow. */
export interface RunWarning {
  case: string;
  check: string;
  step: number;
  message: string;
}

/** One response a finding concerns: the case and step that got it, and what the check said. */
export interface FindingExample {
  caseId: string;
  step: number;
  message: string;
  /** The request, as `METHOD url`. */
  request: string;
  status: number;
  failures?: Failure[];
}

/** A recommendation (a warn-level exchange check) that responses of the run did not follow: one per check id, with a few examples. */
export interface Finding {
  id: string;
  title: string;
  clause: string;
  /** How many responses did not follow it. */
  count: number;
  /** The first of them (at most MAX_FINDING_EXAMPLES). */
  examples: FindingExample[];
}

/** The most examples a finding or an internal error keeps; `count` says how many there were. */
export const MAX_FINDING_EXAMPLES = 5;

/** A check or phase of this project that threw, once per check id or phase: a bug to report, never a verdict on the server. */
export interface InternalError {
  /** The check id or the phase that threw. */
  where: string;
  /** What the first of them threw. */
  message: string;
  /** How many times it threw. */
  count: number;
  /** The cases it threw in (at most MAX_FINDING_EXAMPLES). */
  cases: string[];
}

/** The warnings of a run, in case order. */
export function warningsOf(cases: readonly CaseResult[]): RunWarning[] {
  return cases.flatMap((c) =>
    c.checks.filter((k) => k.outcome === 'warned').map((k) => ({ case: c.id, check: k.id, step: k.step, message: k.message })),
  );
}

/**
 * The internal errors of a run's cases (a check that threw, or a case that could not go on for a bug of ours), once per
 * where, with those found elsewhere.
 */
export function internalErrorsOf(cases: readonly CaseResult[], others: readonly InternalError[] = []): InternalError[] {
  const byWhere = new Map<string, InternalError>(others.map((e) => [e.where, { ...e, cases: [...e.cases] }]));
  const add = (where: string, message: string, caseId: string): void => {
    const known = byWhere.get(where);
    if (known === undefined) byWhere.set(where, { where, message, count: 1, cases: [caseId] });
    else {
      known.count += 1;
      if (known.cases.length < MAX_FINDING_EXAMPLES && !known.cases.includes(caseId)) known.cases.push(caseId);
    }
  };
  for (const c of cases) {
    const thrown = c.checks.filter((k) => k.outcome === 'internal-error');
    for (const k of thrown) add(k.id, k.message, c.id);
    if (thrown.length === 0 && c.outcome === 'internal-error') add(c.id, c.reason ?? 'internal error', c.id);
  }
  return [...byWhere.values()];
}

/** An empty count of outcomes. */
export function emptyCounts(): OutcomeCounts {
  return { passed: 0, failed: 0, warned: 0, 'not-judged': 0, 'could-not-test': 0, 'internal-error': 0 };
}

/** The outcome of a set of check outcomes: a failure decides, then a check that threw, then one that could not test, then a warning. */
export function worstOutcome(checks: ReadonlyArray<{ outcome: Outcome }>): Outcome {
  for (const outcome of ['failed', 'internal-error', 'could-not-test', 'warned'] as const)
    if (checks.some((c) => c.outcome === outcome)) return outcome;
  return 'passed';
}

/** What a run's verdict is decided by. */
export interface VerdictInputs {
  counts: OutcomeCounts;
  strict: boolean;
  interrupted: boolean;
  /** The run stopped before its end (the server gone, a budget spent). */
  stopped: boolean;
  /** How many run findings there are (warnings, for --strict). */
  findings: number;
  /** How many internal errors there are, once per where. */
  internalErrors: number;
  /** The run judged less of its rules than --min-judged asks: it cannot pass. */
  judgedTooLittle?: boolean;
  /**
   * With --fail-on new: the failures that decide (new cases failing, and new findings under --strict), in place of every
   * failure; the known ones are still reported.
   */
  gatedFailures?: number;
}
