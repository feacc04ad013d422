/** The preflight phase: one listing before anything else (see http/preflight.ts, which a load alone also asks through). */
import { preflight } from '../../http/preflight.js';
import { contractRequests } from '../../requests/contract-requests.js';
import type { Phase } from '../phase.js';
import type { RunPlan } from '../plan.js';

/** A plan that sends to a service: a run's cases, or a load alone (not a merge, which sends nothing). */
export function sendsToService(plan: RunPlan): boolean {
  return plan.selection.merge === undefined;
}

/**
 * The service answers the listing as a pet store should, or the run stops with one line before it starts: for the
 * conformance phases with the suite's own client, for a load alone with a connection of its own (then the load does not
 * ask again; after the cases, `run --load` verifies its target again before its first stage).
 */
export const PREFLIGHT_PHASE: Phase = {
  id: 'preflight',
  title: 'the base URL answers the listing as a pet store (else the run does not start: one line)',
  gate: true,
  cases: () => [],
  enabled: sendsToService,
  planned: () => [],
  skipReason: () => undefined,
  async run({ sender, plan, open, stop }) {
    const listing = contractRequests(plan.contract).listing();
    if (sender !== undefined) {
      await preflight(sender, listing, false);
      return { results: [] };
    }
    // A load alone stopped before its first request sends none: nothing after it would run.
    if (stop.aborted) return { results: [] };
    // Observed: the pets it shows reach the store model, which the load's listings are then held to. A signal aborts its
    // request at once: an interrupted load runs nothing after it, so its answer is never needed.
    const own = open({ connections: 1, abort: stop }, true);
    try {
      await preflight(own, listing, true);
    } finally {
      await own.close();
    }
    return { results: [] };
  },
};
