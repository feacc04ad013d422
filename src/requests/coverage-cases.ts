/**
 * The coverage phase: deterministic inputs derived from the NewPet schema and the listPets parameters, so that a change of
 * the contract changes them. For each NewPet field, every JSON type swap; for integers, the int64 boundaries; for strings,
 * lengths and scripts that must round-trip exactly; for enums, near misses; duplicate keys; each status at the smallest page.
 */
import { malformedCases } from './malformed-cases.js';
import { type Contract, listLimitOf, type OperationInfo, statusValues, ROLES } from '../model/contract.js';
import { placedPet, placementOf } from '../model/template.js';
import type { JsonValue } from '../model/json.js';
import { stepsWrite, type CaseSpec, type Expectations, type StepSpec } from '../model/scenario.js';
import { type ContractTemplates, contractRequests } from './contract-requests.js';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
/** The length of `{runId} ` once filled (`pc-20261122T191118-8de6 `): long names are padded to their exact length after it. */
const RUN_ID_PREFIX_LENGTH = 24;

const INVALID_CLAUSE =
  'Endpoints › createPet rule 2 (reading-the-contract: a wrong JSON type, a number that is not an int64,' +
  ' a status outside the enum): 400 with an Error';
const ROUND_TRIP_CLAUSE =
  'reading-the-contract: created pets carry the fields sent; strings round-trip exactly in any Unicode; any valid int64 without a 5xx';

/** A value of every JSON type but the field's own, each named. */
function typeSwaps(type: string, valid: JsonValue): Array<[string, JsonValue]> {
  const swaps: Array<[string, JsonValue]> = [
    ['number', 7],
    ['numeric-string', '7'],
    ['boolean', true],
    ['array', [valid]],
    ['object', {}],
  ];
  // A number is an integer's own type (a fraction is tried elsewhere); a numeric string is a string's own type.
  return swaps.filter(([slug]) => !(type === 'string' && slug === 'numeric-string') && !(type === 'integer' && slug === 'number'));
}

/**
 * Names every store must take and give back exactly: lengths and scripts. `{runId}` leads each one a run can name.
 * `refusals`: the contract states no length, so a long name may be refused: with these statuses passing and any other
 * 4xx warning (none listed: every refusal warns); a script must always round-trip.
 */
function nameValues(): Array<{ slug: string; words: string; value: string; refusals?: number[] }> {
  const padded = (length: number): string => `{runId} ${'x'.repeat(length - RUN_ID_PREFIX_LENGTH)}`;
  return [
    { slug: 'empty', words: 'an empty name', value: '', refusals: [] },
    { slug: 'one-character', words: 'a one-character name', value: 'R', refusals: [] },
    { slug: 'length-255', words: 'a name of 255 characters', value: padded(255), refusals: [] },
    { slug: 'length-256', words: 'a name of 256 characters', value: padded(256), refusals: [] },
    { slug: 'length-10000', words: 'a name of 10,000 characters', value: padded(10_000), refusals: [] },
    // Far beyond any pet's: a server may bound its bodies, and refuse this one with 400 (a 413 warns, a 5xx fails).
    { slug: 'length-1mib', words: 'a name of 1 MiB', value: padded(1024 * 1024), refusals: [400] },
    { slug: 'latin-1', words: 'a Latin-1 name', value: '{runId} Renée Müller Ñandú' },
    { slug: 'cjk', words: 'a CJK name', value: '{runId} 小狗 ポチ 강아지' },
    { slug: 'combining', words: 'a name with combining marks', value: '{runId} Zoe\u0308 Ame\u0301lie' },
    { slug: 'right-to-left', words: 'a right-to-left name', value: '{runId} كلب שלום' },
    { slug: 'emoji', words: 'a name with emoji outside the BMP', value: '{runId} 🐶🦊 🐈‍⬛' },
    {
      slug: 'control-characters',
      words: 'a name with control characters (escaped in JSON)',
      value: '{runId} tab\there\u0001\u001f',
    },
  ];
}

/** Near misses of each enum value: another case, surrounding space, a prefix. */
function enumNearMisses(values: readonly string[]): Array<[string, string]> {
  const first = values[0] ?? 'available';
  const last = values.at(-1) ?? first;
  return [
    ['capitalised', `${last.charAt(0).toUpperCase()}${last.slice(1)}`],
    ['upper-case', first.toUpperCase()],
    ['leading-space', ` ${last}`],
    ['trailing-space', `${last} `],
    ['prefix', last.slice(0, -1)],
  ];
}

function coverage(op: OperationInfo, id: string, title: string, clause: string, steps: StepSpec[], clockOf?: OperationInfo): CaseSpec {
  const spec: CaseSpec = {
    id: `coverage.${op.name}.${id}`,
    title,
    clause,
    suite: 'coverage',
    level: 'fail',
    operation: op.name,
    source: op.source,
    writes: stepsWrite(steps),
    steps,
  };
  const sunset = clockOf?.sunset ?? op.sunset;
  if (sunset !== undefined) spec.clock = { before: sunset };
  return spec;
}

function create(templates: ContractTemplates, json: JsonValue, expect: Expectations, extra: Partial<StepSpec> = {}): StepSpec {
  return { request: templates.create(json), expect, ...extra };
}

/** Every field of NewPet swapped to every other JSON type: refused with 400 and an Error (a coercing server fails). */
function swapCases(
  op: OperationInfo,
  templates: ContractTemplates,
  properties: Record<string, Record<string, unknown>>,
  valid: Record<string, JsonValue>,
): CaseSpec[] {
  const cases: CaseSpec[] = [];
  for (const [field, schema] of Object.entries(properties)) {
    const type = typeof schema['type'] === 'string' ? schema['type'] : 'string';
    for (const [slug, value] of typeSwaps(type, valid[field] ?? null)) {
      cases.push(
        coverage(
          op,
          `${field}.${slug}`,
          `${field} as ${slug.replace('-', ' ')} (${JSON.stringify(value)}) is refused with 400 and an Error`,
          INVALID_CLAUSE,
          [create(templates, { ...valid, [field]: value }, { status: 400, schema: 'Error' })],
        ),
      );
    }
  }
  return cases;
}

/** Names of every length and script: taken with 201 and given back exactly by the create, a read-back and a listing. */
function nameCases(
  op: OperationInfo,
  templates: ContractTemplates,
  get: OperationInfo | undefined,
  list: OperationInfo | undefined,
  valid: Record<string, JsonValue>,
): CaseSpec[] {
  return nameValues().map(({ slug, words, value, refusals }) => {
    const lenient = refusals !== undefined;
    const body = placedPet(valid, value);
    // Length is a limit the contract does not state: a refusal warns, a 5xx fails; a script must always round-trip.
    const created: Expectations = lenient
      ? { undocumented: { refusals }, when: { '201': { body: { name: value } } } }
      : { status: 201, body: { name: value } };
    // A long name may be refused: only a name that must be taken is read back by its id.
    const steps: StepSpec[] = [create(templates, body, created, lenient ? {} : { capture: { petId: '/id' } })];
    if (!lenient && get !== undefined)
      steps.push({
        request: templates.get('{petId}'),
        expect: { status: 200, body: { name: value } },
        readAfterWrite: true,
      });
    if (!lenient && list !== undefined)
      steps.push({
        request: templates.listing({ ...placementOf(value), limit: 100 }),
        expect: { status: 200, holdsIfNotFull: { id: '{petId}', name: value } },
        readAfterWrite: true,
        ...(get === undefined ? {} : { fullPageJudgedBy: 'the create and the read-back by its id' }),
      });
    const refusal = refusals?.length === 0 ? 'a 4xx warns' : `a refusal with ${(refusals ?? []).join(' or ')} passes, another 4xx warns`;
    const title = lenient
      ? `${words} is taken with 201 and given back exactly (${refusal}: the contract states no length), never a 5xx`
      : `${words} is taken with 201 and given back exactly by the create, a read-back and a listing`;
    return coverage(op, `name.${slug}`, title, ROUND_TRIP_CLAUSE, steps, lenient ? undefined : get);
  });
}

/**
 * categoryId at the int64 boundaries: a valid int64 is taken (or refused with 400 as an unknown category) and echoed exactly; one beyond is
 * refused.
 */
function int64Cases(op: OperationInfo, templates: ContractTemplates, valid: Record<string, JsonValue>): CaseSpec[] {
  const inRange: Array<[string, bigint]> = [
    ['int64-max', INT64_MAX],
    ['int64-min', INT64_MIN],
    ['safe-max', 2n ** 53n - 1n],
    ['above-safe', 2n ** 53n + 1n],
    ['zero', 0n],
    ['negative', -1n],
  ];
  const cases = inRange.map(([slug, value]) => {
    const json = Number.isSafeInteger(Number(value)) ? Number(value) : value;
    return coverage(
      op,
      `categoryId.${slug}`,
      `categoryId ${value} (a valid int64) is taken and echoed exactly, or refused with 400 as an unknown category; never a 5xx`,
      ROUND_TRIP_CLAUSE,
      [
        create(
          templates,
          { ...valid, categoryId: json },
          { status: [201, 400], when: { '201': { body: { categoryId: json } }, '400': { schema: 'Error' } } },
        ),
      ],
    );
  });
  cases.push(
    coverage(op, 'categoryId.below-int64', `categoryId ${INT64_MIN - 1n} (below int64) is refused with 400 and an Error`, INVALID_CLAUSE, [
      create(templates, { ...valid, categoryId: INT64_MIN - 1n }, { status: 400, schema: 'Error' }),
    ]),
  );
  return cases;
}

/** Status values that are almost an enum value: refused with 400 (a server that folds case or trims is lenient with the enum). */
function enumCases(
  op: OperationInfo,
  templates: ContractTemplates,
  values: readonly string[],
  valid: Record<string, JsonValue>,
): CaseSpec[] {
  return enumNearMisses(values).map(([slug, value]) =>
    coverage(
      op,
      `status.${slug}`,
      `status ${JSON.stringify(value)} (not a PetStatus value) is refused with 400 and an Error`,
      INVALID_CLAUSE,
      [create(templates, { ...valid, status: value }, { status: 400, schema: 'Error' })],
    ),
  );
}

/** Each status at the smallest page: one pet of that status, no other. */
function listingCases(list: OperationInfo, templates: ContractTemplates, values: readonly string[], min: number): CaseSpec[] {
  return values.map((status) =>
    coverage(
      list,
      `status-limit.${status}-min`,
      `status=${status}&limit=${min} returns at most ${min} pet, of status ${status}`,
      'Endpoints › listPets rules 1 and 2: only that status, at most limit',
      [
        {
          request: templates.listing({ status, limit: min }),
          expect: { status: 200, maxItems: min, everyItem: { status } },
        },
      ],
    ),
  );
}

/** The coverage phase, in a stable order; nothing when the contract lacks createPet or NewPet. */
export function coverageCases(contract: Contract): CaseSpec[] {
  const create = contract.operations.get(ROLES.create);
  const list = contract.operations.get(ROLES.list);
  if (create === undefined) return [];
  const properties = (contract.schemaOf('NewPet')['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const values = statusValues(contract);
  const valid: Record<string, JsonValue> = { name: '{runId} coverage', categoryId: '{categoryId}', status: values[0] ?? 'available' };
  const { templates } = contractRequests(contract);
  const duplicate: StepSpec = {
    request: templates.create(undefined, {
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"{runId} first","name":"{runId} second","categoryId":{categoryId}}',
    }),
    expect: { undocumented: { refusals: [400] } },
  };
  return [
    ...swapCases(create, templates, properties, valid),
    ...nameCases(create, templates, contract.operations.get(ROLES.get), list, valid),
    ...int64Cases(create, templates, valid),
    ...enumCases(create, templates, values, valid),
    coverage(
      create,
      'duplicate-keys',
      'a body with a duplicate key is refused with 400 or taken with 201, never a 5xx',
      'reading-the-contract: requests the contract gives no response for (RFC 8259: names should be unique)',
      [duplicate],
    ),
    ...(list === undefined ? [] : listingCases(list, templates, values, listLimitOf(contract).min)),
    ...malformedCases(contract),
  ];
}
