/**
 * The store's health after the phases that write: a listing without a filter and of each status, and getPet of a spread
 * of the pets the run created, must still answer. A 5xx fails and names the write after which reads began failing (the
 * store model keeps when the run wrote what); the run goes on judging what it can.
 */
import { type Contract, listLimitOf, statusValues, ROLES } from '../../model/contract.js';
import { contractRequests } from '../../requests/contract-requests.js';
import type { JsonObject } from '../../model/json.js';
import type { CaseInfo } from '../../model/results.js';
import type { CaseSpec, Expectations, StepSpec } from '../../model/scenario.js';
import { runCases, sending } from '../cases.js';
import { notJudgedCase, reportCase } from '../case-report.js';
import { selectedOf, type Phase } from '../phase.js';
import { spread } from './created-pets.js';

/** At most this many created pets are read again: enough to find one that broke the store, few enough to stay polite. */
const MAX_PETS = 20;

/** The store-health case, as the catalogue lists it. */
const STORE_HEALTH_CASE: CaseInfo = {
  id: 'lifecycle.store-health',
  title: "After the phases that write, each listing (by status and without) and getPet of the run's pets still answer, without a 5xx",
  clause: 'reading-the-contract: never a 5xx, and never a store whose reads fail afterwards (a lone surrogate stored included)',
  suite: 'lifecycle',
  operation: ROLES.list,
  level: 'fail',
};

/** The reads of the store-health case: every listing at the largest page, and getPet of a spread of the pets created. */
function storeHealthCase(created: readonly JsonObject[], contract: Contract): CaseSpec | undefined {
  const list = contract.operations.get(ROLES.list);
  const get = contract.operations.get(ROLES.get);
  const { templates } = contractRequests(contract);
  const steps: StepSpec[] = [];
  const read = (request: StepSpec['request'], expect: Expectations = { answersAfterWrites: true }): StepSpec => ({ request, expect });
  if (list !== undefined) {
    const limit = listLimitOf(contract).max;
    // The plain listing also judges every pet the run saw named with its id: each must be one a create handed out.
    steps.push(read(templates.listing({ limit }), { answersAfterWrites: true, refusalsLeftNoPet: true }));
    for (const status of statusValues(contract)) steps.push(read(templates.listing({ status, limit })));
  }
  if (get !== undefined) for (const pet of spread(created, MAX_PETS)) steps.push(read(templates.get(String(pet['id']))));
  return steps.length === 0 ? undefined : { ...STORE_HEALTH_CASE, steps, writes: false, independentSteps: true };
}

/** After every phase that writes (and before a load): the store still answers what the run reads of it. */
export const STORE_HEALTH_PHASE: Phase = {
  id: 'store-health',
  title:
    'after the phases that write: each listing and a spread of the created pets read once more; ' +
    'a 5xx names the write after which reads failed',
  sends: 'GET of each listing (by status and without) at the largest page, and of up to 20 created pets',
  cases: () => [STORE_HEALTH_CASE],
  usesRunClient: true,
  enabled: (plan) => selectedOf(plan, [STORE_HEALTH_CASE]).length > 0,
  planned: (plan) => selectedOf(plan, [STORE_HEALTH_CASE]),
  skipReason: () => undefined,
  async run(context) {
    const created = context.provided.created ?? [];
    const spec = created.length === 0 ? undefined : storeHealthCase(created, context.plan.contract);
    if (spec !== undefined) return { results: await runCases([spec], sending(context)) };
    const why = context.plan.settings.readOnly ? 'read-only' : 'precondition';
    const result = await reportCase(context.emit, STORE_HEALTH_CASE, () => notJudgedCase(STORE_HEALTH_CASE, why, 'the run wrote nothing'));
    return { results: [result] };
  },
};
