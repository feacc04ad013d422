/** The whole run, owned here: the embedded server, the preflight, the cases, the load or the merge, the run checks and the one verdict. */
import { randomBytes, randomInt } from 'node:crypto';
import { runChecks } from '../checks/registry.js';
import { DEFAULT_HTTP_OPTIONS, HttpClient, type HttpClientOptions } from '../http/client.js';
import { connectionOf } from '../http/connection.js';
import { preflight } from '../http/preflight.js';
import { packageVersion } from '../loader/package-paths.js';
import type { Baseline } from '../model/check.js';
import { RunError } from '../model/errors.js';
import type { RunListener } from '../model/events.js';
import type { JsonValue } from '../model/json.js';
import type { LoadProfile, LoadReport, LoadStage } from '../model/load.js';
import type { CaseSpec } from '../model/scenario.js';
import {
  emptyCounts,
  internalErrorsOf,
  verdictOf,
  warningsOf,
  type CaseInfo,
  type CaseResult,
  type RunMeta,
  type RunReport,
} from '../model/results.js';
import { startReferenceServer, type RunningServer } from '../server/reference-server.js';
import { runFuzzing, fuzzCaseInfos } from './fuzz.js';
import { runStateful, STATEFUL_CASE } from './stateful.js';
import { caseInfo, decided, disabledCase, guarded, notJudgedCase, outcomeOf, runCases } from './cases.js';
import { RunFindings } from './findings.js';
import { CREATED_PET_CASES, CreatedPets, createdPetCases } from './created-pets.js';
import { fillStore } from './store-fill.js';
import type { RunPlan } from './plan.js';

/** A run id that names what the run creates, e.g. pc-20261121T220500-3fa2. */
function newRunId(now = new Date()): string {
  return `pc-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(2).toString('hex')}`;
}

/** An id no pet is likely to have: random, below 2^53 so the case does not also test int64 parsing. */
function unknownPetId(): number {
  return 2 ** 52 + randomInt(2 ** 47);
}

/** The case a load profile is: its thresholds are the checks that judge it. */
function loadCaseInfo(profile: LoadProfile): CaseInfo {
  return {
    id: `load.${profile.name}`,
    title: profile.title,
    clause: `load profile ${profile.name}: every threshold it states (and no failed request, non-2xx answer or sampled contract breach unless it allows some)`,
    suite: 'load',
    operation: 'listPets',
    level: 'fail',
    // The case is the whole profile file.
    source: { file: profile.file, line: 1, column: 1 },
  };
}

/** Judges a load result by every run check that applies: the load case's result. */
export function judgeLoad(load: LoadReport, disabled: ReadonlyMap<string, string>, durationMs: number): CaseResult {
  const info = loadCaseInfo(load.profile);
  const skipped = disabledCase(info, disabled);
  if (skipped !== undefined) return skipped;
  const context = { load };
  const checks = runChecks
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
  return { ...info, ...decided(checks), durationMs: Math.round(durationMs), checks, exchanges: [], retries: 0 };
}

/** The load modules (HDR histograms, sockets, worker threads), imported only by runs that load or merge. */
const loadModules = async () => {
  const [{ aggregateRuns }, { buildLoadReport, executeLoad }] = await Promise.all([
    import('../load/aggregate.js'),
    import('../load/load-run.js'),
  ]);
  return { aggregateRuns, buildLoadReport, executeLoad };
};

/** Merges the load reports of runs made at once on several machines: raw results added stage by stage, rates summed. */
export async function mergeLoads(loads: readonly LoadReport[], baseline?: Baseline): Promise<LoadReport> {
  const { aggregateRuns, buildLoadReport } = await loadModules();
  const first = loads[0];
  if (first === undefined) throw new RunError('ERR_USAGE', "'merge' takes the report.json files of the runs to merge");
  const other = loads.find((l) => l.profile.name !== first.profile.name);
  if (other)
    throw new RunError('ERR_USAGE', `cannot merge runs of different profiles ('${first.profile.name}' and '${other.profile.name}')`);
  const stageCount = Math.min(...loads.map((l) => l.stages.length));
  const stages: LoadStage[] = [];
  for (let i = 0; i < stageCount; i++) {
    const raw = loads.flatMap((l) => (l.stages[i] as LoadStage).raw);
    const stage: LoadStage = { metrics: aggregateRuns(raw), breached: [], raw };
    const rate = first.stages[i]?.rate;
    if (rate !== undefined) stage.rate = rate * loads.length;
    stages.push(stage);
  }
  return buildLoadReport(first.profile, first.baseUrl, stages, loads.length, baseline);
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
  client: HttpClient | undefined;
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
    reportVersion: 3,
    meta: parts.meta,
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - parts.startedAt.getTime(),
    // A run that stopped before its end cannot pass, whatever it measured until then.
    verdict: verdictOf({
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
 * Runs a plan to its final report, emitting events on the way. A RunError that stops the run once it began (the server
 * gone, a load that cannot start) still ends in a report that says so, holding every result measured until then, and
 * is thrown after it. `abort` aborts the requests in flight (the run was interrupted and their grace ran out).
 */
export async function executePlan(plan: RunPlan, listener: RunListener, signal?: AbortSignal, abort?: AbortSignal): Promise<RunReport> {
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const disabled = new Map(plan.disabled.map((d) => [d.id, d.reason]));
  const server = await embeddedServer(plan);
  const baseUrl = plan.merge?.loads[0]?.baseUrl ?? plan.target.baseUrl ?? (server as RunningServer).baseUrl;
  // Only the cases use the suite's own client; a load verifies its target with one of its own.
  const client =
    plan.conformance === undefined
      ? undefined
      : new HttpClient({
          ...httpOptions(plan, baseUrl, server !== undefined),
          ...(abort === undefined ? {} : { abort }),
          onWait: (wait) => listener.onWait?.(wait),
        });
  const created = new CreatedPets();
  const results: CaseResult[] = [];
  const meta: RunMeta = {
    tool: { name: 'petstore-conformance', version: packageVersion() },
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
  const conformance = plan.conformance;
  const profile = plan.load?.profile ?? plan.merge?.loads[0]?.profile;
  const createdPetInfos = CREATED_PET_CASES.filter((c) => conformance?.createdPetCases.includes(c.id) === true);
  const planned = [
    ...(conformance?.cases.map(caseInfo) ?? []),
    ...createdPetInfos,
    ...(conformance?.fuzz === undefined ? [] : fuzzCaseInfos(plan.contract)),
    ...(conformance?.stateful === undefined ? [] : [STATEFUL_CASE]),
    ...(profile === undefined ? [] : [loadCaseInfo(profile)]),
  ];
  const parts: ReportParts = {
    meta,
    startedAt,
    planned,
    results,
    strict: plan.strict,
    interrupted: false,
    client,
    created,
    filled: 0,
    load: undefined,
    phaseRequests: {},
    findings: new RunFindings(),
  };
  try {
    if (conformance !== undefined && client !== undefined)
      await preflight(client, plan.contract.operations.get('listPets')?.path ?? '/pets', false);
    await listener.onRunStart?.(meta, planned);
    if (conformance !== undefined && client !== undefined) {
      const { categoryId } = conformance;
      const stop = signal === undefined ? client.stopSignal : AbortSignal.any([signal, client.stopSignal]);
      const store = await fillStore(conformance.cases, {
        client,
        contract: plan.contract,
        readOnly: conformance.readOnly,
        concurrency: conformance.concurrency,
        runId,
        categoryId,
        created,
        signal: stop,
      });
      parts.filled = store?.created ?? 0;
      const options = {
        client,
        contract: plan.contract,
        variables: new Map<string, JsonValue>([
          ['runId', runId],
          ['categoryId', categoryId],
          ['unknownPetId', unknownPetId()],
        ]),
        now: plan.now,
        readOnly: conformance.readOnly,
        concurrency: conformance.concurrency,
        consistencyWindowMs: conformance.consistencyWindowMs,
        excerptBytes: plan.excerptBytes,
        disabled,
        listener,
        created,
        ...(store === undefined ? {} : { store }),
        // The client stops the run when the server is gone or asks for more waiting than allowed; Ctrl-C stops it too.
        signal: stop,
        maxWrites: conformance.maxWrites,
        findings: parts.findings,
        ...(conformance.exchangeChecks === undefined ? {} : { exchangeChecks: conformance.exchangeChecks }),
      };
      results.push(...(await runCases(conformance.cases, options)));
      // The created-pet cases judge what every other case wrote, so they run last; without pets they have nothing to judge.
      const specs = createdPetCases(created, plan.contract);
      const wanted = createdPetInfos.map((info) => specs.find((s) => s.id === info.id) ?? info);
      results.push(
        ...(await runCases(
          wanted.filter((s): s is CaseSpec => 'steps' in s),
          options,
        )),
      );
      for (const info of wanted.filter((s) => !('steps' in s))) {
        const result = notJudgedCase(info, conformance.readOnly ? 'read-only' : 'precondition', 'the run created no pet to judge');
        listener.onCaseEnd?.(result);
        results.push(result);
      }
      // The generated phases keep only their failing requests as evidence: their traffic is counted at the client.
      const counted = async <T>(suite: string, phase: () => Promise<T>): Promise<T> => {
        const before = client.requestCount;
        const out = await phase();
        parts.phaseRequests[suite] = client.requestCount - before;
        return out;
      };
      if (conformance.fuzz !== undefined) {
        const fuzz = conformance.fuzz;
        results.push(...(await counted('fuzz', () => runFuzzing(plan.contract, fuzz, options))));
      }
      if (conformance.stateful !== undefined) {
        const stateful = conformance.stateful;
        results.push(await counted('stateful', () => runStateful(plan.contract, stateful, options)));
      }
      if (client.stopped !== undefined) throw client.stopped;
    }
    if (plan.load !== undefined && profile !== undefined) {
      const info = loadCaseInfo(profile);
      listener.onCaseStart?.(info);
      const loadStarted = performance.now();
      const { buildLoadReport, executeLoad } = await loadModules();
      const stages =
        signal?.aborted === true
          ? []
          : await executeLoad({
              profile,
              http: httpOptions(plan, baseUrl, server !== undefined),
              contract: plan.contract,
              allowProductionLoad: plan.load.allowProductionLoad,
              listener,
              ...(signal === undefined ? {} : { signal }),
            }).finally(() => listener.onLoadEnd?.());
      let result: CaseResult;
      if (stages.length === 0) {
        result = notJudgedCase(info, 'interrupted', 'interrupted before the load was measured');
      } else {
        parts.load = buildLoadReport(profile, baseUrl, stages, 1, plan.load.baseline);
        result = judgeLoad(parts.load, disabled, performance.now() - loadStarted);
      }
      listener.onCaseEnd?.(result);
      results.push(result);
    }
    if (plan.merge !== undefined) {
      parts.load = await mergeLoads(plan.merge.loads, plan.merge.baseline);
      const result = judgeLoad(parts.load, disabled, 0);
      listener.onCaseEnd?.(result);
      results.push(result);
    }
    parts.interrupted = signal?.aborted === true || parts.load?.interrupted === true;
    const report = reportOf(parts);
    await listener.onRunEnd?.(report);
    return report;
  } catch (error) {
    if (!(error instanceof RunError)) throw error;
    // Whatever stopped the run once it began leaves reports that say so, with every result measured until then.
    await listener.onRunEnd?.(reportOf({ ...parts, interrupted: signal?.aborted === true, stopped: error }));
    throw error;
  } finally {
    await client?.close();
    await server?.close();
  }
}
