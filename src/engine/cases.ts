/** Runs cases: fills templates, sends each step, has the run's judge judge each exchange, emits events. */
import { evidenceOf, failureEvidence, roundMs } from '../checks/evidence.js';
import type { ExchangeJudgement } from '../checks/judge.js';
import {
  awaitsTheWrite,
  brokenCase,
  type CaseOutcome,
  caseOutcome,
  endsTheCase,
  noteJudgedAnotherWay,
  unansweredCaseOutcome,
  notJudgedOutcome,
} from '../checks/run-judging.js';
import { NotSent, TransportError, type OutgoingRequest } from '../http/client.js';
import { type Sender, WriteRefused } from '../http/write-gate.js';
import { mapConcurrently } from '../model/concurrency.js';
import type { Contract } from '../model/contract.js';
import { RunError } from '../model/errors.js';
import type { Exchange } from '../model/exchange.js';
import { resolvePointer, stringifyExactJson, type JsonValue } from '../model/json.js';
import { encodeText } from '../model/text-encodings.js';
import type { CaseResult, CheckOutcome, ExchangeEvidence } from '../model/results.js';
import { type CaseSpec, type RequestSpec, type StepSpec, stepWaves } from '../model/scenario.js';
import { fillTemplate, fillText, type Variables } from '../model/template.js';
import { caseInfo, disabledCase, notJudgedCase, reportCase } from './case-report.js';
import type { RunContext } from './run-context.js';
import { unmetRequirement } from './store-counts.js';

/** What running cases reads of the run's context: a phase hands its own (sending: with the run's client). */
export type CaseContext = Pick<RunContext, 'plan' | 'variables' | 'judge' | 'clock' | 'stop' | 'emit' | 'provided'> & {
  /** The run's client (the write gate its last layer, whose budget it tells), or a fake one. */
  readonly sender: Sender & { readonly writeBudget?: { readonly spent: boolean } };
};

/** The context of a phase that sends through the run's client, as the case runner reads it. */
export function sending(context: RunContext): CaseContext {
  const { sender } = context;
  if (sender === undefined) throw new Error("a phase that sends cases ran without the run's client (usesRunClient)");
  return { ...context, sender };
}

/** Whether the write gate's budget is spent (it alone counts): every pet --max-writes allows is created or being created. */
export function writeBudgetSpent(context: Pick<CaseContext, 'sender'>): boolean {
  return context.sender.writeBudget?.spent === true;
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

function requestOf(spec: CaseSpec, step: StepSpec, vars: Variables, contract: Contract): OutgoingRequest {
  const path = fillText(step.request.path, vars, encodeURIComponent);
  return {
    method: step.request.method,
    path,
    label: `case ${spec.id}`,
    operation: contract.operationFor(step.request.method, path) ?? spec.operation,
    query: fillQuery(step.request.query, vars),
    ...(step.request.rawQuery === undefined ? {} : { rawQuery: fillText(step.request.rawQuery, vars) }),
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
    ...wireForm(step.request, vars),
  };
}

/** How the request goes on the wire beyond its text: the key elsewhere, headers left out, chunked, another charset. */
function wireForm(request: StepSpec['request'], vars: Variables): Partial<OutgoingRequest> {
  const form: Partial<OutgoingRequest> = {};
  if (request.keyElsewhere !== undefined) form.keyElsewhere = request.keyElsewhere;
  if (request.omitHeaders !== undefined) form.omitHeaders = request.omitHeaders;
  if (request.chunked === true) form.chunked = true;
  if (request.rawPath === true) form.rawPath = true;
  if (request.encoding !== undefined) {
    const text = request.json === undefined ? fillText(request.body ?? '', vars) : stringifyExactJson(fillTemplate(request.json, vars));
    form.bytes = encodeText(text, request.encoding);
  }
  return form;
}

/**
 * One step sent (its read-after-write retries included) and judged; or how it ended the case: a request that got no
 * response (`transport`), or one that could not be sent or finished at all (`ended`).
 */
type StepRun =
  | { kind: 'answered'; exchange: Exchange; judged: ExchangeJudgement; attempts: number; startedAt: Date }
  | { kind: 'transport'; error: TransportError; evidence: ExchangeEvidence; checks: CheckOutcome[] }
  | { kind: 'ended'; ended: CaseOutcome };

/** Whether no step should start after this one: it failed, or ended the case. */
function endsCase(run: StepRun): boolean {
  return run.kind !== 'answered' || endsTheCase(run.judged.checks);
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
  const { plan, clock, judge } = context;
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
      if (error instanceof RunError) return { kind: 'ended', ended: notJudgedOutcome('interrupted', `not finished: ${error.message}`) };
      if (error instanceof WriteRefused || error instanceof NotSent)
        return { kind: 'ended', ended: notJudgedOutcome(error.reason, `step ${index + 1} ${error.message}`) };
      // The client throws only those on purpose: anything else is a bug of this project.
      if (!(error instanceof TransportError)) {
        const why = error instanceof Error ? error.message : String(error);
        return { kind: 'ended', ended: brokenCase(`step ${index + 1}: the request could not be sent: ${why}`) };
      }
      // The store model heard of it through the client's observe layer (a create without an answer may have made a pet).
      const evidence = failureEvidence(error.sent, error, index, { startedAt, durationMs: performance.now() - sentAt, attempts });
      return { kind: 'transport', error, evidence, checks: judge.transport(error, index) };
    }
    // Judged against the store model as it was before this exchange, which its observe layer already told the model of.
    const judged = judge.exchange(exchange, { step, index, level: spec.level, vars });
    onExchange?.(exchange);
    // Only what the step expects of the write may not show yet (the judge says when that is all that failed).
    const retry = step.readAfterWrite === true && awaitsTheWrite(judged.checks) && clock.now() + backoff < deadline;
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
        ended: notJudgedOutcome('interrupted', `not finished: interrupted while step ${index + 1} waited for a write to show`),
      };
  }
}

/** The step at `index` of a case (stepWaves hands out only indexes it has). */
function stepAt(spec: CaseSpec, index: number): StepSpec {
  const step = spec.steps[index];
  if (step === undefined) throw new Error(`case ${spec.id} has no step ${index + 1}`);
  return step;
}

/**
 * Runs one case to its result; never throws, whatever the server or a check does. Its steps go one wave after another
 * (stepWaves): a step alone, or steps sent alongside one another (a case of `independentSteps` is one wave), up to
 * --concurrency of them at once, judged in their order. The
 * ledger of judgement hears of it: the rules it declares, and why it judged those it did not.
 */
export async function runCase(spec: CaseSpec, context: CaseContext, onExchange?: (exchange: Exchange) => void): Promise<CaseResult> {
  const result = await judgeCase(spec, context, onExchange);
  context.judge.caseRan(spec, result);
  return result;
}

/** Runs one case to its result (see runCase). */
async function judgeCase(spec: CaseSpec, context: CaseContext, onExchange?: (exchange: Exchange) => void): Promise<CaseResult> {
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
  // The outcome is a placeholder until finish takes the judge's (it stands first, where every report keeps it).
  const result: CaseResult = { ...info, outcome: 'passed', durationMs: 0, checks: [], exchanges: [], retries: 0 };
  const finish = ({ outcome, reason, skip }: CaseOutcome): CaseResult => {
    result.outcome = outcome;
    if (reason !== undefined) result.reason = reason;
    if (skip !== undefined) result.skip = skip;
    result.durationMs = roundMs(performance.now() - started);
    return result;
  };
  const vars = new Map(context.variables);
  /** Takes a step's run into the result: `next`, `stop` (it failed), or how the case ends. */
  const settle = (run: StepRun, step: StepSpec, index: number): 'next' | 'stop' | (() => CaseResult) => {
    if (run.kind === 'ended') return () => finish(run.ended);
    if (run.kind === 'transport') {
      result.exchanges.push(run.evidence);
      result.checks.push(...run.checks);
      context.judge.record(undefined, run.checks);
      // The judge's outcome passed along, its reason told with the step.
      return () => {
        const settled = unansweredCaseOutcome(result.checks, `${run.error.message} (${run.error.code})`);
        return finish({ outcome: settled.outcome, reason: `step ${index + 1}: ${settled.reason}` });
      };
    }
    const { exchange, judged, attempts, startedAt } = run;
    result.retries += attempts - 1;
    // Settled once the step's retries are over: a wrong stored value is one failure, where it was first shown.
    const settled = context.judge.settle(exchange, judged, { caseId: info.id, step: index, precondition: step.precondition === true });
    result.exchanges.push(evidenceOf(exchange, index, startedAt, attempts, settings.excerptBytes));
    captureVariables(step, exchange, vars);
    result.checks.push(...settled.checks);
    // What the step needed is not there (e.g. an empty store): the case cannot be judged, which is not a failure.
    const { unmet } = settled;
    if (unmet !== undefined) return () => finish(unmet);
    return endsTheCase(settled.checks) ? 'stop' : 'next';
  };
  let ending: 'stop' | (() => CaseResult) | undefined;
  for (const wave of stepWaves(spec)) {
    // A wave's steps start in order, no more once one failed; those already under way are judged and kept too.
    const ahead =
      wave.length > 1 && settings.concurrency > 1
        ? await mapConcurrently(
            wave,
            settings.concurrency,
            (index) => runStep(spec, stepAt(spec, index), index, vars, context, onExchange),
            {
              ends: endsCase,
            },
          )
        : undefined;
    for (const [k, index] of wave.entries()) {
      if (ahead !== undefined && k >= ahead.length) break;
      const step = stepAt(spec, index);
      const run = ahead?.[k] ?? (await runStep(spec, step, index, vars, context, onExchange));
      const settled = settle(run, step, index);
      ending ??= settled === 'next' ? undefined : settled;
      if (ending !== undefined && ahead === undefined) break;
    }
    if (ending !== undefined) break;
  }
  if (typeof ending === 'function') return ending();
  // A full page of a long-lived store may hold none of the run's pets: where the case judges the pet another way, it stays judged.
  const judgedBy = (c: CheckOutcome): string | undefined =>
    c.id === 'expect.holdsIfNotFull' ? spec.steps[c.step]?.fullPageJudgedBy : undefined;
  noteJudgedAnotherWay(result.checks, judgedBy);
  // A rule that found nothing to judge anywhere in the case (a full page, an empty listing) leaves it unjudged, never passed.
  const judgedAnotherWay = (c: CheckOutcome): boolean => judgedBy(c) !== undefined;
  return finish(caseOutcome(result.checks, { judgedAnotherWay, nothingJudged: 'no check judged any of its responses' }));
}

/** Runs cases with bounded concurrency; results come back in the order of `cases`. */
export async function runCases(cases: readonly CaseSpec[], context: CaseContext): Promise<CaseResult[]> {
  return mapConcurrently(cases, context.plan.settings.concurrency, (spec) =>
    reportCase(context.emit, caseInfo(spec), () =>
      context.stop.aborted ? notJudgedCase(caseInfo(spec), 'interrupted', 'interrupted before it ran') : runCase(spec, context),
    ),
  );
}
