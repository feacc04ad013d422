/** Runs cases: fills templates, sends each step, has the run's judge judge each exchange, emits events. */
import { evidenceOf, failureEvidence, roundMs } from '../checks/evidence.js';
import { decided, type ExchangeJudgement, Judge } from '../checks/judge.js';
import { TransportError, type OutgoingRequest } from '../http/client.js';
import { type Sender, WriteRefused } from '../http/write-gate.js';
import { REAL_CLOCK, type Clock } from '../model/clock.js';
import type { ExchangeCheck } from '../model/check.js';
import { mapConcurrently } from '../model/concurrency.js';
import type { Contract } from '../model/contract.js';
import { RunError } from '../model/errors.js';
import type { RunListener } from '../model/events.js';
import type { Exchange } from '../model/exchange.js';
import { resolvePointer, type JsonValue } from '../model/json.js';
import {
  worstOutcome,
  type CaseInfo,
  type CaseResult,
  type CheckOutcome,
  type ExchangeEvidence,
  type Outcome,
  type SkipCode,
} from '../model/results.js';
import type { AuthVariant, CaseSpec, RequestSpec, StepSpec } from '../model/scenario.js';
import type { StoreModel } from '../model/store-model.js';
import { fillTemplate, fillText, type Variables } from '../model/template.js';
import type { CreatedPets } from './phases/created-pets.js';
import type { RunFindings } from './findings.js';
import { unmetRequirement, type StoreCounts } from './phases/store-fill.js';

export { decided, guarded, outcomeOf } from '../checks/judge.js';

/** What the engine needs to run cases. */
export interface CaseRunOptions {
  /** The client behind the run's write gate. */
  client: Sender;
  contract: Contract;
  /** Values of the built-in variables (runId, categoryId, unknownPetId). */
  variables: Variables;
  /** The suite's clock. */
  now: Date;
  readOnly: boolean;
  /** How many cases run at once. */
  concurrency: number;
  /** How long a read-after-write step keeps retrying before it fails. */
  consistencyWindowMs: number;
  /** Bytes of a body kept as evidence. */
  excerptBytes: number;
  /** Checks and cases the configuration disabled, with the reason. */
  disabled: ReadonlyMap<string, string>;
  listener: RunListener;
  /** Collects the pets the run creates. */
  created: CreatedPets;
  /**
   * What the run has seen of the store (the client's observe layer tells it of every exchange): the invariants judge each
   * response against it as it was before the response. Only the default judge reads it.
   */
  model?: StoreModel;
  /** The run's one judge (its blame-once ledger shared by every case); one over `contract`, `disabled` and `model` by default. */
  judge?: Judge;
  /** Told of each exchange once it was judged, as the server sent it (a phase that follows what it created reads it here). */
  onExchange?: (exchange: Exchange) => void;
  /** What the store holds, for the cases that require pets (see store-fill.ts). */
  store?: StoreCounts;
  /** Ctrl-C: cases not yet started are not judged (interrupted); those under way finish (their requests are bounded). */
  signal?: AbortSignal;
  /** The most pets the run may create (--max-writes), as the reason of a case not judged names it. */
  maxWrites?: number;
  /** What the write gate says of --max-writes: once spent, a case that writes is not judged (the gate alone counts). */
  budget?: { readonly spent: boolean };
  /** What a read-after-write step's window and backoff are measured by (default: the real clock). */
  waitClock?: Clock;
  /** Collects what the recommendation-level exchange checks find: run findings, never a case's outcome. */
  findings: RunFindings;
  /** The exchange checks every response is judged by (default: the registry's). */
  exchangeChecks?: readonly ExchangeCheck[];
  /** The auth variants that send the key itself with this key, where they should send a wrong credential, and why. */
  keyAsWrong?: ReadonlyMap<AuthVariant, string>;
}

/** Whether the write gate's budget is spent: every pet --max-writes allows is created or being created. */
export function writeBudgetSpent(options: Pick<CaseRunOptions, 'budget'>): boolean {
  return options.budget?.spent === true;
}

/** The options with the run's judge: the one given, else one over the options' contract, checks and model. */
export function withJudge(options: CaseRunOptions): CaseRunOptions & { judge: Judge } {
  if (options.judge !== undefined) return { ...options, judge: options.judge };
  const { contract, disabled, exchangeChecks, model } = options;
  const judge = new Judge({
    contract,
    disabled,
    ...(exchangeChecks === undefined ? {} : { exchangeChecks }),
    ...(model === undefined ? {} : { model }),
  });
  return { ...options, judge };
}

function fillQuery(query: RequestSpec['query'], vars: Variables): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, raw] of Object.entries(query ?? {})) {
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      pairs.push([name, typeof value === 'string' ? fillText(value, vars) : String(value)]);
    }
  }
  return pairs;
}

/** Why a case does not apply today, judged by the suite's clock; undefined when it applies. */
function clockSkipReason(spec: CaseSpec, now: Date): string | undefined {
  const today = now.toISOString().slice(0, 10);
  if (spec.clock?.before !== undefined && today >= spec.clock.before)
    return `applies only before ${spec.clock.before} (the suite's clock says ${today})`;
  if (spec.clock?.from !== undefined && today < spec.clock.from)
    return `applies only from ${spec.clock.from} (the suite's clock says ${today})`;
  return undefined;
}

/** Takes the step's captures out of the response into `vars` (the `expect.capture` check reports any that are missing). */
function captureVariables(step: StepSpec, exchange: Exchange, vars: Map<string, JsonValue>): void {
  for (const [name, pointer] of Object.entries(step.capture ?? {})) {
    const value = resolvePointer(exchange.response.json, pointer);
    if (value !== undefined) vars.set(name, value);
  }
}

/** Why a precondition step is not met: its own expectations or captures failed while no exchange check did. */
function unmetPrecondition(results: readonly CheckOutcome[]): string | undefined {
  const failed = results.filter((r) => r.outcome === 'failed');
  if (failed.length === 0 || failed.some((r) => !r.id.startsWith('expect.'))) return undefined;
  return failed[0]?.message;
}

/** The static description of a case, as the catalogue and reports show it. */
export function caseInfo(spec: CaseSpec): CaseInfo {
  const { id, title, clause, suite, operation, level, source } = spec;
  return source === undefined ? { id, title, clause, suite, operation, level } : { id, title, clause, suite, operation, level, source };
}

/** A case the configuration disabled, not judged, with its reason; undefined when it is not disabled. */
export function disabledCase(info: CaseInfo, disabled: ReadonlyMap<string, string>): CaseResult | undefined {
  const reason = disabled.get(info.id);
  return reason === undefined ? undefined : notJudgedCase(info, 'disabled', `disabled by the configuration: ${reason}`);
}

/** A case that was not judged (not run, or nothing to conclude), with the kind of reason and the reason; `durationMs` when it took time. */
export function notJudgedCase(info: CaseInfo, skip: SkipCode, reason: string, durationMs = 0): CaseResult {
  return { ...info, outcome: 'not-judged', skip, reason, durationMs, checks: [], exchanges: [], retries: 0 };
}

function requestOf(spec: CaseSpec, step: StepSpec, vars: Variables, contract: Contract): OutgoingRequest {
  const path = fillText(step.request.path, vars, encodeURIComponent);
  return {
    method: step.request.method,
    path,
    label: `case ${spec.id}`,
    operation: contract.operationFor(step.request.method, path) ?? spec.operation,
    query: fillQuery(step.request.query, vars),
    headers: Object.fromEntries(Object.entries(step.request.headers ?? {}).map(([k, v]) => [k, fillText(v, vars)])),
    auth: step.request.auth ?? 'valid',
    ...(step.request.json === undefined ? {} : { json: fillTemplate(step.request.json, vars) }),
    ...(step.request.body === undefined ? {} : { body: fillText(step.request.body, vars) }),
    ...(step.request.bytes === undefined
      ? {}
      : {
          bytes: Buffer.concat(
            step.request.bytes.map((part) => (typeof part === 'string' ? Buffer.from(fillText(part, vars)) : Buffer.from(part.hex, 'hex'))),
          ),
        }),
  };
}

/**
 * One step sent (its read-after-write retries included) and judged; or how it ended the case: a request that got no
 * response (`transport`), or one that could not be sent or finished at all (`ended`).
 */
type StepRun =
  | { kind: 'answered'; exchange: Exchange; judged: ExchangeJudgement; attempts: number; startedAt: Date }
  | { kind: 'transport'; error: TransportError; evidence: ExchangeEvidence; checks: CheckOutcome[] }
  | { kind: 'ended'; outcome: Outcome; reason: string; skip?: SkipCode };

/** Whether no step should start after this one: it failed, or ended the case. */
function endsCase(run: StepRun): boolean {
  return run.kind !== 'answered' || worstOutcome(run.judged.checks) === 'failed';
}

/** Sends step `index` of a case (retrying a read-after-write within the window) and judges the exchange; never throws. */
async function runStep(
  spec: CaseSpec,
  step: StepSpec,
  index: number,
  vars: Variables,
  options: CaseRunOptions & { judge: Judge },
): Promise<StepRun> {
  const request = requestOf(spec, step, vars, options.contract);
  const clock = options.waitClock ?? REAL_CLOCK;
  const deadline = clock.now() + options.consistencyWindowMs;
  let attempts = 0;
  for (let backoff = 50; ; backoff = Math.min(backoff * 2, 500)) {
    attempts += 1;
    // The evidence keeps the last attempt only, so its start is taken anew for each attempt.
    const startedAt = new Date();
    const sentAt = performance.now();
    let exchange: Exchange;
    try {
      exchange = await options.client.send(request);
    } catch (error) {
      if (error instanceof RunError)
        return { kind: 'ended', outcome: 'not-judged', reason: `not finished: ${error.message}`, skip: 'interrupted' };
      if (error instanceof WriteRefused)
        return { kind: 'ended', outcome: 'not-judged', reason: `step ${index + 1} ${error.message}`, skip: error.reason };
      // The client throws only those on purpose: anything else is a bug of this project.
      if (!(error instanceof TransportError))
        return {
          kind: 'ended',
          outcome: 'internal-error',
          reason: `step ${index + 1}: the request could not be sent: ${error instanceof Error ? error.message : String(error)}`,
        };
      const evidence = failureEvidence(error.sent, error, index, { startedAt, durationMs: performance.now() - sentAt, attempts });
      return { kind: 'transport', error, evidence, checks: options.judge.transport(error, index) };
    }
    options.created.observe(exchange);
    const judged = options.judge.exchange(exchange, { step, index, level: spec.level, vars });
    options.onExchange?.(exchange);
    // Only what the step expects of the write may not show yet; a rule every exchange must keep (no 5xx, JSON) is judged at once.
    const failedChecks = judged.checks.filter((c) => c.outcome === 'failed');
    const retry =
      step.readAfterWrite === true &&
      failedChecks.length > 0 &&
      failedChecks.every((c) => c.id.startsWith('expect.')) &&
      clock.now() + backoff < deadline;
    if (!retry) return { kind: 'answered', exchange, judged, attempts, startedAt };
    // A stopping run does not wait out the consistency window (it may be 20 s), nor judges a write it gave no time to show.
    const interrupted =
      options.signal?.aborted === true ||
      (await clock.sleep(backoff, options.signal).then(
        () => false,
        () => true,
      ));
    if (interrupted)
      return {
        kind: 'ended',
        outcome: 'not-judged',
        reason: `not finished: interrupted while step ${index + 1} waited for a write to show`,
        skip: 'interrupted',
      };
  }
}

/**
 * Runs one case to its result; never throws, whatever the server or a check does. Its steps go one after another; a
 * case of independent steps (`independentSteps`) sends up to --concurrency of them at once, judged in their order.
 */
export async function runCase(spec: CaseSpec, given: CaseRunOptions): Promise<CaseResult> {
  const options = withJudge(given);
  const info = caseInfo(spec);
  const disabled = disabledCase(info, options.disabled);
  if (disabled !== undefined) return disabled;
  const clockReason = clockSkipReason(spec, options.now);
  if (clockReason !== undefined) return notJudgedCase(info, 'clock', clockReason);
  if (options.readOnly && spec.writes) return notJudgedCase(info, 'read-only', 'writes to the server; not run in read-only mode');
  if (spec.writes && writeBudgetSpent(options))
    return notJudgedCase(
      info,
      'write-budget',
      `writes to the server, and the run created the ${options.maxWrites ?? 0} pets --max-writes allows`,
    );
  const short = unmetRequirement(spec.requires, options.store, options.readOnly);
  if (short !== undefined) return notJudgedCase(info, 'precondition', short);
  // A wrong credential that is the key itself cannot be refused by a conformant server: there is nothing to judge.
  const keyAsWrong = spec.steps.map((step) => options.keyAsWrong?.get(step.request.auth ?? 'valid')).find((why) => why !== undefined);
  if (keyAsWrong !== undefined) return notJudgedCase(info, 'precondition', keyAsWrong);
  const started = performance.now();
  const result: CaseResult = { ...info, outcome: 'passed', durationMs: 0, checks: [], exchanges: [], retries: 0 };
  const finish = (outcome: Outcome, reason?: string, skip?: SkipCode): CaseResult => {
    result.outcome = outcome;
    if (reason !== undefined) result.reason = reason;
    if (skip !== undefined) result.skip = skip;
    result.durationMs = roundMs(performance.now() - started);
    return result;
  };
  const vars = new Map(options.variables);
  /** Takes a step's run into the result: `next`, `stop` (it failed), or how the case ends. */
  const settle = (run: StepRun, step: StepSpec, index: number): 'next' | 'stop' | (() => CaseResult) => {
    if (run.kind === 'ended') return () => finish(run.outcome, run.reason, run.skip);
    if (run.kind === 'transport') {
      result.exchanges.push(run.evidence);
      result.checks.push(...run.checks);
      return () => {
        const judged = decided(result.checks);
        return finish(
          judged.outcome === 'passed' ? 'could-not-test' : judged.outcome,
          `step ${index + 1}: ${judged.reason ?? `${run.error.message} (${run.error.code})`}`,
        );
      };
    }
    const { exchange, judged, attempts, startedAt } = run;
    result.retries += attempts - 1;
    // Judged once the step's retries are over: a wrong stored value is one failure, where it was first shown.
    judged.checks = options.judge.blameOnce(exchange, judged.checks, `case ${spec.id}`);
    result.exchanges.push(evidenceOf(exchange, index, startedAt, attempts, options.excerptBytes));
    captureVariables(step, exchange, vars);
    for (const { check, outcome } of judged.findings) options.findings.record(check, info.id, exchange, outcome);
    const unmet = step.precondition === true ? unmetPrecondition(judged.checks) : undefined;
    if (unmet !== undefined) {
      // What the step needed is not there (e.g. an empty store): the case cannot be judged, which is not a failure.
      result.checks.push(...judged.checks.filter((r) => !r.id.startsWith('expect.')));
      return () => finish('not-judged', `precondition of step ${index + 1} not met: ${unmet}`, 'precondition');
    }
    result.checks.push(...judged.checks);
    return worstOutcome(judged.checks) === 'failed' ? 'stop' : 'next';
  };
  // Independent steps start in order, no more once one failed; those already under way are judged and kept too.
  const ahead =
    spec.independentSteps === true && options.concurrency > 1
      ? await mapConcurrently(spec.steps, options.concurrency, (step, index) => runStep(spec, step, index, vars, options), {
          ends: endsCase,
        })
      : undefined;
  let ending: 'stop' | (() => CaseResult) | undefined;
  for (const [index, step] of spec.steps.entries()) {
    if (ahead !== undefined && index >= ahead.length) break;
    const run = ahead?.[index] ?? (await runStep(spec, step, index, vars, options));
    const settled = settle(run, step, index);
    ending ??= settled === 'next' ? undefined : settled;
    if (ending !== undefined && ahead === undefined) break;
  }
  if (typeof ending === 'function') return ending();
  const { outcome, reason } = decided(result.checks);
  // A rule that found nothing to judge anywhere in the case (a full page, an empty listing) leaves the case unjudged:
  // never reported as passed.
  const judgedIds = new Set(result.checks.filter((c) => c.outcome === 'passed').map((c) => c.id));
  const unjudged = outcome === 'passed' ? result.checks.find((c) => c.outcome === 'not-judged' && !judgedIds.has(c.id)) : undefined;
  if (unjudged !== undefined) return finish('not-judged', `not judged: ${unjudged.message}`, 'precondition');
  return finish(outcome, reason);
}

/**
 * Runs one case with its events paired: onCaseStart, the result, onCaseEnd. What stops the run inside it (a load that
 * cannot start) still ends the case for the listeners, not finished, before it goes on up.
 */
export async function reportCase(listener: RunListener, info: CaseInfo, run: () => Promise<CaseResult> | CaseResult): Promise<CaseResult> {
  listener.onCaseStart?.(info);
  let result: CaseResult;
  try {
    result = await run();
  } catch (error) {
    listener.onCaseEnd?.(notJudgedCase(info, 'interrupted', `not finished: ${error instanceof Error ? error.message : String(error)}`));
    throw error;
  }
  listener.onCaseEnd?.(result);
  return result;
}

/** Runs cases with bounded concurrency; results come back in the order of `cases`. */
export async function runCases(cases: readonly CaseSpec[], given: CaseRunOptions): Promise<CaseResult[]> {
  // One judge for every case: a wrong value blamed in one case is not blamed again in another.
  const options = withJudge(given);
  return mapConcurrently(cases, options.concurrency, (spec) =>
    reportCase(options.listener, caseInfo(spec), () =>
      options.signal?.aborted === true ? notJudgedCase(caseInfo(spec), 'interrupted', 'interrupted before it ran') : runCase(spec, options),
    ),
  );
}
