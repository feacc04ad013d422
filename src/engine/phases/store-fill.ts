/**
 * Enough data to judge: before the cases whose verdict depends on how many pets exist (a cap on a page, a filter),
 * count what the store holds and create what is missing, named with the run id (never in read-only mode). A case whose
 * requirement still is not met is skipped with the reason, never reported as passed.
 */
import { TransportError } from '../../http/client.js';
import { type Sender, WriteRefused } from '../../http/write-gate.js';
import { mapConcurrently } from '../../model/concurrency.js';
import { type Contract, listLimitOf, ROLES } from '../../model/contract.js';
import { RunError } from '../../model/errors.js';
import type { JsonValue } from '../../model/json.js';
import type { CaseSpec, StoreRequirement } from '../../model/scenario.js';
import { type ContractRequests, contractRequests } from '../../requests/contract-requests.js';
import type { StoreCounts } from '../store-counts.js';
import type { Phase } from '../phase.js';

/** How the store is filled. */
export interface StoreFillOptions {
  /** The client behind the run's write gate. */
  client: Sender;
  contract: Contract;
  readOnly: boolean;
  concurrency: number;
  runId: string;
  categoryId: JsonValue;
  /** Ctrl-C, or the client stopping: no more pets are created. */
  signal?: AbortSignal;
}

/** What the store model names the fill's exchanges by. */
const FILL = 'the store fill';

/** How many pets a listing holds, at least: a page of `page` items, else the default page; or why it could not be counted. */
async function countListing(
  client: Sender,
  requests: ContractRequests,
  filter: Array<[string, string]>,
  page: string,
): Promise<number | string> {
  let shown = '';
  // A server that refuses the largest page is judged by its own case; the default page still gives a lower bound.
  for (const query of [[...filter, ['limit', page]], filter] as Array<Array<[string, string]>>) {
    // The fill's listings reach the store model through the client: they show what the store holds before any case runs.
    const request = requests.listing(query, { label: FILL });
    const { response } = await client.send(request);
    if (response.status === 200 && Array.isArray(response.json)) return response.json.length;
    shown = `GET ${request.path}${query.length === 0 ? '' : `?${new URLSearchParams(query).toString()}`} answered ${response.status}`;
  }
  return shown;
}

/** The pets still missing for `requirements`, by status ('' for any status), given what was counted. */
function missingPets(
  requirements: readonly StoreRequirement[],
  total: number,
  byStatus: ReadonlyMap<string, number>,
  anyStatus: string,
): Map<string, number> {
  const missing = new Map<string, number>();
  let added = 0;
  for (const status of new Set(requirements.flatMap((r) => (r.status === undefined ? [] : [r.status])))) {
    const need = Math.max(...requirements.filter((r) => r.status === status).map((r) => r.pets));
    const short = Math.max(0, need - (byStatus.get(status) ?? 0));
    if (short > 0) missing.set(status, short);
    added += short;
  }
  const needTotal = Math.max(0, ...requirements.filter((r) => r.status === undefined).map((r) => r.pets));
  const shortTotal = Math.max(0, needTotal - total - added);
  if (shortTotal > 0) missing.set(anyStatus, (missing.get(anyStatus) ?? 0) + shortTotal);
  return missing;
}

/** Counts the store for the cases that require pets, and creates what is missing; undefined when no case requires any. */
export async function fillStore(cases: readonly CaseSpec[], options: StoreFillOptions): Promise<StoreCounts | undefined> {
  const requirements = cases.flatMap((c) => (c.requires === undefined ? [] : [c.requires]));
  const requests = contractRequests(options.contract);
  if (requirements.length === 0 || !options.contract.operations.has(ROLES.list)) return undefined;
  const page = String(listLimitOf(options.contract).max);
  const statuses = [...new Set(requirements.flatMap((r) => (r.status === undefined ? [] : [r.status])))];
  const byStatus = new Map<string, number>();
  const problems: string[] = [];
  try {
    // Each status and the whole store at once: the counts do not depend on each other.
    const filters: Array<Array<[string, string]>> = [...statuses.map((status): Array<[string, string]> => [['status', status]]), []];
    const listed = await mapConcurrently(filters, options.concurrency, (filter) =>
      countListing(options.client, requests, filter, page).catch((error: unknown) => ({ error })),
    );
    // What one count threw is thrown once every count is over, the first in order.
    const thrown = listed.find((count): count is { error: unknown } => typeof count === 'object');
    if (thrown !== undefined) throw thrown.error;
    for (const [index, status] of statuses.entries()) {
      const count = listed[index];
      if (typeof count === 'string') problems.push(count);
      else if (typeof count === 'number') byStatus.set(status, count);
    }
    const all = listed[statuses.length];
    if (typeof all === 'string') problems.push(all);
    const counted = typeof all === 'number' ? all : 0;
    const total = Math.max(
      counted,
      [...byStatus.values()].reduce((a, b) => a + b, 0),
    );
    const counts = { total, byStatus, created: 0 };
    if (problems.length > 0) return { ...counts, problem: `the store could not be counted: ${problems.join('; ')}` };
    const missing = missingPets(requirements, total, byStatus, statuses[0] ?? 'available');
    if (missing.size === 0 || options.readOnly || !options.contract.operations.has(ROLES.create)) return counts;
    return await createMissing(missing, counts, requests, options);
  } catch (error) {
    if (error instanceof RunError) throw error;
    if (error instanceof TransportError)
      return { total: 0, byStatus, created: 0, problem: `the store could not be counted: ${error.message} (${error.code})` };
    throw error;
  }
}

async function createMissing(
  missing: ReadonlyMap<string, number>,
  counts: { total: number; byStatus: Map<string, number>; created: number },
  requests: ContractRequests,
  options: StoreFillOptions,
): Promise<StoreCounts> {
  const wanted = [...missing].flatMap(([status, n]) => Array.from({ length: n }, () => status));
  let problem: string | undefined;
  await mapConcurrently(wanted, options.concurrency, async (status, index) => {
    if (problem !== undefined || options.signal?.aborted === true) return;
    const json = { name: `${options.runId} fill ${index + 1}`, categoryId: options.categoryId, status };
    try {
      const exchange = await options.client.send(requests.create(json, { label: FILL }));
      if (exchange.response.status !== 201) {
        problem ??= `creating pets to judge by answered ${exchange.response.status}`;
        return;
      }
    } catch (error) {
      if (error instanceof WriteRefused) {
        problem ??= `no pet created to judge by: the request ${error.message}`;
        return;
      }
      if (!(error instanceof TransportError)) throw error;
      problem ??= `creating pets to judge by failed: ${error.message} (${error.code})`;
      return;
    }
    counts.created += 1;
    counts.total += 1;
    counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
  });
  return problem === undefined ? counts : { ...counts, problem };
}

/** Before the cases that need pets: what the store holds is counted, and what is missing created. */
export const STORE_FILL_PHASE: Phase = {
  id: 'store-fill',
  title: 'the store counted, and the pets the cases need created, named with the run id',
  usesRunClient: true,
  cases: () => [],
  enabled: (plan) => plan.selection.cases.some((c) => c.requires !== undefined),
  planned: () => [],
  skipReason: () => undefined,
  writes: (plan) => plan.selection.cases.reduce((sum, c) => sum + (c.requires?.pets ?? 0), 0),
  async run(context) {
    const { sender, plan } = context;
    if (sender === undefined) return { results: [] };
    const store = await fillStore(plan.selection.cases, {
      client: sender,
      contract: plan.contract,
      readOnly: plan.settings.readOnly,
      concurrency: plan.settings.concurrency,
      runId: context.runId,
      categoryId: plan.settings.categoryId,
      signal: context.stop,
    });
    return { results: [], ...(store === undefined ? {} : { provides: { store } }) };
  },
};
