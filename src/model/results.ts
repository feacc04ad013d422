/** The result model: what a run found, in the shape the JSON report stores it. */
import type { LoadReport } from './load.js';
import type { OperationName } from './scenario.js';

/** How one check ended. `errored` means it could not be tested; it never means the server is wrong. */
export type Outcome = 'passed' | 'failed' | 'warned' | 'errored' | 'skipped';

/** How much a broken rule weighs: `fail` where the contract speaks, `warn` where practice recommends. */
export type Level = 'fail' | 'warn';

/** One assertion evaluated against one exchange. */
export interface AssertionResult {
  /** The assertion or exchange check id, e.g. `status` or `errors.error-body`. */
  id: string;
  level: Level;
  outcome: 'passed' | 'failed' | 'warned';
  /** Index of the step whose exchange was judged. */
  step: number;
  message: string;
  /** Every individual problem, e.g. each schema error. */
  details?: string[];
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
  request: RequestEvidence;
  response?: ResponseEvidence;
  /** A transport failure: timeout, refused connection, oversized body. */
  error?: { code: string; message: string };
  durationMs: number;
  /** How many times the step was sent (more than 1 when read-after-write needed a retry). */
  attempts: number;
  /** A curl command that sends the request again, the key read from $PETSTORE_API_KEY. */
  reproduce?: string;
}

/** Where a check was declared. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** The static description of a check: what the catalogue lists. */
export interface CheckInfo {
  id: string;
  title: string;
  clause: string;
  suite: string;
  operation: OperationName;
  level: Level;
  source: SourceLocation;
}

/** The result of one check. */
export interface CheckResult extends CheckInfo {
  outcome: Outcome;
  durationMs: number;
  /** Why a check was skipped or errored, or a one-line summary of its failure. */
  reason?: string;
  assertions: AssertionResult[];
  exchanges: ExchangeEvidence[];
  /** Extra sends made inside the read-after-write window. */
  retries: number;
}

/** Counts of checks by outcome. */
export type OutcomeCounts = Record<Outcome, number>;

/** Facts about the run itself. */
export interface RunMeta {
  tool: { name: string; version: string };
  runId: string;
  baseUrl: string;
  /** True when the suite started its own reference server. */
  embeddedServer: boolean;
  startedAt: string;
  /** The suite's clock: the date checks judge time-bound rules by. */
  clock: string;
  suites: string[];
  options: Record<string, string | number | boolean | string[]>;
  /** Deprecated operations, the day the contract removes each (YYYY-MM-DD) and the days the suite's clock leaves until then (negative once past). */
  deprecations: Array<{ operation: OperationName; sunset: string; daysLeft: number }>;
}

/** The verdict of a whole run; it decides the exit code (0, 1, 2). */
export type Verdict = 'passed' | 'failed' | 'incomplete';

/** The canonical report: every other format renders from this. */
export interface RunReport {
  reportVersion: 1;
  meta: RunMeta;
  finishedAt: string;
  durationMs: number;
  /** passed: nothing failed; failed: a check failed (or warned, in strict mode); incomplete: nothing failed but a check could not be tested. */
  verdict: Verdict;
  counts: OutcomeCounts;
  /** Requests sent to the server, preflight and retries included. */
  requests: number;
  /** Pets the run created; each one's name starts with the run id. */
  createdPets: { count: number; namedWith: string };
  /** Ctrl-C stopped the run: the checks it had not started are skipped, and the exit code is 130. */
  interrupted?: true;
  checks: CheckResult[];
  /** Every warned assertion of the run, in check order (also inside each check). */
  warnings?: RunWarning[];
  /** The load profile's result, when the run included one (its thresholds are checks above). */
  load?: LoadReport;
}

/** One warning of a run: a rule practice recommends that the server did not follow. */
export interface RunWarning {
  check: string;
  assertion: string;
  step: number;
  message: string;
}

/** The warnings of a run, in check order. */
export function warningsOf(checks: readonly CheckResult[]): RunWarning[] {
  return checks.flatMap((c) => c.assertions.filter((a) => a.outcome === 'warned').map((a) => ({ check: c.id, assertion: a.id, step: a.step, message: a.message })));
}

/** An empty count of outcomes. */
export function emptyCounts(): OutcomeCounts {
  return { passed: 0, failed: 0, warned: 0, errored: 0, skipped: 0 };
}
