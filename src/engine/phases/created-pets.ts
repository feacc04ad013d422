/**
 * The pets a run creates, and a sample of every pet it saw: judged once more, by cases built from them, after every other
 * case (a created pet reads back and is listed; a pet seen once, the store's own included, reads back the same).
 */
import { type Contract, listLimitOf, ROLES } from '../../model/contract.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import { petFields, type StoreView } from '../../model/store-model.js';
import type { CaseInfo } from '../../model/results.js';
import type { CaseSpec, StepSpec } from '../../model/scenario.js';
import { runCases, sending } from '../cases.js';
import { notJudgedCase, reportCase } from '../case-report.js';
import { selectedOf, type Phase } from '../phase.js';
import { contractRequests } from '../../requests/contract-requests.js';

/** At most this many created pets are read back, so a large run stays polite to the server. */
const MAX_READ_BACK = 50;
/** At most this many of the other pets the run saw are read back at the end, spread over all it saw. */
const MAX_SWEEP = 30;

/** The cases built from what the run created, as the catalogue lists them; no file declares them, so they have no source. */
const CREATED_PET_CASES: readonly CaseInfo[] = [
  {
    id: 'lifecycle.created.read-back',
    title: 'Every pet the run created reads back equal, field by field, by its id',
    clause: 'Endpoints › createPet and getPet: the created Pet carries the assigned id and can be fetched by it',
    suite: 'lifecycle',
    operation: ROLES.get,
    level: 'fail',
  },
  {
    id: 'lifecycle.created.listed',
    title: 'Every pet the run created is in each listing of its status that is not full',
    clause: 'Endpoints › listPets rule 1 and the meaning of a listing: a page that is not full holds every matching animal',
    suite: 'lifecycle',
    operation: ROLES.list,
    level: 'fail',
  },
  {
    id: 'lifecycle.seen.read-back',
    title: "A sample of the pets the run saw (the store's own included) reads back the same at the end, by its id",
    clause:
      "reading-the-contract: no operation changes or removes a pet, so a pet seen once reads back the same (until getPet's removal date)",
    suite: 'lifecycle',
    operation: ROLES.get,
    level: 'fail',
  },
];

/** At most `max` of `items`, spread evenly over them (the first included). */
export function spread<T>(items: readonly T[], max: number): T[] {
  const step = Math.max(1, Math.ceil(items.length / max));
  return items.filter((_, i) => i % step === 0).slice(0, max);
}

/** The final cases over the created pets, and over a sample of the others the run saw; none of them without such pets. */
export function createdPetCases(
  pets: readonly JsonObject[],
  contract: Contract,
  model?: StoreView,
  store?: { byStatus: ReadonlyMap<string, number>; now?: Date },
): CaseSpec[] {
  const getPet = contract.operations.get(ROLES.get);
  const listPets = contract.operations.get(ROLES.list);
  const { templates } = contractRequests(contract);
  const [readBack, listed, sweep] = CREATED_PET_CASES as [CaseInfo, CaseInfo, CaseInfo];
  const cases: CaseSpec[] = [];
  const seen = model === undefined ? [] : [...model.pets()].filter((pet) => !pet.created);
  if (getPet !== undefined && seen.length > 0) {
    // The body is judged by the store invariants (store.reads-back-same), against the response that first showed the pet.
    const steps = spread(seen, MAX_SWEEP).map((pet): StepSpec => ({ request: templates.get(pet.id), expect: { status: 200 } }));
    const spec: CaseSpec = { ...sweep, steps, writes: false, independentSteps: true };
    if (getPet.sunset !== undefined) spec.clock = { before: getPet.sunset };
    cases.push(spec);
  }
  if (pets.length === 0) return cases;
  if (getPet) {
    const steps = pets.slice(0, MAX_READ_BACK).map(
      (pet): StepSpec => ({
        request: templates.get(String(pet['id'])),
        expect: { status: 200, body: petFields(pet) },
        readAfterWrite: true,
      }),
    );
    const spec: CaseSpec = { ...readBack, steps, writes: false, independentSteps: true };
    if (getPet.sunset !== undefined) spec.clock = { before: getPet.sunset };
    cases.push(spec);
  }
  if (listPets) {
    const limit = listLimitOf(contract).max;
    const byStatus = new Map<string, JsonObject[]>();
    for (const pet of pets) {
      if (typeof pet['status'] === 'string') byStatus.set(pet['status'], [...(byStatus.get(pet['status']) ?? []), pet]);
    }
    const today = store?.now?.toISOString().slice(0, 10);
    const readable = getPet !== undefined && (getPet.sunset === undefined || (today !== undefined && today < getPet.sunset));
    const steps = [...byStatus].flatMap(([status, members]): StepSpec[] => {
      // A listing the store fill counted full (a long-lived store) may keep the run's pets beyond its first page: each is
      // then found by getPet (before its removal date), its status read back, and the listing judged where it can be.
      const counted = store?.byStatus.get(status);
      const mayBeFull = readable && (counted === undefined || counted + members.length >= limit);
      const byId = mayBeFull
        ? members.slice(0, MAX_READ_BACK).map(
            (pet): StepSpec => ({
              request: templates.get(String(pet['id'])),
              expect: { status: 200, body: { id: pet['id'] as JsonValue, status } },
              readAfterWrite: true,
            }),
          )
        : [];
      return [
        {
          request: templates.listing({ status, limit }),
          expect: { status: 200, holdsIfNotFull: members.map((p) => ({ id: p['id'] as JsonValue })) },
          readAfterWrite: true,
          ...(byId.length === 0 ? {} : { fullPageJudgedBy: `getPet of each, its status ${status} read back` }),
        },
        ...byId,
      ];
    });
    if (steps.length > 0) cases.push({ ...listed, steps, writes: false, independentSteps: true });
  }
  return cases;
}

/** The cases over what every other case wrote: they run after the declared cases; without pets they have nothing to judge. */
export const CREATED_PETS_PHASE: Phase = {
  id: 'created-pets',
  title:
    'every pet the run created, read back by its id and looked for in the listings of its status; a sample of the others it saw, read back',
  sends: 'GET of each created pet or of each listing by status',
  // What the cases created is what it reads back; the fuzzing and stateful phases may still be writing meanwhile.
  after: ['cases'],
  cases: () => CREATED_PET_CASES,
  usesRunClient: true,
  enabled: (plan) => selectedOf(plan, CREATED_PET_CASES).length > 0,
  planned: (plan) => selectedOf(plan, CREATED_PET_CASES),
  skipReason: () => undefined,
  async run(context) {
    // The pets of the phases it depends on (the store fill, the cases): the generated phases may still be writing meanwhile.
    const store = { byStatus: context.provided.store?.byStatus ?? new Map<string, number>(), now: context.plan.settings.now };
    const specs = createdPetCases(context.provided.created ?? [], context.plan.contract, context.observer.model, store);
    const wanted = selectedOf(context.plan, CREATED_PET_CASES).map((info) => specs.find((s) => s.id === info.id) ?? info);
    const results = await runCases(
      wanted.filter((s): s is CaseSpec => 'steps' in s),
      sending(context),
    );
    const readOnly = context.plan.settings.readOnly;
    for (const info of wanted.filter((s) => !('steps' in s)))
      results.push(
        await reportCase(context.emit, info, () =>
          info.id === 'lifecycle.seen.read-back'
            ? notJudgedCase(info, 'precondition', 'the run saw no pet to read back')
            : notJudgedCase(info, readOnly ? 'read-only' : 'precondition', 'the run created no pet to judge'),
        ),
      );
    return { results };
  },
};
