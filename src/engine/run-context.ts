/**
 * The one context every phase runs in: the plan, where requests go, how they are judged and observed, the clock, one stop
 * signal and `emit`. A phase reads it and returns what it found and what later phases may use (PhaseRun); it writes
 * nothing into it.
 */
import type { RunJudging } from '../checks/run-judging.js';
import type { Client, HttpClientOptions } from '../http/client.js';
import type { Clock } from '../model/clock.js';
import type { Emit } from '../model/events.js';
import type { JsonObject } from '../model/json.js';
import type { LoadReport } from '../model/load.js';
import type { RequestSpaceSummary } from '../model/request-space.js';
import type { CaseResult } from '../model/results.js';
import type { Variables } from '../model/template.js';
import type { RunObserver } from './observer.js';
import type { RunPlan } from './plan.js';
import { type StoreCounts, spareStatusOf } from './store-counts.js';

/**
 * What a phase sends through: the run's client (openClient) behind its layers, the write gate last (`writeBudget` says
 * whether --max-writes is spent); `base` and `urlFor` say where it goes.
 */
export type RunSender = Pick<Client, 'send' | 'base' | 'urlFor' | 'writeBudget'>;

/** A client a phase opens for itself (the wait for the service, a load's own preflight), closed by it. */
export type OwnClient = Pick<Client, 'send' | 'base' | 'urlFor' | 'close'>;

/** What a phase leaves for the phases after it. */
export interface Provides {
  /** What the store fill counted and added. */
  readonly store?: StoreCounts;
  /** The pets the phase created, in creation order. */
  readonly created?: readonly JsonObject[];
  /** The load measured or merged. */
  readonly load?: LoadReport;
  /** The request space's cells, sent and judged. */
  readonly requestSpace?: RequestSpaceSummary;
}

/** What a phase returns: the results of its cases in the order of the report, and what later phases may use. */
export interface PhaseRun {
  readonly results: CaseResult[];
  readonly provides?: Provides;
}

/** The context of a run, the same for every phase but for `provided` (what the phases it depends on provided) and its sender. */
export interface RunContext {
  readonly plan: RunPlan;
  /** Names what the run creates, e.g. pc-20261121T220500-3fa2. */
  readonly runId: string;
  /** Values of the built-in variables: runId, categoryId, unknownPetId, and for each phase spareStatus (phaseVariables). */
  readonly variables: Variables;
  /** The run's client, when a phase of the plan sends through it; a load measures with connections of its own. */
  readonly sender: RunSender | undefined;
  /** The options of the run's client: what a client a phase opens for itself, and a load's connections, start from. */
  readonly connection: HttpClientOptions;
  /**
   * Opens a client of the phase's own, with these options over the run's (never through the run's client); with `observed`,
   * its exchanges reach the store model as the run client's do.
   */
  open(overrides: Partial<HttpClientOptions>, observed?: boolean): OwnClient;
  readonly judge: RunJudging;
  /** Every exchange the run's client answered: the store model and the created pets. */
  readonly observer: RunObserver;
  /** What a read-after-write step's window and backoff, and the wait for the service, are measured by. */
  readonly clock: Clock;
  /** The run stops starting work: Ctrl-C (or SIGTERM), or the client stopping the run (the server gone, a wait too long). */
  readonly stop: AbortSignal;
  /** Tells an event (of this phase: told in the order of the plan). */
  readonly emit: Emit;
  /** What the phases this one depends on provided, merged in the order of the plan. */
  readonly provided: Provides;
}

/** What several phases provided, merged in the order given: the later counts and load win, the created pets add up. */
export function mergeProvides(all: readonly Provides[]): Provides {
  let merged: Provides = {};
  for (const provides of all) {
    const created = [...(merged.created ?? []), ...(provides.created ?? [])];
    merged = { ...merged, ...provides, ...(created.length === 0 ? {} : { created }) };
  }
  return merged;
}

/** The run's variables as a phase sees them: `spareStatus` settled by what the phases before it counted (the store fill). */
export function phaseVariables(variables: Variables, provided: Provides, statuses: readonly string[]): Variables {
  const spare = spareStatusOf(statuses, provided.store);
  return spare === undefined ? variables : new Map([...variables, ['spareStatus', spare]]);
}

/**
 * The status a generated create writes for the one it drew: the spare one, where the run has one. The draw stays as it was,
 * so that a seed generates the same names and fields whatever the store holds.
 */
export function writtenStatus(drawn: string, variables: Variables): string {
  const spare = variables.get('spareStatus');
  return typeof spare === 'string' ? spare : drawn;
}
