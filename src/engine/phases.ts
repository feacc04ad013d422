/**
 * PHASES: every phase of a run, in the order a run takes them (and its report lists their cases). Selection (--suite,
 * --phase, --check, --skip-check, the configuration's disable list), the plan, the catalogue, the events and the matrix
 * read this one list.
 */
import { listPathOf } from '../model/contract.js';
import { openClient } from '../http/open-client.js';
import { preflight } from '../http/preflight.js';
import { listingProbe, WAIT_TRY_MS, waitForService } from '../http/wait-for.js';
import type { RunPlan } from './plan.js';
import type { CaseInfo } from '../model/results.js';
import { stepsWrite } from '../model/scenario.js';
import { caseInfo, runCases } from './cases.js';
import { CREATED_PETS_PHASE } from './created-pets.js';
import { FUZZ_PHASE } from './fuzz.js';
import { LOAD_PHASE, MERGE_PHASE } from './load-phase.js';
import { caseOptions, type Phase, type PhaseInputs } from './phase.js';
import { STATEFUL_PHASE } from './stateful.js';
import { STORE_HEALTH_PHASE } from './store-health.js';
import { fillStore } from './store-fill.js';

/** A plan that sends to a service: a run's cases, or a load alone (not a merge, which sends nothing). */
function sendsToService(plan: RunPlan): boolean {
  return plan.conformance !== undefined || (plan.load !== undefined && plan.merge === undefined);
}

/**
 * --wait-for: the listing asked until the service answers, with a growing pause, within the bound (else the run does not
 * start). A connection of its own, so that the tries that got no answer never count against the run's client.
 */
const WAIT_FOR_PHASE: Phase = {
  id: 'wait-for',
  title: 'the service waited for until it answers its listing, within --wait-for (else the run does not start: one line)',
  gate: true,
  cases: () => [],
  enabled: (plan) => sendsToService(plan) && plan.target.baseUrl !== undefined && (plan.waitForMs ?? 0) > 0,
  planned: () => [],
  skipReason: () => undefined,
  async run({ plan, http, clock, signal, listener }) {
    const boundMs = plan.waitForMs ?? 0;
    const tryMs = Math.min(WAIT_TRY_MS, http.requestTimeoutMs);
    const options = {
      ...http,
      connections: 1,
      connectTimeoutMs: Math.min(http.connectTimeoutMs, tryMs),
      headersTimeoutMs: Math.min(http.headersTimeoutMs, tryMs),
      requestTimeoutMs: tryMs,
      // A gateway that asks to wait is waited for within the bound, no longer.
      pacing: { maxWaitMs: boundMs, waitBudgetMs: boundMs },
    };
    await waitForService(
      listingProbe(() => openClient(options), listPathOf(plan.contract)),
      {
        url: new URL(http.baseUrl).href,
        boundMs,
        clock,
        ...(signal === undefined ? {} : { signal }),
        onTry: (wait) => listener.onServiceWait?.(wait),
      },
    );
    return [];
  },
};

/**
 * The service answers the listing as a pet store should, or the run stops with one line before it starts: for the
 * conformance phases with the suite's own client, for a load alone with a connection of its own (then the load does not
 * ask again; after the cases, `run --load` verifies its target again before its first stage).
 */
const PREFLIGHT_PHASE: Phase = {
  id: 'preflight',
  title: 'the base URL answers the listing as a pet store (else the run does not start: one line)',
  gate: true,
  cases: () => [],
  enabled: sendsToService,
  planned: () => [],
  skipReason: () => undefined,
  async run({ client, plan, http }) {
    const listPath = listPathOf(plan.contract);
    if (client !== undefined) {
      await preflight(client, listPath, false);
      return [];
    }
    const own = openClient({ ...http, connections: 1 });
    try {
      await preflight(own, listPath, true);
    } finally {
      await own.close();
    }
    return [];
  },
};

/** Before the cases that need pets: what the store holds is counted, and what is missing created (see store-fill.ts). */
const STORE_FILL_PHASE: Phase = {
  id: 'store-fill',
  title: 'the store counted, and the pets the cases need created, named with the run id',
  cases: () => [],
  enabled: (plan) => plan.conformance !== undefined,
  planned: () => [],
  skipReason: () => undefined,
  writes: (plan) => (plan.conformance?.cases ?? []).reduce((sum, c) => sum + (c.requires?.pets ?? 0), 0),
  async run(context) {
    const { sender, plan } = context;
    const conformance = plan.conformance;
    if (sender === undefined || conformance === undefined) return [];
    const store = await fillStore(conformance.cases, {
      client: sender,
      contract: plan.contract,
      readOnly: conformance.readOnly,
      concurrency: conformance.concurrency,
      runId: context.runId,
      categoryId: conformance.categoryId,
      created: context.created,
      model: context.model,
      ...(context.stop === undefined ? {} : { signal: context.stop }),
    });
    if (store !== undefined) context.store = store;
    return [];
  },
};

/** The cases scenario files declare and those generated from the contract (the examples and coverage phases), at once. */
const CASES_PHASE: Phase = {
  id: 'cases',
  title: 'the cases scenario files declare and those generated from the contract, each step sent and judged',
  cases: (inputs) => inputs.cases.map(caseInfo),
  enabled: (plan) => plan.conformance !== undefined,
  planned: (plan) => plan.conformance?.cases.map(caseInfo) ?? [],
  skipReason: () => undefined,
  writes: (plan) => (plan.conformance?.cases ?? []).reduce((sum, c) => sum + c.steps.filter((step) => stepsWrite([step])).length, 0),
  run: (context) => runCases(context.plan.conformance?.cases ?? [], caseOptions(context)),
};

/** Every phase, in the order of a run. */
export const PHASES: readonly Phase[] = [
  WAIT_FOR_PHASE,
  PREFLIGHT_PHASE,
  STORE_FILL_PHASE,
  CASES_PHASE,
  CREATED_PETS_PHASE,
  FUZZ_PHASE,
  STATEFUL_PHASE,
  STORE_HEALTH_PHASE,
  LOAD_PHASE,
  MERGE_PHASE,
];

export { GENERATED_SUITES } from '../model/generated-suites.js';

/** Every case any phase can report, given the loaded inputs, in the order of a run. */
export function phaseCases(inputs: PhaseInputs): CaseInfo[] {
  return PHASES.flatMap((phase) => phase.cases(inputs));
}
