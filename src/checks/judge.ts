/**
 * The one judge of a run: an exchange (a step's expectations, then every exchange check, against the store model as it
 * was before the exchange), a request that got no answer (the transport checks), and the run (a load's figures by its
 * profile, the verdict). "Blame once" is a step of it: a wrong stored value is one failure, where it was first shown.
 */
import type { CheckMeta, ExchangeCheck, Judgement } from '../model/check.js';
import { boundedText, MAX_FAILURES } from '../model/bounded-text.js';
import type { Contract } from '../model/contract.js';
import type { Exchange } from '../model/exchange.js';
import { isJsonObject, type JsonObject, type JsonValue, stringifyExactJson } from '../model/json.js';
import type { LoadProfile, LoadReport, LoadStage } from '../model/load.js';
import {
  type CaseResult,
  type CheckOutcome,
  type Failure,
  type Level,
  type Outcome,
  type Verdict,
  type VerdictInputs,
  worstOutcome,
} from '../model/results.js';
import { type CaseSpec, expectationEntries, type Expectations, type StepSpec } from '../model/scenario.js';
import { idDigits, petsShown, type StoreView } from '../model/store-model.js';
import { plays } from '../model/contract.js';
import { fillTemplate, type Variables } from '../model/template.js';
import { JudgementTally, listingState } from './ledger.js';
import { breachedMetrics } from './load-checks.js';
import { exchangeChecks as registeredExchangeChecks, expectationChecks, runChecks, transportChecks } from './registry.js';

/** Runs a check's rule; a rule that throws is an internal error (a bug of this project, never the server's), and the run goes on. */
export function guarded(evaluate: () => Judgement): Judgement {
  try {
    return evaluate();
  } catch (error) {
    return { outcome: 'internal-error', message: `the check threw: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A judgement as the outcome of a check at a level: a failure of a `warn` rule is a warning (the one way to warn). */
export function outcomeOf(
  check: Pick<CheckMeta, 'id'>,
  level: Level,
  step: number,
  judgement: Judgement,
  source?: CheckOutcome['source'],
): CheckOutcome {
  const outcome: Outcome = judgement.outcome === 'failed' && level === 'warn' ? 'warned' : judgement.outcome;
  const result: CheckOutcome = { id: check.id, level, outcome, step, message: boundedText(judgement.message) };
  if (judgement.outcome === 'failed') result.failures = boundedFailures(judgement.failures);
  if (source !== undefined) result.source = source;
  if ((judgement.outcome === 'passed' || judgement.outcome === 'failed') && judgement.threshold !== undefined)
    result.threshold = judgement.threshold;
  return result;
}

/** A check's failures as reports keep them: each field a few KiB at most, and at most MAX_FAILURES of them. */
function boundedFailures(failures: readonly Failure[]): Failure[] {
  const kept = failures.slice(0, MAX_FAILURES).map((f) => {
    const out: Failure = { ...f, message: boundedText(f.message) };
    if (f.expected !== undefined) out.expected = boundedText(f.expected);
    if (f.actual !== undefined) out.actual = boundedText(f.actual);
    return out;
  });
  if (failures.length > MAX_FAILURES) kept.push({ message: `… and ${failures.length - MAX_FAILURES} more failures of this check` });
  return kept;
}

/** A case's outcome from its checks, and its reason: the message of the first check that decided it. */
export function decided(checks: readonly CheckOutcome[]): { outcome: Outcome; reason?: string } {
  const outcome = worstOutcome(checks);
  const reason = outcome === 'passed' ? undefined : checks.find((c) => c.outcome === outcome)?.message;
  return reason === undefined ? { outcome } : { outcome, reason };
}

/** What the checks said about one exchange: the case's checks, and the recommendation-level exchange checks (run findings). */
export interface ExchangeJudgement {
  checks: CheckOutcome[];
  findings: Array<{ check: ExchangeCheck; outcome: CheckOutcome }>;
  /** The rules it did not apply to that it kept all the same (see ExchangeCheck.holds): judged, for the ledger only. */
  held?: string[];
}

/** Whether an exchange a check does not apply to keeps it; a `holds` that throws keeps nothing (its `applies` decided). */
function keeps<C>(check: { holds?(context: C): boolean }, context: C): boolean {
  if (check.holds === undefined) return false;
  try {
    return check.holds(context) === true;
  } catch {
    return false;
  }
}

/** What judging an exchange reads besides the exchange: the contract, what is switched off, and the store model. */
export interface ExchangeJudging {
  contract: Contract;
  /** Checks switched off, with the reason. */
  disabled: ReadonlyMap<string, string>;
  /** The exchange checks every response is judged by (default: the registry's). */
  exchangeChecks?: readonly ExchangeCheck[];
  /** The store model: an exchange is judged against it as it was before the exchange. */
  model?: { before(exchange: Exchange): StoreView };
}

/** A step to judge an exchange by: what it expects (and warns of), what it captures, and the case's level. */
export interface StepExpectations {
  step: Pick<StepSpec, 'expect' | 'warn' | 'capture' | 'sources'>;
  index: number;
  level: Level;
  vars: Variables;
}

/** Whether a check applies; a check whose `applies` throws is judged as applying, so that its internal error is reported. */
function appliesTo(applies: () => boolean): Judgement | boolean {
  const judged = guarded(() => ({ outcome: applies() ? 'passed' : 'not-judged', message: '' }));
  return judged.outcome === 'internal-error' ? judged : judged.outcome === 'passed';
}

/** Judges an exchange: the step's own expectations and captures, then the exchange checks (recommendations as run findings). */
export function judgeExchange(exchange: Exchange, expected: StepExpectations, judging: ExchangeJudging): ExchangeJudgement {
  const { step, index, level: caseLevel, vars } = expected;
  const { contract, disabled } = judging;
  const view = judging.model?.before(exchange);
  const model = view === undefined ? {} : { model: view };
  const results: CheckOutcome[] = [];
  const findings: ExchangeJudgement['findings'] = [];
  const held: string[] = [];
  const entries = expectationEntries(step.expect, exchange.response.status);
  const declared: Array<[string, unknown, Level, string]> = [
    ...entries.map((e): [string, unknown, Level, string] => [e.key, e.value, caseLevel, `expect.${e.path}`]),
    ...expectationEntries(step.warn, exchange.response.status).map((e): [string, unknown, Level, string] => [
      e.key,
      e.value,
      'warn',
      `warn.${e.path}`,
    ]),
    ...(step.capture === undefined ? [] : [['capture', step.capture, caseLevel, 'capture'] as [string, unknown, Level, string]]),
  ];
  for (const [key, value, level, path] of declared) {
    const checks = expectationChecks(key);
    const source = step.sources?.[path];
    if (checks.length === 0) {
      const unregistered: Judgement = { outcome: 'internal-error', message: `no check is registered for the expectation '${key}'` };
      results.push(outcomeOf({ id: `expect.${key}` }, level, index, unregistered, source));
      continue;
    }
    const filled = fillTemplate(value as JsonValue, vars);
    for (const check of checks) {
      if (disabled.has(check.id)) continue;
      const context = { exchange, contract, expected: filled, ...model };
      const applies = check.applies === undefined ? true : appliesTo(() => check.applies?.(context) ?? true);
      if (applies === false) {
        if (keeps(check, context)) held.push(check.id);
        continue;
      }
      // A recommendation on a declared expectation warns whatever the case's level; the rule itself takes the case's.
      const at: Level = check.level === 'warn' ? 'warn' : level;
      results.push(outcomeOf(check, at, index, applies === true ? guarded(() => check.evaluate(context)) : applies, source));
    }
  }
  // What the step's `expect` block declares for this status, so an exchange check does not judge it twice.
  const context = { exchange, contract, declared: Object.fromEntries(entries.map((e) => [e.key, e.value])) as Expectations, ...model };
  for (const check of judging.exchangeChecks ?? registeredExchangeChecks) {
    if (disabled.has(check.id)) continue;
    const applies = appliesTo(() => check.applies(context));
    if (applies === false) {
      if (keeps(check, context)) held.push(check.id);
      continue;
    }
    const outcome = outcomeOf(check, check.level, index, applies === true ? guarded(() => check.evaluate(context)) : applies);
    // A recommendation on every response is a run finding: it never decides whether a case passed or could be judged.
    if (check.level === 'warn') findings.push({ check, outcome });
    else results.push(outcome);
  }
  return held.length === 0 ? { checks: results, findings } : { checks: results, findings, held };
}

/** A request that got no answer, as the transport checks judge it (a TransportError is one). */
export interface TransportFailure {
  message: string;
  code: string;
  timedOut: boolean;
  answeredMeanwhile: number;
  closedTwice: boolean;
  beforeResponse: boolean;
}

/** Judges a request that got no response by the transport checks; with every one disabled, the case still could not be tested. */
export function judgeTransport(failure: TransportFailure, step: number, disabled: ReadonlyMap<string, string>): CheckOutcome[] {
  const context = {
    message: failure.message,
    code: failure.code,
    timedOut: failure.timedOut,
    answeredMeanwhile: failure.answeredMeanwhile,
    closedTwice: failure.closedTwice,
    cutShort: !failure.beforeResponse && !failure.timedOut,
  };
  return transportChecks
    .filter((check) => !disabled.has(check.id))
    .map((check) =>
      outcomeOf(
        check,
        check.level,
        step,
        guarded(() => check.evaluate(context)),
      ),
    );
}

/**
 * Blame once: a check that failed only on pets an exchange shows, by the schema, with the same wrong value an earlier
 * exchange was already blamed for, refers to that exchange instead of failing again; a new wrong value is recorded.
 */
export class BlameLedger {
  /** Each pet, as a response showed it, that broke the contract's schema: where it was first shown (and blamed). */
  private readonly blamed = new Map<string, string>();

  /** The checks of an exchange (named `label`), each failure already blamed elsewhere turned into a pointer to it. */
  blameOnce(exchange: Exchange, checks: readonly CheckOutcome[], label: string): CheckOutcome[] {
    return checks.map((check) => {
      const keys = check.outcome === 'failed' ? schemaFailuresOnPets(exchange, check.failures ?? []) : undefined;
      if (keys === undefined) return check;
      const earlier = keys.map((key) => this.blamed.get(key.key));
      if (earlier.every((where) => where !== undefined)) {
        const ids = [...new Set(keys.map((key) => key.id))].join(', ');
        const { failures: _, ...rest } = check;
        return { ...rest, outcome: 'passed', message: `the same wrong value of pet ${ids} was reported at ${earlier[0] ?? ''}` };
      }
      const where = `${exchange.request.method} ${exchange.request.target} (${label})`;
      for (const key of keys) if (!this.blamed.has(key.key)) this.blamed.set(key.key, where);
      return check;
    });
  }
}

/** The pets whose schema failures these are (id, and the pet as shown), when every failure is a schema failure inside a pet with an id. */
function schemaFailuresOnPets(exchange: Exchange, failures: readonly Failure[]): Array<{ id: string; key: string }> | undefined {
  if (failures.length === 0) return undefined;
  const body = exchange.response.json;
  const listing = plays(exchange.request.operation, 'list') && Array.isArray(body);
  const keys: Array<{ id: string; key: string }> = [];
  for (const failure of failures) {
    // A failure at the root of a single body is about the body as a whole (not a Pet at all), not a value of the pet.
    if (failure.schemaPath === undefined || failure.pointer === undefined || failure.pointer === '') return undefined;
    const index = listing ? /^\/(\d+)(?:\/|$)/.exec(failure.pointer)?.[1] : undefined;
    const pet = listing ? (index === undefined ? undefined : (body as JsonValue[])[Number(index)]) : petsShown(exchange)[0];
    const id = isJsonObject(pet) ? idDigits(pet['id']) : undefined;
    if (id === undefined || (listing && index === undefined)) return undefined;
    keys.push({ id, key: `${id}\n${stringifyExactJson(pet as JsonObject)}` });
  }
  return keys;
}

/** Whether a measured stage breaks the profile's thresholds: what ends a ramp (the load runner measures; this decides). */
export function stageBreaks(profile: LoadProfile, stage: LoadStage): boolean {
  return breachedMetrics(profile, stage).length > 0;
}

/** The stages as judged: what each broke, the stage whose figures are judged, and the highest rate a ramp held. */
export interface JudgedStages {
  stage: LoadStage;
  highestRateHeld?: number;
}

/**
 * Marks what each stage broke, and picks the judged stage: a constant profile's one; for a ramp, the first breach at or
 * below the rate it must hold, else the last stage that held.
 */
export function judgeStages(profile: LoadProfile, stages: readonly LoadStage[]): JudgedStages {
  for (const stage of stages) stage.breached = breachedMetrics(profile, stage);
  // The pressure step is judged by its own check (load.pressure), never as the profile's stage.
  const last = (stages.filter((s) => s.pressure === undefined).at(-1) ?? stages.at(-1)) as LoadStage;
  if (!profile.ramp) return { stage: last };
  const breachIndex = stages.findIndex((s) => s.breached.length > 0);
  const held = breachIndex === -1 ? stages : stages.slice(0, breachIndex);
  const breach = breachIndex === -1 ? undefined : stages[breachIndex];
  // A breach at or below the rate the service must hold is what the thresholds judge; one above it only marks the capacity.
  const mustHold = breach !== undefined && (breach.rate ?? 0) <= (profile.ramp.require ?? profile.ramp.from);
  const stage = mustHold ? (breach as LoadStage) : (held.at(-1) ?? last);
  const highestRateHeld = held.at(-1)?.rate;
  return highestRateHeld === undefined ? { stage } : { stage, highestRateHeld };
}

/** Judges a load by every run check that applies: the outcomes the load case is decided by. */
export function judgeLoad(load: LoadReport, disabled: ReadonlyMap<string, string>): CheckOutcome[] {
  const context = { load };
  return runChecks
    .filter((check) => !disabled.has(check.id) && check.applies(context))
    .map((check) =>
      outcomeOf(
        check,
        check.level,
        0,
        guarded(() => check.evaluate(context)),
        check.sourceOf(context),
      ),
    );
}

/** What every phase's judge shares: the blame-once ledger and the tally of judgements. */
export interface JudgeState {
  blame: BlameLedger;
  tally: JudgementTally;
}

/**
 * The run's one judge: what it judges by, its blame-once ledger and its tally of judgements (the ledger of judgement),
 * shared by every phase; each phase judges through its own view (`inPhase`), so that the tally knows where it judged.
 */
export class Judge {
  constructor(
    readonly judging: ExchangeJudging,
    protected readonly state: JudgeState = { blame: new BlameLedger(), tally: new JudgementTally() },
    /** The phase this view of the judge judges for. */
    readonly phase?: string,
  ) {}

  /** Checks and cases switched off, with the reason each report shows. */
  get disabled(): ReadonlyMap<string, string> {
    return this.judging.disabled;
  }

  /** The exchange checks every response is judged by (undefined: the registry's). */
  get exchangeChecks(): readonly ExchangeCheck[] | undefined {
    return this.judging.exchangeChecks;
  }

  /** Every judgement of the run so far, by rule: what the ledger of judgement is built from. */
  get tally(): JudgementTally {
    return this.state.tally;
  }

  /** An exchange, by a step's expectations and every exchange check (see judgeExchange); tallied once settled (`record`). */
  exchange(exchange: Exchange, expected: StepExpectations): ExchangeJudgement {
    return judgeExchange(exchange, expected, this.judging);
  }

  /** The checks of an exchange once judged for good, each wrong value already blamed elsewhere pointing there. */
  blameOnce(exchange: Exchange, checks: readonly CheckOutcome[], label: string): CheckOutcome[] {
    return this.state.blame.blameOnce(exchange, checks, label);
  }

  /**
   * Tallies what judged an exchange for good (its retries over, blame once done) and the rules it kept without applying
   * (`held`), or, without an exchange, a request that got no answer: an answered exchange also keeps every transport rule
   * (every request is answered).
   */
  record(exchange: Exchange | undefined, checks: readonly CheckOutcome[], held: readonly string[] = []): void {
    const state = exchange === undefined ? undefined : listingState(exchange, this.judging.contract);
    if (state !== undefined) this.state.tally.listingSeen(state);
    for (const check of checks) this.state.tally.judged(check, this.phase, state);
    for (const id of held) this.state.tally.judged({ id, outcome: 'passed', message: 'kept' }, this.phase, state);
    if (exchange === undefined) return;
    for (const check of transportChecks)
      if (!this.disabled.has(check.id)) this.state.tally.judged({ id: check.id, outcome: 'passed', message: 'answered' }, this.phase);
  }

  /** A case ran or was reported: the case-scope rules it declares, and why it judged none of those it did not (see JudgementTally). */
  caseRan(spec: CaseSpec, result: CaseResult): void {
    this.state.tally.caseRan(spec, result);
  }

  /** A request that got no answer (see judgeTransport). */
  transport(failure: TransportFailure, step: number): CheckOutcome[] {
    return judgeTransport(failure, step, this.judging.disabled);
  }

  /** A load, by its profile's run checks (see judgeLoad), tallied: a run rule the profile does not ask for is not selected. */
  load(load: LoadReport): CheckOutcome[] {
    const checks = judgeLoad(load, this.judging.disabled);
    const applied = new Set(checks.map((c) => c.id));
    for (const check of runChecks)
      if (!applied.has(check.id) && !this.disabled.has(check.id))
        this.state.tally.notAsked(check.id, `not selected: this load does not ask for it (it applies when ${check.appliesWhen})`);
    this.record(undefined, checks);
    return checks;
  }

  /** The run's verdict (see judgeRun). */
  run(inputs: VerdictInputs): Verdict {
    return judgeRun(inputs);
  }
}

/** The run's verdict: a broken contract first, then a bug of ours, then what could not be tested, run or finished. */
export function judgeRun(inputs: VerdictInputs): Verdict {
  const { counts, strict } = inputs;
  // With --fail-on new, only what the baseline did not already fail decides; the known failures are still reported.
  const failures = inputs.gatedFailures ?? counts.failed + (strict ? counts.warned + inputs.findings : 0);
  if (failures > 0) return 'failed';
  if (inputs.internalErrors > 0 || counts['internal-error'] > 0) return 'internal-error';
  if (counts['could-not-test'] > 0 || inputs.interrupted || inputs.stopped || inputs.judgedTooLittle === true) return 'incomplete';
  return 'passed';
}
