/**
 * The pets a run creates, and a sample of every pet it saw: judged once more, by cases built from them, after every other
 * case (a created pet reads back and is listed; a pet seen once, the store's own included, reads back the same).
 */
import { type Contract, listLimitOf, ROLES, plays } from '../../model/contract.js';
import type { Exchange } from '../../model/exchange.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import { petFields, type StoreView } from '../../model/store-model.js';
import type { CaseInfo } from '../../model/results.js';
import type { CaseSpec, StepSpec } from '../../model/scenario.js';
import { reportCase, runCases, notJudgedCase } from '../cases.js';
import { caseOptions, type Phase } from '../phase.js';
import type { RunPlan } from '../plan.js';

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

/** Records every pet a run creates (a 201 to POST /pets with a Pet body), and the phase that created it. */
export class CreatedPets {
  constructor(
    private readonly pets: Array<{ pet: JsonObject; phase: string | undefined }> = [],
    private readonly phase?: string,
  ) {}

  /** The same record, as phase `id` adds to it. */
  of(phase: string): CreatedPets {
    return new CreatedPets(this.pets, phase);
  }

  /** Records the pet of an exchange, when it created one. */
  observe(exchange: Exchange): void {
    const body = exchange.response.json;
    if (plays(exchange.request.operation, 'create') && exchange.response.status === 201 && isJsonObject(body) && body['id'] !== undefined) {
      this.pets.push({ pet: body, phase: this.phase });
    }
  }

  /** How many pets the run created. */
  get count(): number {
    return this.pets.length;
  }

  /** The created pets, in creation order; only those these phases created when `phases` is given. */
  all(phases?: readonly string[]): JsonObject[] {
    return this.pets.filter((p) => phases === undefined || (p.phase !== undefined && phases.includes(p.phase))).map((p) => p.pet);
  }
}

/** At most `max` of `items`, spread evenly over them (the first included). */
export function spread<T>(items: readonly T[], max: number): T[] {
  const step = Math.max(1, Math.ceil(items.length / max));
  return items.filter((_, i) => i % step === 0).slice(0, max);
}

/**
 * The final cases over the created pets, and over a sample of the others the run saw; none of them without such pets.
 * `phases`: only the pets these phases created (what the cases wrote, while the generated phases may still be writing).
 */
export function createdPetCases(created: CreatedPets, contract: Contract, model?: StoreView, phases?: readonly string[]): CaseSpec[] {
  const pets = created.all(phases);
  const getPet = contract.operations.get(ROLES.get);
  const listPets = contract.operations.get(ROLES.list);
  const [readBack, listed, sweep] = CREATED_PET_CASES as [CaseInfo, CaseInfo, CaseInfo];
  const cases: CaseSpec[] = [];
  const seen = model === undefined ? [] : [...model.pets()].filter((pet) => !pet.created);
  if (getPet !== undefined && seen.length > 0) {
    // The body is judged by the store invariants (store.reads-back-same), against the response that first showed the pet.
    const steps = spread(seen, MAX_SWEEP).map(
      (pet): StepSpec => ({ request: { method: 'GET', path: getPet.path.replace(/\{[^}]+\}/, pet.id) }, expect: { status: 200 } }),
    );
    const spec: CaseSpec = { ...sweep, steps, writes: false, independentSteps: true };
    if (getPet.sunset !== undefined) spec.clock = { before: getPet.sunset };
    cases.push(spec);
  }
  if (pets.length === 0) return cases;
  if (getPet) {
    const steps = pets.slice(0, MAX_READ_BACK).map(
      (pet): StepSpec => ({
        request: { method: 'GET', path: getPet.path.replace(/\{[^}]+\}/, String(pet['id'])) },
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
    const steps = [...byStatus].map(
      ([status, members]): StepSpec => ({
        request: { method: 'GET', path: listPets.path, query: { status, limit } },
        expect: { status: 200, holdsIfNotFull: members.map((p) => ({ id: p['id'] as JsonValue })) },
        readAfterWrite: true,
      }),
    );
    if (steps.length > 0) cases.push({ ...listed, steps, writes: false, independentSteps: true });
  }
  return cases;
}

/** The phases whose pets are read back: those before the created-pets phase in PHASES (the fuzzing and stateful ones come after). */
const WRITTEN_BEFORE = ['store-fill', 'cases'];

/** The created-pet cases a plan runs: those of the selected suites that --check names. */
function plannedCreatedPetCases(plan: RunPlan): CaseInfo[] {
  return CREATED_PET_CASES.filter((c) => plan.conformance?.writtenCases.includes(c.id) === true);
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
  enabled: (plan) => plannedCreatedPetCases(plan).length > 0,
  planned: plannedCreatedPetCases,
  skipReason: () => undefined,
  async run(context) {
    const options = caseOptions(context);
    const specs = createdPetCases(context.created, context.plan.contract, context.model, WRITTEN_BEFORE);
    const wanted = plannedCreatedPetCases(context.plan).map((info) => specs.find((s) => s.id === info.id) ?? info);
    const results = await runCases(
      wanted.filter((s): s is CaseSpec => 'steps' in s),
      options,
    );
    for (const info of wanted.filter((s) => !('steps' in s)))
      results.push(
        await reportCase(context.listener, info, () =>
          info.id === 'lifecycle.seen.read-back'
            ? notJudgedCase(info, 'precondition', 'the run saw no pet to read back')
            : notJudgedCase(info, options.readOnly ? 'read-only' : 'precondition', 'the run created no pet to judge'),
        ),
      );
    return results;
  },
};
