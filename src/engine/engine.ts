/** Runs checks: fills templates, sends each step, judges every exchange, emits events. */
import { setTimeout as sleep } from 'node:timers/promises';
import { ASSERTIONS } from '../checks/expectations.js';
import { EXCHANGE_CHECKS } from '../checks/exchange-checks.js';
import type { Finding } from '../checks/finding.js';
import { HttpClient, TransportError } from '../http/client.js';
import type { CreatedPets } from './created-pets.js';
import { curlCommand } from '../http/curl-command.js';
import type { Contract } from '../loader/contract.js';
import { mapConcurrently } from '../model/concurrency.js';
import type { RunListener } from '../model/events.js';
import type { Exchange } from '../model/exchange.js';
import { isJsonObject, type JsonValue } from '../model/json.js';
import type { AssertionResult, CheckInfo, CheckResult, ExchangeEvidence, Level, Outcome } from '../model/results.js';
import type { CheckSpec, Expectations, RequestSpec, StepSpec } from '../model/scenario.js';
import { fillTemplate, fillText, type Variables } from '../model/template.js';

/** What the engine needs for a run. */
export interface EngineOptions {
  client: HttpClient;
  contract: Contract;
  /** Values of the built-in variables (runId, categoryId, unknownPetId). */
  variables: Variables;
  /** The suite's clock. */
  now: Date;
  readOnly: boolean;
  /** How many checks run at once. */
  concurrency: number;
  /** How long a read-after-write step keeps retrying before it fails. */
  consistencyWindowMs: number;
  /** Bytes of a body kept as evidence. */
  excerptBytes: number;
  listener: RunListener;
  /** Collects the pets the run creates. */
  created: CreatedPets;
  /** Ctrl-C: checks not yet started are skipped; those under way finish (their requests are bounded). */
  signal?: AbortSignal;
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

function resolvePointer(value: JsonValue | undefined, pointer: string): JsonValue | undefined {
  if (pointer === '') return value;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isJsonObject(current)) current = Object.hasOwn(current, key) ? current[key] : undefined;
    else return undefined;
  }
  return current;
}

function judge(id: string, level: Level, step: number, finding: Finding): AssertionResult {
  const outcome = finding.ok ? 'passed' : level === 'warn' ? 'warned' : 'failed';
  const result: AssertionResult = { id, level, outcome, step, message: finding.message };
  if (finding.details) result.details = finding.details;
  return result;
}

function evaluateExpectations(exchange: Exchange, expectations: Expectations | undefined, level: Level, step: number, vars: Variables, contract: Contract): AssertionResult[] {
  if (!expectations) return [];
  const results: AssertionResult[] = [];
  for (const [key, expected] of Object.entries(expectations)) {
    if (key === 'when') continue;
    const assertion = ASSERTIONS.get(key);
    if (!assertion) continue;
    const filled = fillTemplate(expected as JsonValue, vars);
    results.push(judge(key, level, step, assertion.evaluate(exchange, filled, contract)));
  }
  const conditional = expectations.when?.[String(exchange.response.status)];
  if (conditional) results.push(...evaluateExpectations(exchange, conditional, level, step, vars, contract));
  return results;
}

/** Every assertion of a step on one exchange: the step's own, then the exchange checks. */
function evaluateStep(exchange: Exchange, step: StepSpec, index: number, checkLevel: Level, vars: Variables, contract: Contract): AssertionResult[] {
  const results = [
    ...evaluateExpectations(exchange, step.expect, checkLevel, index, vars, contract),
    ...evaluateExpectations(exchange, step.warn, 'warn', index, vars, contract),
  ];
  for (const check of EXCHANGE_CHECKS) {
    if (check.appliesTo(exchange)) results.push(judge(check.id, check.level, index, check.evaluate(exchange, contract)));
  }
  return results;
}

function outcomeOf(assertions: readonly AssertionResult[]): Outcome {
  if (assertions.some((a) => a.outcome === 'failed')) return 'failed';
  if (assertions.some((a) => a.outcome === 'warned')) return 'warned';
  return 'passed';
}

function excerpt(text: string, bytes: number): { text: string; cut: boolean } {
  if (Buffer.byteLength(text) <= bytes) return { text, cut: false };
  return { text: Buffer.from(text).subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, ''), cut: true };
}

function evidenceOf(exchange: Exchange, step: number, attempts: number, excerptBytes: number): ExchangeEvidence {
  const body = excerpt(exchange.response.bodyText, excerptBytes);
  return {
    step,
    request: requestEvidence(exchange.request),
    response: {
      status: exchange.response.status,
      headers: exchange.response.headers,
      body: body.text,
      bytes: exchange.response.bytes,
      truncated: exchange.response.truncated || body.cut,
    },
    durationMs: round(exchange.durationMs),
    attempts,
    reproduce: curlCommand(exchange.request),
  };
}

function requestEvidence(request: Exchange['request']): ExchangeEvidence['request'] {
  return request.body === undefined ? { method: request.method, url: request.url, headers: request.headers } : { method: request.method, url: request.url, headers: request.headers, body: request.body };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Why a check does not apply today, judged by the suite's clock; undefined when it applies. */
function clockSkipReason(check: CheckSpec, now: Date): string | undefined {
  const today = now.toISOString().slice(0, 10);
  if (check.clock?.before !== undefined && today >= check.clock.before) return `applies only before ${check.clock.before} (the suite's clock says ${today})`;
  if (check.clock?.from !== undefined && today < check.clock.from) return `applies only from ${check.clock.from} (the suite's clock says ${today})`;
  return undefined;
}

/** Takes the step's captures out of the response into `vars`; a failed assertion for each one missing. */
function captureVariables(step: StepSpec, exchange: Exchange, index: number, vars: Map<string, JsonValue>): AssertionResult[] {
  const missing: AssertionResult[] = [];
  for (const [name, pointer] of Object.entries(step.capture ?? {})) {
    const value = resolvePointer(exchange.response.json, pointer);
    if (value === undefined) missing.push({ id: 'capture', level: 'fail', outcome: 'failed', step: index, message: `nothing at ${pointer} in the response body to capture as {${name}}` });
    else vars.set(name, value);
  }
  return missing;
}

/** Why a precondition step is not met: its own expectations or captures failed while no exchange check did. */
function unmetPrecondition(results: readonly AssertionResult[]): string | undefined {
  const failed = results.filter((a) => a.outcome === 'failed');
  if (failed.length === 0 || failed.some((a) => a.id !== 'capture' && !ASSERTIONS.has(a.id))) return undefined;
  return failed[0]?.message;
}

/** The static description of a check, as the catalogue and reports show it. */
export function checkInfo(check: CheckSpec): CheckInfo {
  const { id, title, clause, suite, operation, level, source } = check;
  return { id, title, clause, suite, operation, level, source };
}

/** Runs one check to its result; never throws for anything the server does. */
async function runCheck(check: CheckSpec, options: EngineOptions): Promise<CheckResult> {
  const started = performance.now();
  const result: CheckResult = { ...checkInfo(check), outcome: 'passed', durationMs: 0, assertions: [], exchanges: [], retries: 0 };
  const finish = (outcome: Outcome, reason?: string): CheckResult => {
    result.outcome = outcome;
    if (reason !== undefined) result.reason = reason;
    result.durationMs = round(performance.now() - started);
    return result;
  };
  const clockReason = clockSkipReason(check, options.now);
  if (clockReason !== undefined) return finish('skipped', clockReason);
  if (options.readOnly && check.writes) return finish('skipped', 'writes to the server; skipped in read-only mode');
  const vars = new Map(options.variables);
  for (const [index, step] of check.steps.entries()) {
    const path = fillText(step.request.path, vars, encodeURIComponent);
    const request = {
      method: step.request.method,
      path,
      operation: options.contract.operationFor(step.request.method, path) ?? check.operation,
      query: fillQuery(step.request.query, vars),
      headers: Object.fromEntries(Object.entries(step.request.headers ?? {}).map(([k, v]) => [k, fillText(v, vars)])),
      auth: step.request.auth ?? 'valid',
      ...(step.request.json === undefined ? {} : { json: fillTemplate(step.request.json, vars) }),
      ...(step.request.body === undefined ? {} : { body: fillText(step.request.body, vars) }),
    };
    const deadline = performance.now() + options.consistencyWindowMs;
    let attempts = 0;
    let exchange: Exchange;
    let assertions: AssertionResult[];
    for (let backoff = 50; ; backoff = Math.min(backoff * 2, 500)) {
      attempts += 1;
      try {
        exchange = await options.client.send(request);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        result.exchanges.push({ step: index, request: requestEvidence(error.sent), error: { code: error.code, message: error.message }, durationMs: 0, attempts, reproduce: curlCommand(error.sent) });
        return finish('errored', `step ${index + 1}: ${error.message} (${error.code})`);
      }
      options.created.observe(exchange);
      assertions = evaluateStep(exchange, step, index, check.level, vars, options.contract);
      const retry = step.readAfterWrite === true && outcomeOf(assertions) === 'failed' && performance.now() + backoff < deadline;
      if (!retry) break;
      await sleep(backoff);
    }
    result.retries += attempts - 1;
    result.exchanges.push(evidenceOf(exchange, index, attempts, options.excerptBytes));
    const captured = captureVariables(step, exchange, index, vars);
    const stepResults = [...assertions, ...captured];
    const unmet = step.precondition === true ? unmetPrecondition(stepResults) : undefined;
    if (unmet !== undefined) {
      // What the step needed is not there (e.g. an empty store): the check cannot be judged, which is not a failure.
      result.assertions.push(...assertions.filter((a) => !ASSERTIONS.has(a.id)));
      return finish('skipped', `precondition of step ${index + 1} not met: ${unmet}`);
    }
    result.assertions.push(...stepResults);
    if (outcomeOf(stepResults) === 'failed') break;
  }
  const outcome = outcomeOf(result.assertions);
  const firstProblem = result.assertions.find((a) => a.outcome === outcome && outcome !== 'passed');
  return finish(outcome, firstProblem?.message);
}

function interruptedResult(check: CheckSpec): CheckResult {
  return { ...checkInfo(check), outcome: 'skipped', reason: 'interrupted before it ran', durationMs: 0, assertions: [], exchanges: [], retries: 0 };
}

/** Runs checks with bounded concurrency; results come back in the order of `checks`. */
export async function runChecks(checks: readonly CheckSpec[], options: EngineOptions): Promise<CheckResult[]> {
  return mapConcurrently(checks, options.concurrency, async (check) => {
    options.listener.onCheckStart?.(checkInfo(check));
    const result = options.signal?.aborted === true ? interruptedResult(check) : await runCheck(check, options);
    options.listener.onCheckEnd?.(result);
    return result;
  });
}
