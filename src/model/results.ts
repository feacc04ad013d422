/** The result model: what a run found, in the shape the JSON report stores it. A case is what a file declares; a check is a registered rule that judges it. */
import type { ServerWait } from './exchange.js';
import type { LoadReport } from './load.js';
import type { OperationName } from './scenario.js';

/** How a case or a check ended. `errored` means it could not be tested; it never means the server is wrong. */
export type Outcome = 'passed' | 'failed' | 'warned' | 'errored' | 'skipped';

/** How much a broken rule weighs: `fail` where the contract speaks, `warn` where practice recommends. */
export type Level = 'fail' | 'warn';

/** Where something was declared: a case, an expectation, a threshold. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

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
  /** Index of the step whose exchange was judged. */
  step: number;
  message: string;
  /** Every problem it found (empty or absent when it passed). */
  failures?: Failure[];
  /** Where the expectation it judged is declared (absent for rules that apply to every exchange). */
  source?: SourceLocation;
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

/** Why a case was not judged, as a stable code (the reason says it in words). */
export type SkipCode = 'clock' | 'read-only' | 'precondition' | 'interrupted' | 'disabled' | 'write-budget';

/** The result of one case: its outcome, and the outcome of every check that judged it. */
export interface CaseResult extends CaseInfo {
  outcome: Outcome;
  durationMs: number;
  /** Why a case was skipped or errored, or a one-line summary of its failure. */
  reason?: string;
  /** Why it was skipped, when it was. */
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
  options: Record<string, string | number | boolean | string[]>;
  /** Deprecated operations, the day the contract removes each (YYYY-MM-DD) and the days the suite's clock leaves until then (negative once past). */
  deprecations: Array<{ operation: OperationName; sunset: string; daysLeft: number }>;
  /** Checks and cases the configuration disabled, with the reason it gives. */
  disabled: DisabledCheck[];
}

/** The verdict of a whole run; it decides the exit code (0, 1, 2). */
export type Verdict = 'passed' | 'failed' | 'incomplete';

/** The canonical report: every other format renders from this. */
export interface RunReport {
  reportVersion: 2;
  meta: RunMeta;
  finishedAt: string;
  durationMs: number;
  /** passed: nothing failed; failed: a case failed (or warned, in strict mode); incomplete: nothing failed but a case could not be tested, or the run was interrupted. */
  verdict: Verdict;
  /** Cases by outcome. */
  counts: OutcomeCounts;
  /** Requests sent to the server by the suite's own client, preflight and retries included (load traffic is in `load`). */
  requests: number;
  /** What the suite's own client did besides plain exchanges: responses that asked it to wait (429, 503 with Retry-After), the time it waited, requests sent again on a fresh connection. */
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
  /** A signal stopped the run (Ctrl-C, SIGTERM, SIGHUP): the cases it had not started are skipped; the exit code is 130, 143 or 129. */
  interrupted?: true;
  /** What stopped the run before its end (the server gone, rate limits beyond the budget, a load that could not start): exit 2. */
  stopped?: { code: string; message: string };
  cases: CaseResult[];
  /** Every warned check of the run, in case order (also inside each case). */
  warnings: RunWarning[];
  /** The load profile's result, when the run included one (its thresholds judge the load case). */
  load?: LoadReport;
}

/** One warning of a run: a rule practice recommends that the server did not follow. */
export interface RunWarning {
  case: string;
  check: string;
  step: number;
  message: string;
}

/** The warnings of a run, in case order. */
export function warningsOf(cases: readonly CaseResult[]): RunWarning[] {
  return cases.flatMap((c) =>
    c.checks.filter((k) => k.outcome === 'warned').map((k) => ({ case: c.id, check: k.id, step: k.step, message: k.message })),
  );
}

/** An empty count of outcomes. */
export function emptyCounts(): OutcomeCounts {
  return { passed: 0, failed: 0, warned: 0, errored: 0, skipped: 0 };
}

/** The outcome of a set of check outcomes: a failure decides, then a check that could not judge, then a warning. */
export function worstOutcome(checks: ReadonlyArray<{ outcome: Outcome }>): Outcome {
  for (const outcome of ['failed', 'errored', 'warned'] as const) if (checks.some((c) => c.outcome === outcome)) return outcome;
  return 'passed';
}

/** The verdict from the counts: failures first, then cases that could not be tested or an interrupted run. */
export function verdictOf(counts: OutcomeCounts, strict: boolean, interrupted: boolean): Verdict {
  if (counts.failed > 0 || (strict && counts.warned > 0)) return 'failed';
  if (counts.errored > 0 || interrupted) return 'incomplete';
  return 'passed';
}
