/** Runs cases: fills templates, sends each step, has every registered check that applies judge each exchange, emits events. */
import { exchangeChecks as registeredExchangeChecks, expectationChecks, transportChecks } from '../checks/registry.js';
import { TransportError, type OutgoingRequest } from '../http/client.js';
import { type Sender, WriteRefused } from '../http/write-gate.js';
import { curlCommand } from '../http/curl-command.js';
import { boundedText, MAX_FAILURES } from '../model/bounded-text.js';
import type { CheckMeta, ExchangeCheck, Judgement } from '../model/check.js';
import { mapConcurrently } from '../model/concurrency.js';
import type { Contract } from '../model/contract.js';
import { RunError } from '../model/errors.js';
import type { Exchange } from '../model/exchange.js';
import { resolvePointer, type JsonValue } from '../model/json.js';
import {
  worstOutcome,
  type CaseResult,
  type CheckOutcome,
  type ExchangeEvidence,
  type Failure,
  type Level,
  type Outcome,
  type SkipCode,
} from '../model/results.js';
import { expectationEntries, type CaseSpec, type Expectations, type RequestSpec, type StepSpec } from '../model/scenario.js';
import type { StoreModel } from '../model/store-model.js';
import { fillTemplate, fillText, type Variables } from '../model/template.js';
import { caseInfo, disabledCase, notJudgedCase, reportCase } from './case-report.js';
import type { RunContext } from './run-context.js';
import { unmetRequirement } from './store-counts.js';

/** What running cases reads of the run's context: a phase hands its own (sending: with the run's client). */
export type CaseContext = Pick<RunContext, 'plan' | 'variables' | 'judge' | 'observer' | 'clock' | 'stop' | 'emit' | 'provided'> & {
  readonly sender: Sender;
};

/** The context of a phase that sends through the run's client, as the case runner reads it. */
export function sending(context: RunContext): CaseContext {
  const { sender } = context;
  if (sender === undefined) throw new Error("a phase that sends cases ran without the run's client (usesRunClient)");
  return { ...context, sender };
}

/** Whether the run created as many pets as it may. */
export function writeBudgetSpent(context: Pick<CaseContext, 'plan' | 'observer'>): boolean {
  return context.observer.created.count >= context.plan.settings.maxWrites;
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

/** What the checks said about one exchange: the case's checks, and the recommendation-level exchange checks (run findings). */
interface StepJudgement {
  checks: CheckOutcome[];
  findings: Array<{ check: ExchangeCheck; outcome: CheckOutcome }>;
}

/** Whether a check applies; a check whose `applies` throws is judged as applying, so that its internal error is reported. */
function appliesTo(applies: () => boolean): Judgement | boolean {
  const judged = guarded(() => ({ outcome: applies() ? 'passed' : 'not-judged', message: '' }));
  return judged.outcome === 'internal-error' ? judged : judged.outcome === 'passed';
}

/** Every check of a step on one exchange: the step's own expectations and captures, then the exchange checks. */
function judgeStep(
  exchange: Exchange,
  step: StepSpec,
  index: number,
  caseLevel: Level,
  vars: Variables,
  options: { contract: Contract; disabled: ReadonlyMap<string, string>; exchangeChecks?: readonly ExchangeCheck[]; model?: StoreModel },
): StepJudgement {
  const { contract, disabled, model } = options;
  const results: CheckOutcome[] = [];
  const findings: StepJudgement['findings'] = [];
  const expected = expectationEntries(step.expect, exchange.response.status);
  const declared: Array<[string, unknown, Level, string]> = [
    ...expected.map((e): [string, unknown, Level, string] => [e.key, e.value, caseLevel, `expect.${e.path}`]),
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
      const context = { exchange, contract, expected: filled, ...(model === undefined ? {} : { model }) };
      const applies = check.applies === undefined ? true : appliesTo(() => check.applies?.(context) ?? true);
      if (applies === false) continue;
      // A recommendation on a declared expectation warns whatever the case's level; the rule itself takes the case's.
      const at: Level = check.level === 'warn' ? 'warn' : level;
      results.push(outcomeOf(check, at, index, applies === true ? guarded(() => check.evaluate(context)) : applies, source));
    }
  }
  // What the step's `expect` block declares for this status, so an exchange check does not judge it twice.
  const context = {
    exchange,
    contract,
    declared: Object.fromEntries(expected.map((e) => [e.key, e.value])) as Expectations,
    ...(model === undefined ? {} : { model }),
  };
  for (const check of options.exchangeChecks ?? registeredExchangeChecks) {
    if (disabled.has(check.id)) continue;
    const applies = appliesTo(() => check.applies(context));
    if (applies === false) continue;
    const outcome = outcomeOf(check, check.level, index, applies === true ? guarded(() => check.evaluate(context)) : applies);
    // A recommendation on every response is a run finding: it never decides whether a case passed or could be judged.
    if (check.level === 'warn') findings.push({ check, outcome });
    else results.push(outcome);
  }
  return { checks: results, findings };
}

/** The transport checks on a request that got no response; with every one disabled, the case still could not be tested. */
function judgeTransport(error: TransportError, step: number, disabled: ReadonlyMap<string, string>): CheckOutcome[] {
  const context = {
    message: error.message,
    code: error.code,
    timedOut: error.timedOut,
    answeredMeanwhile: error.answeredMeanwhile,
    closedTwice: error.closedTwice,
    cutShort: !error.beforeResponse && !error.timedOut,
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

function excerpt(text: string, bytes: number): { text: string; cut: boolean } {
  if (text.length <= bytes / 3 || Buffer.byteLength(text) <= bytes) return { text, cut: false };
  // A character takes at least one byte: the first `bytes` characters hold the excerpt, and only they are encoded.
  return {
    text: Buffer.from(text.slice(0, bytes))
      .subarray(0, bytes)
      .toString('utf8')
      .replace(/\uFFFD$/, ''),
    cut: true,
  };
}

function evidenceOf(exchange: Exchange, step: number, startedAt: Date, attempts: number, excerptBytes: number): ExchangeEvidence {
  const body = excerpt(exchange.response.bodyText, excerptBytes);
  return {
    step,
    startedAt: startedAt.toISOString(),
    request: requestEvidence(exchange.request),
    response: {
      status: exchange.response.status,
      headers: exchange.response.headers,
      body: body.text,
      bytes: exchange.response.bytes,
      truncated: exchange.response.truncated || body.cut,
      ...(exchange.response.coding === undefined ? {} : { coding: exchange.response.coding }),
    },
    durationMs: round(exchange.durationMs),
    attempts,
    reproduce: curlCommand(exchange.request),
    ...(exchange.connectionRetry === undefined ? {} : { connectionRetry: exchange.connectionRetry }),
    ...(exchange.throttled === undefined ? {} : { throttled: exchange.throttled }),
  };
}

/** The most of a request body evidence keeps (characters): a 1 MiB name is cut, and its `reproduce` command still sends it whole. */
const MAX_REQUEST_BODY_EVIDENCE = 64 * 1024;

function requestEvidence(request: Exchange['request']): ExchangeEvidence['request'] {
  return request.body === undefined
    ? { method: request.method, url: request.url, headers: request.headers }
    : { method: request.method, url: request.url, headers: request.headers, body: boundedText(request.body, MAX_REQUEST_BODY_EVIDENCE) };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
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

/** A case's outcome from its checks, and its reason: the message of the first check that decided it. */
export function decided(checks: readonly CheckOutcome[]): { outcome: Outcome; reason?: string } {
  const outcome = worstOutcome(checks);
  const reason = outcome === 'passed' ? undefined : checks.find((c) => c.outcome === outcome)?.message;
  return reason === undefined ? { outcome } : { outcome, reason };
}

function requestOf(spec: CaseSpec, step: StepSpec, vars: Variables, contract: Contract): OutgoingRequest {
  const path = fillText(step.request.path, vars, encodeURIComponent);
  return {
    method: step.request.method,
    path,
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
  | { kind: 'answered'; exchange: Exchange; judged: StepJudgement; attempts: number; startedAt: Date }
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
  context: CaseContext,
  onExchange?: (exchange: Exchange) => void,
): Promise<StepRun> {
  const { plan, clock, observer, judge } = context;
  const request = requestOf(spec, step, vars, plan.contract);
  const deadline = clock.now() + plan.settings.consistencyWindowMs;
  let attempts = 0;
  for (let backoff = 50; ; backoff = Math.min(backoff * 2, 500)) {
    attempts += 1;
    // The evidence keeps the last attempt only, so its start is taken anew for each attempt.
    const startedAt = new Date();
    const sentAt = performance.now();
    let exchange: Exchange;
    try {
      exchange = await context.sender.send(request);
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
      if (error.sent.method === 'POST') observer.model.writeUnanswered();
      const evidence: ExchangeEvidence = {
        step: index,
        startedAt: startedAt.toISOString(),
        request: requestEvidence(error.sent),
        error: { code: error.code, message: error.message },
        durationMs: round(performance.now() - sentAt),
        attempts,
        reproduce: curlCommand(error.sent),
      };
      return { kind: 'transport', error, evidence, checks: judgeTransport(error, index, judge.disabled) };
    }
    observer.created.observe(exchange);
    const judged = judgeStep(exchange, step, index, spec.level, vars, {
      contract: plan.contract,
      disabled: judge.disabled,
      model: observer.model,
      ...(judge.exchangeChecks === undefined ? {} : { exchangeChecks: judge.exchangeChecks }),
    });
    observer.model.observe(exchange, `case ${spec.id}`);
    onExchange?.(exchange);
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
      context.stop.aborted ||
      (await clock.sleep(backoff, context.stop).then(
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
export async function runCase(spec: CaseSpec, context: CaseContext, onExchange?: (exchange: Exchange) => void): Promise<CaseResult> {
  const { settings } = context.plan;
  const info = caseInfo(spec);
  const disabled = disabledCase(info, context.judge.disabled);
  if (disabled !== undefined) return disabled;
  const clockReason = clockSkipReason(spec, settings.now);
  if (clockReason !== undefined) return notJudgedCase(info, 'clock', clockReason);
  if (settings.readOnly && spec.writes) return notJudgedCase(info, 'read-only', 'writes to the server; not run in read-only mode');
  if (spec.writes && writeBudgetSpent(context))
    return notJudgedCase(
      info,
      'write-budget',
      `writes to the server, and the run created the ${settings.maxWrites} pets --max-writes allows`,
    );
  const short = unmetRequirement(spec.requires, context.provided.store, settings.readOnly);
  if (short !== undefined) return notJudgedCase(info, 'precondition', short);
  // A wrong credential that is the key itself cannot be refused by a conformant server: there is nothing to judge.
  const keyAsWrong = spec.steps.map((step) => context.judge.keyAsWrong.get(step.request.auth ?? 'valid')).find((why) => why !== undefined);
  if (keyAsWrong !== undefined) return notJudgedCase(info, 'precondition', keyAsWrong);
  const started = performance.now();
  const result: CaseResult = { ...info, outcome: 'passed', durationMs: 0, checks: [], exchanges: [], retries: 0 };
  const finish = (outcome: Outcome, reason?: string, skip?: SkipCode): CaseResult => {
    result.outcome = outcome;
    if (reason !== undefined) result.reason = reason;
    if (skip !== undefined) result.skip = skip;
    result.durationMs = round(performance.now() - started);
    return result;
  };
  const vars = new Map(context.variables);
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
    judged.checks = context.observer.model.blameOnce(exchange, judged.checks, `case ${spec.id}`);
    result.exchanges.push(evidenceOf(exchange, index, startedAt, attempts, settings.excerptBytes));
    captureVariables(step, exchange, vars);
    for (const { check, outcome } of judged.findings) context.judge.findings.record(check, info.id, exchange, outcome);
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
    spec.independentSteps === true && settings.concurrency > 1
      ? await mapConcurrently(spec.steps, settings.concurrency, (step, index) => runStep(spec, step, index, vars, context, onExchange), {
          ends: endsCase,
        })
      : undefined;
  let ending: 'stop' | (() => CaseResult) | undefined;
  for (const [index, step] of spec.steps.entries()) {
    if (ahead !== undefined && index >= ahead.length) break;
    const run = ahead?.[index] ?? (await runStep(spec, step, index, vars, context, onExchange));
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

/** Runs cases with bounded concurrency; results come back in the order of `cases`. */
export async function runCases(cases: readonly CaseSpec[], context: CaseContext): Promise<CaseResult[]> {
  return mapConcurrently(cases, context.plan.settings.concurrency, (spec) =>
    reportCase(context.emit, caseInfo(spec), () =>
      context.stop.aborted ? notJudgedCase(caseInfo(spec), 'interrupted', 'interrupted before it ran') : runCase(spec, context),
    ),
  );
}
