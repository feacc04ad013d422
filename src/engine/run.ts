/** The whole run, owned here: the client, a loop over the phases the plan enables (PHASES), and the one verdict. */
import { randomBytes, randomInt } from 'node:crypto';
import { DEFAULT_HTTP_OPTIONS, type HttpClientOptions } from '../http/client.js';
import { openClient } from '../http/open-client.js';
import { everyObserver } from '../http/observe.js';
import { contractRequests } from '../requests/contract-requests.js';
import type { RequestTally } from '../http/sender.js';
import { variantsSendingTheKey } from '../http/credentials.js';
import { StoreModel } from '../model/store-model.js';
import { connectionOf } from '../http/connection.js';
import { REAL_CLOCK } from '../model/clock.js';
import { statusValues } from '../model/contract.js';
import { RunError } from '../model/errors.js';
import { tellListener, type Emit, type RunListener } from '../model/events.js';
import type { JsonValue } from '../model/json.js';
import type { CaseResult, RunMeta, RunReport } from '../model/results.js';
import { notStartedReport, type ReportParts, reportOf, TOOL } from './run-report.js';
import { RunFindings } from '../checks/findings.js';
import { RunJudging } from '../checks/run-judging.js';
import { CreatedPets } from './observer.js';
import { OrderedPhaseEvents } from './phase-events.js';
import { skipPhase, type Phase } from './phase.js';
import { PHASES } from './phases/index.js';
import type { RunPlan } from './plan.js';
import { mergeProvides, type PhaseRun, phaseVariables, type Provides, type RunContext, type RunSender } from './run-context.js';

/** A run id that names what the run creates, e.g. pc-20261121T220500-3fa2. */
function newRunId(now = new Date()): string {
  return `pc-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(2).toString('hex')}`;
}

/** An id no pet is likely to have: random, below 2^53 so the case does not also test int64 parsing. */
function unknownPetId(): number {
  return 2 ** 52 + randomInt(2 ** 47);
}

function deprecationsOf(plan: RunPlan, sends: boolean): RunMeta['deprecations'] {
  if (!sends) return [];
  return [...plan.contract.operations.values()].flatMap((op) =>
    op.deprecated && op.sunset !== undefined
      ? [
          {
            operation: op.name,
            sunset: op.sunset,
            daysLeft: Math.ceil((Date.parse(`${op.sunset}T00:00:00Z`) - plan.settings.now.getTime()) / 86_400_000),
          },
        ]
      : [],
  );
}

/** A server started for the run when the plan names no base URL (the CLI's embedded reference store), closed at its end. */
export interface EmbeddedTarget {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Starts the embedded target of a plan; throws a RunError when it cannot. */
export type StartEmbedded = (plan: RunPlan) => Promise<EmbeddedTarget>;

/** The embedded target when the plan names no base URL (a merge names the merged loads'): started by whoever gave `start`. */
async function embeddedTarget(plan: RunPlan, start: StartEmbedded | undefined): Promise<EmbeddedTarget | undefined> {
  if (plan.target.baseUrl !== undefined) return undefined;
  if (start === undefined) throw new RunError('ERR_SERVER_START', 'no base URL, and no embedded server to start');
  return start(plan);
}

/** The client's options for the run; the embedded reference server is reached directly, never through a proxy. */
function httpOptions(plan: RunPlan, baseUrl: string, embedded: boolean): HttpClientOptions {
  const { settings } = plan;
  const { proxies, ...direct } = connectionOf(plan.target);
  return {
    ...direct,
    ...(embedded || proxies === undefined ? {} : { proxies }),
    ...DEFAULT_HTTP_OPTIONS,
    baseUrl,
    apiKey: plan.target.apiKey,
    requestTimeoutMs: settings.requestTimeoutMs,
    headersTimeoutMs: Math.min(DEFAULT_HTTP_OPTIONS.headersTimeoutMs, settings.requestTimeoutMs),
    maxResponseBytes: settings.maxResponseBytes,
    connections: Math.max(settings.concurrency, 1),
    pacing: settings.pacing,
  };
}

/**
 * Runs one phase in a context of its own: its events told in the order of the plan, its cases not judged (with why) when it
 * cannot run for the plan, its requests counted when it keeps only failures, and what its dependencies provided.
 */
async function runPhase(phase: Phase, context: RunContext, phaseRequests: Record<string, number>): Promise<PhaseRun> {
  const { plan, sender, emit } = context;
  const info = { id: phase.id, title: phase.title };
  // The generated phases keep only their failing requests as evidence: their traffic is counted at the wire, as theirs alone.
  const tally: RequestTally | undefined = phase.countsRequests === true && sender !== undefined ? { sent: 0 } : undefined;
  // Its requests say who sent them, so the observers file what they did (the pets created) under this phase.
  const tagged = tally === undefined ? { sentBy: phase.id } : { sentBy: phase.id, tally };
  const own: RunContext = {
    ...context,
    judge: context.judge.inPhase(phase.id),
    ...(sender === undefined ? {} : { sender: { ...sender, send: (request) => sender.send({ ...request, ...tagged }) } }),
  };
  await emit({ type: 'phase-start', phase: info });
  const skip = phase.skipReason(plan);
  const run = skip === undefined ? await phase.run(own) : { results: await skipPhase(own, phase.planned(plan), skip) };
  if (tally !== undefined) phaseRequests[phase.id] = tally.sent;
  await emit({ type: 'phase-end', phase: info, results: run.results });
  // The pets it created are what it provides of them, whoever reads them later.
  const created = context.observer.created.all([phase.id]);
  return created.length === 0 ? run : { ...run, provides: { ...run.provides, created } };
}

/** The phases a phase waits for: those of `after` the plan enables, or every one before it; all when the phases go one at a time. */
function dependencies(phases: readonly Phase[], index: number, oneAtATime: boolean): Phase[] {
  const before = phases.slice(0, index);
  const after = phases[index]?.after;
  return oneAtATime || after === undefined ? before : before.filter((phase) => after.includes(phase.id));
}

/** The phases each phase depends on, directly or through another, as indexes in the order of the plan. */
function dependencyClosures(phases: readonly Phase[], oneAtATime: boolean): number[][] {
  const closures: number[][] = [];
  for (const index of phases.keys()) {
    const direct = dependencies(phases, index, oneAtATime).map((dependency) => phases.indexOf(dependency));
    const all = new Set(direct.flatMap((d) => [...(closures[d] ?? []), d]));
    closures.push([...all].sort((a, b) => a - b));
  }
  return closures;
}

/**
 * Runs the phases after the gates, each once those it depends on are over, side by side with the others; resolves once
 * every phase is over, with each phase's run (or what stopped it) in the order of the plan. A phase whose dependency
 * failed, or that would start once the client stopped, does not run. Each reads what its dependencies provided.
 */
async function runPhases(
  phases: readonly Phase[],
  context: RunContext,
  stopped: () => RunError | undefined,
  phaseRequests: Record<string, number>,
): Promise<Array<PromiseSettledResult<PhaseRun>>> {
  const { plan } = context;
  const { settings } = plan;
  // --concurrency 1 sends one request at a time in the order of the plan; a --max-writes the phases could reach goes to them in order.
  const writes = phases.reduce((sum, phase) => sum + (phase.writes?.(plan) ?? 0), 0);
  const oneAtATime = settings.concurrency <= 1 || writes > settings.maxWrites;
  const events = new OrderedPhaseEvents(context.emit, phases.length);
  const closures = dependencyClosures(phases, oneAtATime);
  const running: Array<Promise<PhaseRun>> = [];
  for (const [index, phase] of phases.entries()) {
    const needs = dependencies(phases, index, oneAtATime).map((dependency) => running[phases.indexOf(dependency)]);
    running.push(
      Promise.all(needs)
        .then(async () => {
          // A client that stopped (the server gone, a wait longer than allowed) starts no further phase.
          const stop = stopped();
          if (stop !== undefined) throw stop;
          const before = await Promise.all((closures[index] ?? []).map((d) => running[d] as Promise<PhaseRun>));
          const provided = mergeProvides(before.map((run) => run.provides ?? {}));
          const variables = phaseVariables(context.variables, provided, statusValues(plan.contract));
          return runPhase(phase, { ...context, provided, variables, emit: events.emitFor(index) }, phaseRequests);
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

/**
 * Runs a plan to its final report, emitting events on the way: each phase of PHASES the plan enables (side by side where
 * they do not depend on each other, their events and results in the order of PHASES). A run
 * that cannot start (the embedded server, or a gate: the service does not answer its listing as a pet store, refuses the
 * key, fails TLS) emits onRunNotStarted alone and throws the RunError. A RunError that stops the run once it began (the
 * server gone, a load that cannot start) still ends in a report that says so, holding every result measured until then,
 * and is thrown after it. `abort` aborts the requests in flight (the run was interrupted and their grace ran out).
 */
export async function executePlan(
  plan: RunPlan,
  listener: RunListener,
  signal?: AbortSignal,
  abort?: AbortSignal,
  startEmbedded?: StartEmbedded,
): Promise<RunReport> {
  // Every event of the run goes to the listener through here.
  const emit: Emit = (event) => tellListener(listener, event);
  const { settings, selection } = plan;
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const begun = {
    runId,
    startedAt,
    baseUrl: plan.target.baseUrl,
    embedded: plan.target.baseUrl === undefined,
  };
  let server: EmbeddedTarget | undefined;
  try {
    server = await embeddedTarget(plan, startEmbedded);
  } catch (error) {
    if (error instanceof RunError) await emit({ type: 'run-not-started', report: notStartedReport(begun, error) });
    throw error;
  }
  const baseUrl = plan.target.baseUrl ?? (server as EmbeddedTarget).baseUrl;
  const connection = httpOptions(plan, baseUrl, server !== undefined);
  const enabled = PHASES.filter((phase) => phase.enabled(plan));
  const gates = enabled.filter((phase) => phase.gate === true);
  const phases = enabled.filter((phase) => phase.gate !== true);
  // The run's own client, only when a phase it runs sends through it; a load verifies its target with one of its own.
  const sends = phases.some((phase) => phase.usesRunClient === true);
  const observer = { created: new CreatedPets(), model: new StoreModel({ windowMs: settings.consistencyWindowMs, runId }) };
  // Every exchange of every phase reaches the store model and the created pets through the client's observe layer, and
  // every phase writes through its one gate (read-only mode and --max-writes hold whichever phase sends).
  const client = sends
    ? openClient(
        {
          ...connection,
          ...(abort === undefined ? {} : { abort }),
          alive: contractRequests(plan.contract).listing(),
          onWait: (wait) => void emit({ type: 'wait', wait }),
        },
        {
          observer: everyObserver([observer.model, observer.created]),
          writes: { readOnly: settings.readOnly, maxWrites: settings.maxWrites },
        },
      )
    : undefined;
  const sender: RunSender | undefined = client;
  const meta: RunMeta = {
    tool: TOOL,
    runId,
    baseUrl: client?.base.href ?? baseUrl,
    embeddedServer: server !== undefined,
    startedAt: startedAt.toISOString(),
    clock: settings.now.toISOString(),
    suites: selection.suites,
    ...(plan.contract.version === undefined ? {} : { contract: plan.contract.version }),
    options: plan.recordedOptions,
    deprecations: deprecationsOf(plan, sends),
    disabled: plan.disabled.map(({ id, reason }) => ({ id, reason })),
  };
  const stops = [signal, client?.stopSignal].filter((s): s is AbortSignal => s !== undefined);
  const context: RunContext = {
    plan,
    runId,
    variables: new Map<string, JsonValue>([
      ['runId', runId],
      ['categoryId', settings.categoryId],
      ['unknownPetId', unknownPetId()],
    ]),
    sender,
    connection,
    open: (overrides, observed) => openClient({ ...connection, ...overrides }, observed === true ? { observer: observer.model } : {}),
    judge: new RunJudging(
      {
        contract: plan.contract,
        disabled: new Map(plan.disabled.map((d) => [d.id, d.reason])),
        model: observer.model,
        ...(settings.exchangeChecks === undefined ? {} : { exchangeChecks: settings.exchangeChecks }),
      },
      new RunFindings(),
      variantsSendingTheKey(plan.target.apiKey),
    ),
    observer,
    clock: REAL_CLOCK,
    stop: stops.length === 0 ? new AbortController().signal : AbortSignal.any(stops),
    emit,
    provided: {},
  };
  const results: CaseResult[] = [];
  const phaseRequests: Record<string, number> = {};
  let provided: Provides = {};
  const parts = (): ReportParts => ({
    meta,
    startedAt,
    planned: phases.flatMap((phase) => phase.planned(plan)),
    results,
    strict: settings.strict,
    ...(plan.conformanceBaseline === undefined ? {} : { baseline: plan.conformanceBaseline }),
    failOn: plan.failOn ?? 'any',
    interrupted: signal?.aborted === true,
    client,
    created: context.observer.created,
    // What the phases provided (the store fill's count, a load, the request space's cells): the report assembly reads it.
    provided,
    phaseRequests,
    findings: context.judge.findings,
    ledger: {
      tally: context.judge.tally,
      selection: {
        disabled: context.judge.disabled,
        exchanges: sends,
        load: phases.some((phase) => phase.measuresLoad === true),
        ...(settings.exchangeChecks === undefined ? {} : { exchangeChecks: new Set(settings.exchangeChecks.map((c) => c.id)) }),
        ...(settings.minJudged === undefined ? {} : { minJudged: settings.minJudged }),
      },
    },
  });
  const notStarted = async (error: unknown): Promise<never> => {
    if (error instanceof RunError)
      await emit({ type: 'run-not-started', report: notStartedReport({ ...begun, baseUrl: meta.baseUrl }, error) });
    throw error;
  };
  try {
    // A signal during a gate stops a run as it stops one later (every report written, marked interrupted): the user stopped it.
    let interrupted: RunError | undefined;
    try {
      for (const phase of gates) {
        await phase.run(context);
        if (client?.stopped !== undefined) throw client.stopped;
      }
    } catch (error) {
      if (error instanceof RunError && signal?.aborted === true) interrupted = error;
      else await notStarted(error);
    }
    try {
      await emit({ type: 'run-start', meta, cases: parts().planned });
    } catch (error) {
      await notStarted(error);
    }
    try {
      if (interrupted !== undefined) throw interrupted;
      const settled = await runPhases(phases, context, () => client?.stopped, phaseRequests);
      const fulfilled = settled.flatMap((phase) => (phase.status === 'fulfilled' ? [phase.value] : []));
      for (const run of fulfilled) results.push(...run.results);
      provided = mergeProvides(fulfilled.map((run) => run.provides ?? {}));
      // The first phase in the plan's order that failed decides; a client that stopped ends the run whichever phase it stopped in.
      const failed = settled.find((phase): phase is PromiseRejectedResult => phase.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      if (client?.stopped !== undefined) throw client.stopped;
      const report = reportOf(parts());
      await emit({ type: 'run-end', report });
      return report;
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      // Whatever stopped the run once it began leaves reports that say so, with every result measured until then.
      const report = reportOf({ ...parts(), stopped: error });
      await emit({ type: 'run-end', report });
      throw new RunStoppedError(error, report);
    }
  } finally {
    await client?.close();
    await server?.close();
  }
}
