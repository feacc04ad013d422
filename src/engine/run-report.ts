/** The report a run ends in, assembled from its parts, and the one a run that could not start leaves. */
import { judgeRun } from '../checks/judge.js';
import type { RunFindings } from '../checks/findings.js';
import type { JudgementTally, LedgerSelection } from '../checks/ledger.js';
import type { Client } from '../http/client.js';
import { packageVersion } from '../loader/package-paths.js';
import { type ConformanceBaseline, type FailOn, gatedFailures, runTarget, sinceBaseline, unlikeRuns } from '../model/baseline.js';
import type { RunError } from '../model/errors.js';
import {
  emptyCounts,
  internalErrorsOf,
  warningsOf,
  type CaseInfo,
  type CaseResult,
  type JudgementLedger,
  type NotStartedReport,
  type RunMeta,
  type RunReport,
  type SinceBaseline,
} from '../model/results.js';
import { notJudgedCase } from './case-report.js';
import type { CreatedPets } from './observer.js';
import type { Provides } from './run-context.js';

/** This tool, as every report names it. */
export const TOOL = { name: 'petstore-conformance', version: packageVersion() } as const;

/** Everything a report is built from. */
export interface ReportParts {
  meta: RunMeta;
  startedAt: Date;
  /** Every case the plan holds: one that a stopped or interrupted run never reached is in the report, not run, with why. */
  planned: readonly CaseInfo[];
  results: CaseResult[];
  strict: boolean;
  /** The run was interrupted (a signal); a load that measured an interruption (a merged report of one) says so too. */
  interrupted: boolean;
  client: Client | undefined;
  created: CreatedPets;
  /** What the phases provided: the store fill's count, the load measured or merged, the request space's cells. */
  provided: Provides;
  /** Requests of the phases that keep only failing requests as evidence, counted at the client. */
  phaseRequests: Record<string, number>;
  /** What the recommendation-level exchange checks found, by check id. */
  findings: RunFindings;
  /** The tally of judgements and what the run selected: the ledger of judgement is built from them (and the request space's cells). */
  ledger: { tally: JudgementTally; selection: Omit<LedgerSelection, 'cells'> };
  stopped?: RunError;
  /** The earlier run given as --baseline, and what a failure must be to fail the run (--fail-on). */
  baseline?: ConformanceBaseline;
  failOn: FailOn;
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

/** The run's report from its parts: the cases (those never reached included), counts, the verdict, what changed since the baseline. */
export function reportOf(given: ReportParts): RunReport {
  const { load, requestSpace: space, store } = given.provided;
  // A run that went to its end takes the interruption a load measured (a merged report of one); a stop decides otherwise.
  const parts = { ...given, interrupted: given.interrupted || (given.stopped === undefined && load?.interrupted === true) };
  const cells = space === undefined ? {} : { cells: { judged: space.judged, of: space.cells } };
  const judgement = parts.ledger.tally.build({ ...parts.ledger.selection, ...cells });
  const filled = store?.created ?? 0;
  const cases = [...parts.results, ...notReached(parts)];
  const counts = emptyCounts();
  // Counted as the judge settled them.
  for (const r of cases) counts[r.outcome] += 1;
  const finished = new Date();
  const { client, created, stopped } = parts;
  const findings = parts.findings.findings;
  const internalErrors = internalErrorsOf(cases, parts.findings.internalErrors);
  const since = compared(parts, cases, judgement);
  const gated = since !== undefined && parts.failOn === 'new' ? { gatedFailures: gatedFailures(since, parts.strict) } : {};
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
      judgedTooLittle: judgement.belowMinimum === true,
      ...gated,
    }),
    counts,
    requests: client?.requestCount ?? 0,
    requestsBySuite: { ...requestsBySuite(parts.results), ...parts.phaseRequests },
    ...(client === undefined ? {} : { traffic: client.traffic }),
    createdPets: { count: created.count, namedWith: parts.meta.runId, ...(filled > 0 ? { toJudge: filled } : {}) },
    ...(parts.interrupted ? { interrupted: true as const } : {}),
    ...(stopped === undefined ? {} : { stopped: { code: stopped.code, message: stopped.message } }),
    cases,
    warnings: warningsOf(cases),
    findings,
    internalErrors,
    ...(load === undefined ? {} : { load }),
    ...(space === undefined ? {} : { requestSpace: space }),
    judgement,
    ...(since === undefined ? {} : { sinceBaseline: since }),
  };
}

/** What changed since the --baseline run, when there is one. */
function compared(parts: ReportParts, cases: readonly CaseResult[], judgement: JudgementLedger): SinceBaseline | undefined {
  const { baseline, meta } = parts;
  if (baseline === undefined) return undefined;
  const run = { version: meta.tool.version, target: runTarget(meta), ...(meta.contract === undefined ? {} : { contract: meta.contract }) };
  const { strict } = parts;
  return sinceBaseline(baseline, { cases, judgement, findings: parts.findings.findings, strict, unlike: unlikeRuns(baseline, run) });
}

/** What a run that could not start knows: when, where, and what stopped it. */
export function notStartedReport(
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
