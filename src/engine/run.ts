/** The whole run, owned here: the embedded server, the client, a loop over the phases the plan enables (PHASES), and the one verdict. */
import { randomBytes, randomInt } from 'node:crypto';
import { judgeRun, Judge } from '../checks/judge.js';
import { type Client, DEFAULT_HTTP_OPTIONS, type HttpClientOptions } from '../http/client.js';
import { openClient } from '../http/open-client.js';
import type { RequestTally } from '../http/sender.js';
import { contractRequests } from '../requests/contract-requests.js';
import { StoreModel } from '../model/store-model.js';
import { connectionOf } from '../http/connection.js';
import { packageVersion } from '../loader/package-paths.js';
import { REAL_CLOCK } from '../model/clock.js';
import { RunError } from '../model/errors.js';
import type { RunListener } from '../model/events.js';
import type { JsonValue } from '../model/json.js';
import type { LoadReport } from '../model/load.js';
import {
  emptyCounts,
  internalErrorsOf,
  warningsOf,
  type CaseInfo,
  type CaseResult,
  type NotStartedReport,
  type RunMeta,
  type RunReport,
} from '../model/results.js';
import { startReferenceServer, type RunningServer } from '../server/reference-server.js';
import { notJudgedCase } from './cases.js';
import { RunFindings } from './findings.js';
import { CreatedPets } from './phases/created-pets.js';
import { OrderedPhaseEvents } from './phase-events.js';
import { skipPhase, type Phase, type PhaseContext } from './phase.js';
import { PHASES } from './phases/index.js';
import type { RunPlan } from './plan.js';

export { judgeLoad } from './phases/load.js';
export { mergeLoads } from './phases/merge.js';

/** This tool, as every report names it. */
const TOOL = { name: 'petstore-conformance', version: packageVersion() } as const;

/** A run id that names what the run creates, e.g. pc-20261121T220500-3fa2. */
function newRunId(now = new Date()): string {
  return `pc-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(2).toString('hex')}`;
}

/** An id no pet is likely to have: random, below 2^53 so the case does not also test int64 parsing. */
function unknownPetId(): number {
  return 2 ** 52 + randomInt(2 ** 47);
}

function deprecationsOf(plan: RunPlan): RunMeta['deprecations'] {
  if (plan.conformance === undefined) return [];
  return [...plan.contract.operations.values()].flatMap((op) =>
    op.deprecated && op.sunset !== undefined
      ? [
          {
            operation: op.name,
            sunset: op.sunset,
            daysLeft: Math.ceil((Date.parse(`${op.sunset}T00:00:00Z`) - plan.now.getTime()) / 86_400_000),
          },
        ]
      : [],
  );
}

/** Starts the embedded reference server when the plan names no base URL: the one place that does. */
async function embeddedServer(plan: RunPlan): Promise<RunningServer | undefined> {
  if (plan.target.baseUrl !== undefined || plan.merge !== undefined) return undefined;
  try {
    // The embedded server keeps the suite's clock, so --now tests both sides of getPet's removal.
    return await startReferenceServer({ apiKey: plan.target.apiKey, host: '127.0.0.1', port: 0, now: () => plan.now });
  } catch (error) {
    throw new RunError('ERR_SERVER_START', `cannot start the embedded reference server: ${(error as Error).message}`);
  }
}

/** The client's options for the run; the embedded reference server is reached directly, never through a proxy. */
function httpOptions(plan: RunPlan, baseUrl: string, embedded: boolean): HttpClientOptions {
  const { proxies, ...direct } = connectionOf(plan.target);
  return {
    ...direct,
    ...(embedded || proxies === undefined ? {} : { proxies }),
    ...DEFAULT_HTTP_OPTIONS,
    baseUrl,
    apiKey: plan.target.apiKey,
    requestTimeoutMs: plan.requestTimeoutMs,
    headersTimeoutMs: Math.min(DEFAULT_HTTP_OPTIONS.headersTimeoutMs, plan.requestTimeoutMs),
    maxResponseBytes: plan.maxResponseBytes,
    connections: Math.max(plan.conformance?.concurrency ?? 1, 1),
    ...(plan.conformance === undefined ? {} : { pacing: plan.conformance.pacing }),
  };
}

/** Everything a report is built from. */
interface ReportParts {
  meta: RunMeta;
  startedAt: Date;
  /** Every case the plan holds: one that a stopped or interrupted run never reached is in the report, not run, with why. */
  planned: readonly CaseInfo[];
  results: CaseResult[];
  strict: boolean;
  interrupted: boolean;
  client: Client | undefined;
  created: CreatedPets;
  filled: number;
  load: LoadReport | undefined;
  /** Requests of the phases that keep only failing requests as evidence, counted at the client. */
  phaseRequests: Record<string, number>;
  /** What the recommendation-level exchange checks found, by check id. */
  findings: RunFindings;
  stopped?: RunError;
}

/** Requests each suite's cases sent (retries of a read included; the first listing and the store fill belong to none). */
function requestsBySuite(results: readonly CaseResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results)
    counts[result.suite] = (counts[result.suite] ?? 0) + result.exchanges.reduce((sum, e) => sum + e.attempts, 0);
  return counts;
}

/** The planned cases a run that stopped (or was interrupted) never reached, not judged, with the reason. */
function notReached(parts: ReportParts): CaseResult[] {
  if (parts.stopped === undefined && !parts.interrupted) return [];
  const reached = new Set(parts.results.map((r) => r.id));
  const why =
    parts.interrupted || parts.stopped === undefined
      ? 'not run: the run was interrupted before it reached this case'
      : `not run: the run stopped before it reached this case (${parts.stopped.message})`;
  return parts.planned.filter((info) => !reached.has(info.id)).map((info) => notJudgedCase(info, 'interrupted', why));
}

function reportOf(parts: ReportParts): RunReport {
  const cases = [...parts.results, ...notReached(parts)];
  const counts = emptyCounts();
  for (const r of cases) counts[r.outcome] += 1;
  const finished = new Date();
  const { client, created, load, stopped } = parts;
  const findings = parts.findings.findings;
  const internalErrors = internalErrorsOf(cases, parts.findings.internalErrors);
  return {
    reportVersion: 4,
    meta: parts.meta,
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - parts.startedAt.getTime(),
    // A run that stopped before its end cannot pass, whatever it measured until then.
    verdict: judgeRun({
      counts,
      strict: parts.strict,
      interrupted: parts.interrupted,
      stopped: stopped !== undefined,
      findings: findings.length,
      internalErrors: internalErrors.length,
    }),
    counts,
    requests: client?.requestCount ?? 0,
    requestsBySuite: { ...requestsBySuite(parts.results), ...parts.phaseRequests },
    ...(client === undefined ? {} : { traffic: client.traffic }),
    createdPets: { count: created.count, namedWith: parts.meta.runId, ...(parts.filled > 0 ? { toJudge: parts.filled } : {}) },
    ...(parts.interrupted ? { interrupted: true as const } : {}),
    ...(stopped === undefined ? {} : { stopped: { code: stopped.code, message: stopped.message } }),
    cases,
    warnings: warningsOf(cases),
    findings,
    internalErrors,
    ...(load === undefined ? {} : { load }),
  };
}

/**
 * Runs one phase in a context of its own: its events told through `listener` (in the order of the plan), its cases not
 * judged (with why) when it cannot run for the plan, its requests counted when it keeps only failures. What it leaves for
 * the phases after it (the store counted, the load) goes back to the run's context.
 */
async function runPhase(
  phase: Phase,
  context: PhaseContext,
  listener: RunListener,
  phaseRequests: Record<string, number>,
): Promise<CaseResult[]> {
  const { plan, sender } = context;
  const info = { id: phase.id, title: phase.title };
  // The generated phases keep only their failing requests as evidence: their traffic is counted at the wire, as theirs alone.
  const tally: RequestTally | undefined = phase.countsRequests === true && sender !== undefined ? { sent: 0 } : undefined;
  const own: PhaseContext = {
    ...context,
    listener,
    created: context.created.of(phase.id),
    ...(tally === undefined || sender === undefined ? {} : { sender: { send: (request) => sender.send({ ...request, tally }) } }),
  };
  listener.onPhaseStart?.(info);
  const skip = phase.skipReason(plan);
  const results = skip === undefined ? await phase.run(own) : await skipPhase(own, phase.planned(plan), skip);
  if (tally !== undefined) phaseRequests[phase.id] = tally.sent;
  if (own.store !== undefined) context.store = own.store;
  if (own.load !== undefined) context.load = own.load;
  listener.onPhaseEnd?.(info, results);
  return results;
}

/** The phases a phase waits for: those of `after` the plan enables, or every one before it; all of them when the phases go one at a time. */
function dependencies(phases: readonly Phase[], index: number, oneAtATime: boolean): Phase[] {
  const before = phases.slice(0, index);
  const after = phases[index]?.after;
  return oneAtATime || after === undefined ? before : before.filter((phase) => after.includes(phase.id));
}

/**
 * Runs the phases after the gates, each once those it depends on are over, side by side with the others; resolves once
 * every phase is over, with each phase's results (or what stopped it) in the order of the plan. A phase whose
 * dependency failed, or that would start once the client stopped, does not run.
 */
async function runPhases(
  phases: readonly Phase[],
  context: PhaseContext,
  phaseRequests: Record<string, number>,
): Promise<Array<PromiseSettledResult<CaseResult[]>>> {
  const { plan } = context;
  const conformance = plan.conformance;
  // --concurrency 1 sends one request at a time in the order of the plan; a --max-writes the phases could reach goes to them in order.
  const writes = phases.reduce((sum, phase) => sum + (phase.writes?.(plan) ?? 0), 0);
  const oneAtATime = conformance === undefined || conformance.concurrency <= 1 || writes > conformance.maxWrites;
  const events = new OrderedPhaseEvents(context.listener, phases.length);
  const running: Array<Promise<CaseResult[]>> = [];
  for (const [index, phase] of phases.entries()) {
    const needs = dependencies(phases, index, oneAtATime).map((dependency) => running[phases.indexOf(dependency)]);
    running.push(
      Promise.all(needs)
        .then(async () => {
          // A client that stopped (the server gone, a wait longer than allowed) starts no further phase.
          if (context.client?.stopped !== undefined) throw context.client.stopped;
          return runPhase(phase, context, events.listenerFor(index), phaseRequests);
        })
        .finally(() => events.finished(index)),
    );
  }
  return Promise.allSettled(running);
}

/**
 * What stopped a run once it began (the server gone, a load that cannot start), with the report its listener was given:
 * that report's verdict, not the stop, decides the exit code (a contract already broken stays broken).
 */
export class RunStoppedError extends RunError {
  readonly report: RunReport;

  constructor(cause: RunError, report: RunReport) {
    super(cause.code, cause.message, cause.details);
    this.report = report;
  }
}

/** What a run that could not start knows: when, where, and what stopped it. */
function notStartedReport(
  begun: { runId: string; startedAt: Date; baseUrl: string | undefined; embedded: boolean },
  cause: RunError,
): NotStartedReport {
  return {
    reportVersion: 4,
    status: 'not-started',
    tool: TOOL,
    runId: begun.runId,
    ...(begun.baseUrl === undefined ? {} : { baseUrl: begun.baseUrl }),
    embeddedServer: begun.embedded,
    startedAt: begun.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    cause: { code: cause.code, message: cause.message },
  };
}

/**
 * Runs a plan to its final report, emitting events on the way: each phase of PHASES the plan enables (side by side where
 * they do not depend on each other, their events and results in the order of PHASES). A run
 * that cannot start (the embedded server, or a gate: the service does not answer its listing as a pet store, refuses the
 * key, fails TLS) emits onRunNotStarted alone and throws the RunError. A RunError that stops the run once it began (the
 * server gone, a load that cannot start) still ends in a report that says so, holding every result measured until then,
 * and is thrown after it. `abort` aborts the requests in flight (the run was interrupted and their grace ran out).
 */
export async function executePlan(plan: RunPlan, listener: RunListener, signal?: AbortSignal, abort?: AbortSignal): Promise<RunReport> {
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const begun = { runId, startedAt, baseUrl: plan.target.baseUrl, embedded: plan.target.baseUrl === undefined && plan.merge === undefined };
  let server: RunningServer | undefined;
  try {
    server = await embeddedServer(plan);
  } catch (error) {
    if (error instanceof RunError) await listener.onRunNotStarted?.(notStartedReport(begun, error));
    throw error;
  }
  const baseUrl = plan.merge?.loads[0]?.baseUrl ?? plan.target.baseUrl ?? (server as RunningServer).baseUrl;
  const http = httpOptions(plan, baseUrl, server !== undefined);
  const disabled = new Map(plan.disabled.map((d) => [d.id, d.reason]));
  const model = new StoreModel({ windowMs: plan.conformance?.consistencyWindowMs ?? 0, runId });
  // Only the conformance phases use the suite's own client; a load verifies its target with one of its own. Every exchange
  // reaches the store model through its observe layer, and every phase writes through its one gate (read-only, --max-writes).
  const conformance = plan.conformance;
  const client =
    conformance === undefined
      ? undefined
      : openClient(
          {
            ...http,
            ...(abort === undefined ? {} : { abort }),
            alive: contractRequests(plan.contract).listing(),
            onWait: (wait) => listener.onWait?.(wait),
          },
          { observer: model, writes: { readOnly: conformance.readOnly, maxWrites: conformance.maxWrites } },
        );
  const meta: RunMeta = {
    tool: TOOL,
    runId,
    baseUrl: client?.base.href ?? baseUrl,
    embeddedServer: server !== undefined,
    startedAt: startedAt.toISOString(),
    clock: plan.now.toISOString(),
    suites: [...(plan.conformance?.suites ?? []), ...(plan.load !== undefined || plan.merge !== undefined ? ['load'] : [])],
    options: plan.recordedOptions,
    deprecations: deprecationsOf(plan),
    disabled: plan.disabled.map(({ id, reason }) => ({ id, reason })),
  };
  const context: PhaseContext = {
    plan,
    runId,
    baseUrl,
    embedded: server !== undefined,
    client,
    sender: client,
    http,
    listener,
    disabled,
    variables: new Map<string, JsonValue>([
      ['runId', runId],
      ['categoryId', plan.conformance?.categoryId ?? 1],
      ['unknownPetId', unknownPetId()],
    ]),
    created: new CreatedPets(),
    findings: new RunFindings(),
    model,
    judge: new Judge({
      contract: plan.contract,
      disabled,
      model,
      ...(conformance?.exchangeChecks === undefined ? {} : { exchangeChecks: conformance.exchangeChecks }),
    }),
    clock: REAL_CLOCK,
    signal,
    stop: client === undefined ? signal : signal === undefined ? client.stopSignal : AbortSignal.any([signal, client.stopSignal]),
    abort,
  };
  const enabled = PHASES.filter((phase) => phase.enabled(plan));
  const gates = enabled.filter((phase) => phase.gate === true);
  const phases = enabled.filter((phase) => phase.gate !== true);
  const results: CaseResult[] = [];
  const phaseRequests: Record<string, number> = {};
  const parts = (): ReportParts => ({
    meta,
    startedAt,
    planned: phases.flatMap((phase) => phase.planned(plan)),
    results,
    strict: plan.strict,
    interrupted: signal?.aborted === true || context.load?.interrupted === true,
    client,
    created: context.created,
    filled: context.store?.created ?? 0,
    load: context.load,
    phaseRequests,
    findings: context.findings,
  });
  const notStarted = async (error: unknown): Promise<never> => {
    if (error instanceof RunError) await listener.onRunNotStarted?.(notStartedReport({ ...begun, baseUrl: meta.baseUrl }, error));
    throw error;
  };
  try {
    // A signal during a gate stops a run as it stops one later (every report written, marked interrupted): the user stopped it.
    let interrupted: RunError | undefined;
    try {
      for (const gate of gates) {
        await gate.run(context);
        if (client?.stopped !== undefined) throw client.stopped;
      }
    } catch (error) {
      if (error instanceof RunError && signal?.aborted === true) interrupted = error;
      else await notStarted(error);
    }
    try {
      await listener.onRunStart?.(meta, parts().planned);
    } catch (error) {
      await notStarted(error);
    }
    try {
      if (interrupted !== undefined) throw interrupted;
      const settled = await runPhases(phases, context, phaseRequests);
      for (const phase of settled) if (phase.status === 'fulfilled') results.push(...phase.value);
      // The first phase in the plan's order that failed decides; a client that stopped ends the run whichever phase it stopped in.
      const failed = settled.find((phase): phase is PromiseRejectedResult => phase.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      if (client?.stopped !== undefined) throw client.stopped;
      const report = reportOf(parts());
      await listener.onRunEnd?.(report);
      return report;
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      // Whatever stopped the run once it began leaves reports that say so, with every result measured until then.
      const report = reportOf({ ...parts(), interrupted: signal?.aborted === true, stopped: error });
      await listener.onRunEnd?.(report);
      throw new RunStoppedError(error, report);
    }
  } finally {
    await client?.close();
    await server?.close();
  }
}
