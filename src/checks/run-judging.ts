/**
 * The run's judge as the phases use it: the two calls that decide. `settle` settles an exchange once its retries are over
 * (blame once, the findings, the ledger of judgement); `caseOutcome` settles a case's outcome from its judgements.
 */
import type { AuthVariant } from '../model/contract-names.js';
import type { Exchange } from '../model/exchange.js';
import type { CheckOutcome, Outcome, SkipCode } from '../model/results.js';
import type { RunFindings } from './findings.js';
import { decided, type ExchangeJudgement, type ExchangeJudging, Judge, type JudgeState } from './judge.js';

/** What an exchange settled to: the checks its case keeps, and what a precondition step found missing. */
export interface SettledExchange {
  checks: CheckOutcome[];
  /** A precondition step's expectation that failed: the case cannot be judged (not a failure). */
  unmet?: string;
}

/** The message of a precondition's failed expectation, when only expectations failed (what the step needed is not there). */
function unmetPrecondition(results: readonly CheckOutcome[]): string | undefined {
  const failed = results.filter((r) => r.outcome === 'failed');
  if (failed.length === 0 || failed.some((r) => !r.id.startsWith('expect.'))) return undefined;
  return failed[0]?.message;
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
  settle(exchange: Exchange, judged: ExchangeJudgement, where: { caseId: string; precondition: boolean }): SettledExchange {
    const checks = this.blameOnce(exchange, judged.checks, `case ${where.caseId}`);
    for (const { check, outcome } of judged.findings) this.findings.record(check, where.caseId, exchange, outcome);
    const unmet = where.precondition ? unmetPrecondition(checks) : undefined;
    const kept = unmet === undefined ? checks : checks.filter((r) => !r.id.startsWith('expect.'));
    this.record(exchange, [...kept, ...judged.findings.map((f) => f.outcome)], unmet === undefined ? judged.held : []);
    return unmet === undefined ? { checks: kept } : { checks: kept, unmet };
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
