/**
 * The fuzzing phase: property-based generation (fast-check) of createPet bodies and listPets queries from the schemas,
 * valid and invalid, each judged by the same checks as a declared case. A seed replays the same requests; every failure
 * is shrunk to a minimal example, reported with its curl.
 */
import fc from 'fast-check';
import { breaksProperty, propertyOutcome, propertyThrew } from '../../checks/generated-outcomes.js';
import { type Contract, listLimitOf, statusValues, ROLES, plays } from '../../model/contract.js';
import type { JsonValue } from '../../model/json.js';
import type { CaseInfo, CaseResult } from '../../model/results.js';
import type { CaseSpec, Expectations, RequestSpec, StepSpec } from '../../model/scenario.js';
import type { Variables } from '../../model/template.js';
import { everyCaseDisabled, selectedOf, type Phase } from '../phase.js';
import { writtenStatus } from '../run-context.js';
import type { RunPlan } from '../plan.js';
import { runCase, sending, writeBudgetSpent, type CaseContext } from '../cases.js';
import { disabledCase, notJudgedCase, reportCase } from '../case-report.js';
import { type ExampleRunResult, runExamples } from '../property-examples.js';
import { type ContractTemplates, contractRequests } from '../../requests/contract-requests.js';

/** What the fuzzing phase reads of the run's settings: the seed it replays and how many examples each property draws. */
export interface FuzzOptions {
  seed: number;
  maxExamples: number;
}

/** The fuzzing phase's own settings, read from the run's. */
function fuzzOptions(plan: RunPlan): FuzzOptions {
  return { seed: plan.settings.seed, maxExamples: plan.settings.maxExamples };
}

/** The case each property reports as. */
const CREATE_INFO: CaseInfo = {
  id: 'fuzz.createPet.body',
  title: 'Generated createPet bodies: a valid NewPet is created and echoed exactly; an invalid one is refused with 400 and an Error',
  clause: 'Endpoints › createPet: 201 with the fields sent; rule 2: invalid values are 400',
  suite: 'fuzz',
  operation: ROLES.create,
  level: 'fail',
};
const LIST_INFO: CaseInfo = {
  id: 'fuzz.listPets.query',
  title:
    'Generated listPets queries: at most limit pets (20 without), only the status asked for; ' +
    'outside the bounds, the contract-silence policy',
  clause: 'Endpoints › listPets rules 1 and 2; reading-the-contract for values it gives no response for',
  suite: 'fuzz',
  operation: ROLES.list,
  level: 'fail',
};

/** A property of the contract: how examples are drawn, and the one-step case that judges each. */
interface Property<T> {
  info: CaseInfo;
  arbitrary: fc.Arbitrary<T>;
  step(example: T): StepSpec;
  /** What makes an example what it is, for the failure's reason (which field an invalid body got wrong, and how). */
  describe?(example: T): string | undefined;
}

/** A value of any JSON type but `type`, for the invalid bodies. */
function otherThan(type: string): fc.Arbitrary<JsonValue> {
  const all: Array<[string, fc.Arbitrary<JsonValue>]> = [
    ['string', fc.string({ maxLength: 8 })],
    ['integer', fc.integer()],
    ['number', fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.integer(), { maxLength: 2 })],
    ['object', fc.constant({})],
  ];
  return fc.oneof(...all.filter(([name]) => name !== type && !(type === 'integer' && name === 'number')).map(([, arbitrary]) => arbitrary));
}

/** How an invalid value reads in a reason: its JSON type, or a string outside the enum of `status`. */
function kindOf(value: JsonValue, field: string, statuses: readonly string[]): string {
  if (typeof value === 'string') return field === 'status' && !statuses.includes(value) ? 'a string outside the enum' : 'a string';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number with a fraction';
  return `a ${typeof value}`;
}

/**
 * createPet bodies drawn from NewPet: valid ones (a name in any Unicode, the spare status or none: the cases whose subject
 * a status is write each of them) and ones with one field made invalid.
 */
function createProperty(
  contract: Contract,
  templates: ContractTemplates,
  variables: Variables,
): Property<{ valid: boolean; body: Record<string, JsonValue>; invalid?: string }> {
  const statuses = statusValues(contract);
  const runId = String(variables.get('runId') ?? 'run');
  const categoryId = variables.get('categoryId') ?? 1;
  const properties = (contract.schemaOf('NewPet')['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = (contract.schemaOf('NewPet')['required'] ?? []) as string[];
  const valid = fc
    .record({
      name: fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => `${runId} ${s}`),
      status: fc.option(fc.constantFrom(...statuses), { nil: undefined }),
    })
    .map(
      ({ name, status }): Record<string, JsonValue> =>
        status === undefined ? { name, categoryId } : { name, categoryId, status: writtenStatus(status, variables) },
    );
  const fields = Object.keys(properties);
  const invalid = fc.tuple(valid, fc.constantFrom(...fields), fc.boolean()).chain(([body, field, drop]) => {
    // A required field dropped, or any field given a value of another type (or, for an enum, a string outside it).
    if (drop && required.includes(field)) {
      const { [field]: _gone, ...rest } = body;
      return fc.constant({ body: rest, invalid: `${field} (required) is missing` });
    }
    const schema = properties[field] ?? {};
    const wrong =
      field === 'status'
        ? fc.oneof(
            otherThan('string'),
            fc.string({ maxLength: 8 }).filter((s) => !statuses.includes(s)),
          )
        : otherThan(typeof schema['type'] === 'string' ? schema['type'] : 'string');
    return wrong.map((value) => ({ body: { ...body, [field]: value }, invalid: `${field} is ${kindOf(value, field, statuses)}` }));
  });
  return {
    info: CREATE_INFO,
    arbitrary: fc.oneof(
      valid.map((body) => ({ valid: true, body })),
      invalid.map(({ body, invalid: why }) => ({ valid: false, body, invalid: why })),
    ),
    describe: ({ invalid: why }) => (why === undefined ? undefined : `the body is invalid because ${why}`),
    step: ({ valid: ok, body }) => {
      const expect: Expectations = ok ? { status: 201, body } : { status: 400, schema: 'Error' };
      return { request: templates.create(body), expect };
    },
  };
}

/** listPets queries: limit inside and outside its bounds (and not a number), status of the enum or not, each present or not. */
function listProperty(contract: Contract, templates: ContractTemplates): Property<{ limit?: number | string; status?: string }> {
  const { min, max, default: fallback } = listLimitOf(contract);
  const statuses = statusValues(contract);
  const arbitrary = fc.record(
    {
      limit: fc.oneof(fc.integer({ min, max }), fc.integer({ min: -1000, max: 1000 }), fc.constantFrom('abc', '1.5', '')),
      status: fc.oneof(fc.constantFrom(...statuses), fc.string({ maxLength: 6 })),
    },
    { requiredKeys: [] },
  );
  return {
    info: LIST_INFO,
    arbitrary,
    step: ({ limit, status }) => {
      const query: NonNullable<RequestSpec['query']> = {};
      if (limit !== undefined) query['limit'] = limit;
      if (status !== undefined) query['status'] = status;
      const inBounds = limit === undefined || (typeof limit === 'number' && limit >= min && limit <= max);
      const known = status === undefined || statuses.includes(status);
      const request: RequestSpec = templates.listing(query);
      if (inBounds && known)
        return {
          request,
          expect: {
            status: 200,
            maxItems: typeof limit === 'number' ? limit : fallback,
            ...(status === undefined ? {} : { everyItem: { status } }),
          },
        };
      return {
        request,
        expect: {
          undocumented: { refusals: [400] },
          when: { '200': { maxItems: max, ...(known && status !== undefined ? { everyItem: { status } } : {}) } },
        },
      };
    },
  };
}

/** What one example came to: its result, or that it was not sent (--max-writes was reached). */
type ExampleOutcome = CaseResult | 'unsent';

/**
 * Runs one property: examples drawn by the seed, up to --concurrency of them at once, each sent and judged; the first
 * failure (in the order drawn) shrunk to a minimal example. The judge decides the property from them (propertyOutcome).
 */
async function runProperty<T>(property: Property<T>, fuzz: FuzzOptions, context: CaseContext): Promise<CaseResult> {
  const started = performance.now();
  const spec = (example: T): CaseSpec => ({
    ...property.info,
    writes: plays(property.info.operation, 'create'),
    steps: [property.step(example)],
  });
  const writes = plays(property.info.operation, 'create');
  let run: ExampleRunResult<T, ExampleOutcome>;
  try {
    run = await runExamples<T, ExampleOutcome>({
      arbitrary: property.arbitrary,
      seed: fuzz.seed,
      numRuns: fuzz.maxExamples,
      concurrency: context.plan.settings.concurrency,
      async run(example) {
        // Once the run created the pets --max-writes allows, a write is not sent (and not counted as judged).
        if (writes && writeBudgetSpent(context)) return 'unsent';
        const result = await runCase(spec(example), context);
        // Refused by the write gate: the budget was spent by writes under way when this one started.
        return result.skip === 'write-budget' ? 'unsent' : result;
      },
      fails: (result) => result !== 'unsent' && breaksProperty(result),
      reuseFailure: true,
    });
  } catch (error) {
    // runCase never throws: a property that threw is a bug of this phase.
    return propertyThrew(property.info, error, Math.round(performance.now() - started));
  }
  const durationMs = Math.round(performance.now() - started);
  const sent = run.results.filter((result): result is CaseResult => result !== 'unsent');
  const minimal = run.failure?.minimal;
  const failure =
    run.failure !== undefined && minimal !== undefined && minimal !== 'unsent'
      ? { minimal, shrinks: run.failure.shrinks, replays: run.failure.replays, why: property.describe?.(run.failure.minimalExample) }
      : undefined;
  const unsent = run.results.length - sent.length;
  return propertyOutcome({ info: property.info, seed: fuzz.seed, sent, unsent, durationMs, ...(failure === undefined ? {} : { failure }) });
}

/** The fuzzing phase: each property of the contract over generated requests; writes only when the run may write. */
async function runFuzzing(contract: Contract, fuzz: FuzzOptions, context: CaseContext): Promise<CaseResult[]> {
  const properties: Array<Property<never>> = [];
  const create = contract.operations.get(ROLES.create);
  const list = contract.operations.get(ROLES.list);
  const { templates } = contractRequests(contract);
  if (list !== undefined) properties.push(listProperty(contract, templates) as Property<never>);
  if (create !== undefined) properties.push(createProperty(contract, templates, context.variables) as Property<never>);
  const results: CaseResult[] = [];
  for (const property of properties)
    results.push(
      await reportCase(
        context.emit,
        property.info,
        () =>
          disabledCase(property.info, context.judge.disabled) ??
          (context.stop.aborted
            ? notJudgedCase(property.info, 'interrupted', 'interrupted before it ran')
            : context.plan.settings.readOnly && plays(property.info.operation, 'create')
              ? notJudgedCase(property.info, 'read-only', 'read-only: it writes')
              : runProperty(property, fuzz, context)),
      ),
    );
  return results;
}

/** The cases the fuzzing phase reports, for the start of a run. */
function fuzzCaseInfos(contract: Contract): CaseInfo[] {
  return [...(contract.operations.has(ROLES.list) ? [LIST_INFO] : []), ...(contract.operations.has(ROLES.create) ? [CREATE_INFO] : [])];
}

/** The fuzzing phase, whole when its suite is selected (and, under --check, a glob names one of its cases). */
export const FUZZ_PHASE: Phase = {
  id: 'fuzz',
  title: 'property-based generation of createPet bodies and listPets queries from the schemas, valid and invalid',
  countsRequests: true,
  // It needs no case's pets, but what the cases did to the store (a write that breaks later reads) must show the same to it
  // in every run: it runs after the cases, beside the created-pets and stateful phases.
  after: ['cases'],
  usesRunClient: true,
  reads: ['seed', 'maxExamples'],
  writes: (plan) => fuzzOptions(plan).maxExamples,
  sends: 'generated requests, --max-examples of them per property, drawn from --seed; a failure is shrunk to a minimal example',
  cases: (inputs) => fuzzCaseInfos(inputs.contract),
  enabled: (plan) => selectedOf(plan, fuzzCaseInfos(plan.contract)).length > 0,
  planned: (plan) => fuzzCaseInfos(plan.contract),
  skipReason: (plan) => everyCaseDisabled(plan, fuzzCaseInfos(plan.contract)),
  async run(context) {
    return { results: await runFuzzing(context.plan.contract, fuzzOptions(context.plan), sending(context)) };
  },
};
