/**
 * The run's judge as the phases use it: the two calls that decide. `settle` settles an exchange once its retries are over
 * (blame once, the findings, the ledger of judgement); `caseOutcome` settles a case's outcome from its judgements. Beside
 * them, the rules a case's steps go by: a failed step ends the case, a read-after-write step is sent again while only what
 * it expects of the write failed, and a case not run (or not finished) is not judged.
 */
import type { AuthVariant } from '../model/contract-names.js';
import type { Exchange } from '../model/exchange.js';
import { worstOutcome, type CaseInfo, type CaseResult, type CheckOutcome, type Outcome, type SkipCode } from '../model/results.js';
import type { RunFindings } from './findings.js';
import { decided, type ExchangeJudgement, type ExchangeJudging, Judge, type JudgeState } from './judge.js';

/** What an exchange settled to: the checks its case keeps, and how the case ends when a precondition step found something missing. */
export interface SettledExchange {
  checks: CheckOutcome[];
  /** A precondition step's expectation failed: what the step needed is not there, so the case is not judged (not failed). */
  unmet?: CaseOutcome;
}

/** The checks that failed, when every one of them is an expectation of the step (`expect.*`); else none. */
function onlyExpectationsFailed(results: readonly CheckOutcome[]): CheckOutcome[] {
  const failed = results.filter((r) => r.outcome === 'failed');
  return failed.some((r) => !r.id.startsWith('expect.')) ? [] : failed;
}

/** The message of a precondition's failed expectation, when only expectations failed (what the step needed is not there). */
function unmetPrecondition(results: readonly CheckOutcome[]): string | undefined {
  return onlyExpectationsFailed(results)[0]?.message;
}

/**
 * Whether a read-after-write step may be sent again (within the consistency window): only what it expects of the write
 * failed, which may not show yet; a rule every exchange must keep (no 5xx, JSON) is judged at once.
 */
export function awaitsTheWrite(checks: readonly CheckOutcome[]): boolean {
  return onlyExpectationsFailed(checks).length > 0;
}

/** Whether a step's checks end its case: it failed, so no later step starts (those under way are still judged). */
export function endsTheCase(checks: readonly CheckOutcome[]): boolean {
  return worstOutcome(checks) === 'failed';
}

/** The one judge of the run (see Judge), with where recommendation-level findings go and the credentials that would send the key. */
export class RunJudging extends Judge {
  constructor(
    judging: ExchangeJudging,
    /** What the recommendation-level exchange checks found, by check id, from every phase. */
    readonly findings: RunFindings,
    /** The auth variants that would send the key itself with this key where they should send a wrong credential, and why. */
    readonly keyAsWrong: ReadonlyMap<AuthVariant, string>,
    state?: JudgeState,
    phase?: string,
  ) {
    super(judging, state, phase);
  }

  /** The same judge (its blame-once ledger, its tally, its findings) judging for one phase: the ledger records where. */
  inPhase(phase: string): RunJudging {
    return new RunJudging(this.judging, this.findings, this.keyAsWrong, this.state, phase);
  }

  /**
   * Settles an exchange of a case once its retries are over: a wrong stored value blamed where it was first shown, the
   * findings kept, the ledger told what judged it; a precondition's own expectations judge nothing of the contract.
   */
  settle(exchange: Exchange, judged: ExchangeJudgement, where: { caseId: string; step: number; precondition: boolean }): SettledExchange {
    const checks = this.blameOnce(exchange, judged.checks, `case ${where.caseId}`);
    for (const { check, outcome } of judged.findings) this.findings.record(check, where.caseId, exchange, outcome);
    const unmet = where.precondition ? unmetPrecondition(checks) : undefined;
    const kept = unmet === undefined ? checks : checks.filter((r) => !r.id.startsWith('expect.'));
    this.record(exchange, [...kept, ...judged.findings.map((f) => f.outcome)], unmet === undefined ? judged.held : []);
    if (unmet === undefined) return { checks: kept };
    return { checks: kept, unmet: notJudgedOutcome('precondition', `precondition of step ${where.step + 1} not met: ${unmet}`) };
  }
}

/**
 * A case's outcome once a step got no answer: what its checks decided where that is worse than passed, else could not
 * test; the reason is the deciding check's message, or `why` (the transport failure).
 */
export function unansweredCaseOutcome(checks: readonly CheckOutcome[], why: string): { outcome: Outcome; reason: string } {
  const judged = decided(checks);
  return { outcome: judged.outcome === 'passed' ? 'could-not-test' : judged.outcome, reason: judged.reason ?? why };
}

/** A case's outcome from its checks, and why when it is not passed. */
export interface CaseOutcome {
  outcome: Outcome;
  reason?: string;
  skip?: SkipCode;
}

/** A case not judged (not run, not finished, or what it needed is not there), with the kind of reason and the reason. */
export function notJudgedOutcome(skip: SkipCode, reason: string): CaseOutcome {
  return { outcome: 'not-judged', reason, skip };
}

/** A case this project broke on (a request it could not build or send): an internal error, never a verdict on the server. */
export function brokenCase(reason: string): CaseOutcome {
  return { outcome: 'internal-error', reason };
}

/** A case that was not judged (not run, or nothing to conclude), with the kind of reason and the reason; `durationMs` when it took time. */
export function notJudgedCase(info: CaseInfo, skip: SkipCode, reason: string, durationMs = 0): CaseResult {
  return { ...info, outcome: 'not-judged', skip, reason, durationMs, checks: [], exchanges: [], retries: 0 };
}

/** A case that passed on what a phase concluded over many requests: one check of its own id, with the message. */
export function passedCase(info: CaseInfo, message: string, durationMs: number): CaseResult {
  return {
    ...info,
    outcome: 'passed',
    durationMs,
    checks: [{ id: info.id, level: 'fail', outcome: 'passed', step: 0, message }],
    exchanges: [],
    retries: 0,
  };
}

/**
 * Says on each check left not judged that the case judges it another way, and by what (`judgedBy`: undefined where it
 * does not): a full page of a long-lived store may hold none of the run's pets, and a read by id judges the pet instead.
 */
export function noteJudgedAnotherWay(checks: readonly CheckOutcome[], judgedBy: (check: CheckOutcome) => string | undefined): void {
  for (const c of checks) {
    const by = c.outcome === 'not-judged' ? judgedBy(c) : undefined;
    if (by !== undefined) c.message = `${c.message}; the case judges the pet by ${by} instead`;
  }
}

/**
 * A case's outcome from the checks of its steps, every one run: the worst; a rule that judged nothing anywhere in the case
 * leaves it not judged, unless `judgedAnotherWay` says the case judges that another way (a full page of a long-lived
 * store); and a case never passes for want of data (no check judged: every one disabled, or none applied).
 */
export function caseOutcome(
  checks: readonly CheckOutcome[],
  { judgedAnotherWay = () => false, nothingJudged }: { judgedAnotherWay?: (check: CheckOutcome) => boolean; nothingJudged: string },
): CaseOutcome {
  const { outcome, reason } = decided(checks);
  if (outcome !== 'passed') return reason === undefined ? { outcome } : { outcome, reason };
  const judgedIds = new Set(checks.filter((c) => c.outcome === 'passed').map((c) => c.id));
  const unjudged = checks.find((c) => c.outcome === 'not-judged' && !judgedIds.has(c.id) && !judgedAnotherWay(c));
  if (unjudged !== undefined) return { outcome: 'not-judged', reason: `not judged: ${unjudged.message}`, skip: 'precondition' };
  if (judgedIds.size === 0) return { outcome: 'not-judged', reason: `not judged: ${nothingJudged}`, skip: 'precondition' };
  return { outcome };
}
