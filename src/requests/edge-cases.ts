/**
 * The edge-value dimension: the values at the edges of each type the contract names, for every field, parameter and path
 * segment: int64 (0, ±1, 2^31±1, 2^32, 2^53±1, its bounds and beyond) in the path's petId, categoryId and limit; strings
 * (NUL and every C0 control, HTML and SQL specials, lengths around 32, 1,024 and 65,535, every Unicode plane, normalisation
 * forms) in name and the status filter; the enum (empty, a NUL after a value). Each is one request,
 * judged by its expectation and by the invariants on every exchange. The values the coverage phase already sends
 * (coverage.createPet.*: type swaps, int64 bounds, lengths 255/256, scripts, enum near misses) and the declared ones
 * (getPet.unknown-id.negative, getPet.malformed.beyond-int64, createPet.invalid.*-null, category-beyond-int64) are not sent again.
 */
import { type Contract, listLimitOf, type OperationInfo, statusValues, ROLES } from '../model/contract.js';
import { placedPet, SPARE_STATUS } from '../model/template.js';
import type { JsonValue } from '../model/json.js';
import type { CaseSpec, Expectations, StepSpec } from '../model/scenario.js';
import { type ContractTemplates, contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';

/** The length of `{runId} ` once filled: long names are padded to their exact length after it. */
const RUN_ID_PREFIX_LENGTH = 24;

const ROUND_TRIP =
  'reading-the-contract: created pets carry the fields sent; strings round-trip exactly in any Unicode; any valid int64 without a 5xx';
const INVALID = 'Endpoints › createPet rule 2 (reading-the-contract: a status outside the enum): 400 with an Error';

/** Ids of the path at the int64 edges: a valid int64 names a pet (200 with it) or none (404); never a 400. */
const PATH_IDS: ReadonlyArray<[string, string]> = [
  ['zero', '0'],
  ['one', '1'],
  ['int32-max', '2147483647'],
  ['int32-max-plus-one', '2147483648'],
  ['int32-min-minus-one', '-2147483649'],
  ['uint32-max-plus-one', '4294967296'],
  ['safe-max', '9007199254740991'],
  ['2-53', '9007199254740992'],
];

/** Ids beyond int64: they name no animal, so they are refused (400 or 404 pass), never answered with a pet. */
const PATH_BEYOND: ReadonlyArray<[string, string]> = [['int64-min-minus-one', '-9223372036854775809']];

/** categoryId at the edges the coverage phase leaves: taken and echoed exactly, or refused as an unknown category. */
const CATEGORY_IDS: ReadonlyArray<[string, bigint]> = [
  ['one', 1n],
  ['int32-max-plus-one', 2n ** 31n],
  ['int32-min-minus-one', -(2n ** 31n) - 1n],
  ['uint32-max-plus-one', 2n ** 32n],
  ['2-53', 2n ** 53n],
];

/** A value of one code point from each of the 17 planes (the unassigned ones too: each is a Unicode scalar value). */
const EVERY_PLANE = Array.from({ length: 17 }, (_, plane) => String.fromCodePoint(plane === 0 ? 0x0100 : plane * 0x10000 + 0x41)).join('');

/** Every C0 control, NUL first. */
const C0 = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('');

/** A name, its slug and words; `refusals` when the contract states no bound it keeps (a length): a 4xx warns, these pass. */
interface NameValue {
  slug: string;
  words: string;
  value: string;
  refusals?: number[];
}

function nameValues(): NameValue[] {
  const padded = (length: number): string => `{runId} ${'x'.repeat(length - RUN_ID_PREFIX_LENGTH)}`;
  const lengths: NameValue[] = [31, 32, 33, 1023, 1024, 1025, 65_535, 65_536].map((length) => ({
    slug: `length-${length}`,
    words: `a name of ${length.toLocaleString('en')} characters`,
    value: padded(length),
    // Past 64 KiB of body a server may bound what it reads: 400 passes there, as for the coverage phase's 1 MiB.
    refusals: length >= 65_535 ? [400] : [],
  }));
  return [
    { slug: 'nul', words: 'a name holding NUL', value: '{runId} nul\u0000inside' },
    { slug: 'c0-controls', words: 'a name holding every C0 control (U+0000 to U+001F)', value: `{runId} ${C0}` },
    { slug: 'del-c1', words: 'a name holding DEL and C1 controls', value: '{runId} \u007f\u0080\u0085\u009f' },
    { slug: 'html', words: 'a name with HTML specials', value: '{runId} <script>alert("x")</script> &amp; <b>&lt;</b> \'"' },
    { slug: 'sql', words: 'a name with SQL specials', value: `{runId} '; DROP TABLE pets; -- " OR "1"="1 \\ %_` },
    { slug: 'padded', words: 'a name with runs of spaces and trailing ones', value: '{runId}   padded   ' },
    { slug: 'every-plane', words: 'a name with a code point of every Unicode plane', value: `{runId} ${EVERY_PLANE}` },
    {
      slug: 'bmp-specials',
      words: 'a name with private use, U+FEFF, U+FFFD and the line separators',
      value: '{runId} \ue000\ufeff\ufffd\u2028\u2029',
    },
    {
      slug: 'normalisation',
      words: 'a name in mixed normalisation forms (NFC, NFD, compatibility)',
      value: '{runId} Caf\u00e9 Cafe\u0301 \u212b \u00c5 \ufb01 \u2460 \uff26',
    },
    { slug: 'combining-stack', words: 'a letter under twenty combining marks', value: `{runId} Z${'\u0301\u0316\u0351\u035c'.repeat(5)}` },
    ...lengths,
  ];
}

function getEdges(get: OperationInfo, templates: ContractTemplates): CaseSpec[] {
  const clause =
    'Endpoints › getPet: petId is an int64 (reading-the-contract: a negative or zero id is a valid int64; an unknown one is a 404, ' +
    'never a 400)';
  const cases = PATH_IDS.map(([slug, id]) =>
    generated(get, {
      id: `edge.getPet.id.${slug}`,
      title: `GET of id ${id} (a valid int64) is answered 200 with that pet, or 404 with an Error; never a 400`,
      clause,
      suite: 'errors',
      steps: [{ request: templates.get(id), expect: { status: [200, 404], when: { '404': { schema: 'Error' } } } }],
    }),
  );
  for (const [slug, id] of PATH_BEYOND)
    cases.push(
      generated(get, {
        id: `edge.getPet.id.${slug}`,
        title: `GET of id ${id} (beyond int64) names no pet: refused with a 4xx Error (400 or 404 pass), never answered with a pet`,
        clause: 'Endpoints › getPet: petId is an int64 (reading: an out-of-range petId names no animal)',
        suite: 'errors',
        steps: [{ request: templates.get(id), expect: { undocumented: { refusals: [400, 404] } } }],
      }),
    );
  return cases;
}

function createEdges(create: OperationInfo, templates: ContractTemplates, valid: Record<string, JsonValue>, status: string): CaseSpec[] {
  const post = (id: string, title: string, clause: string, json: JsonValue, expect: Expectations): CaseSpec => {
    const step: StepSpec = { request: templates.create(json), expect };
    return generated(create, { id: `edge.createPet.${id}`, title, clause, suite: 'coverage', steps: [step] });
  };
  const cases = nameValues().map(({ slug, words, value, refusals }) =>
    refusals === undefined
      ? post(`name.${slug}`, `${words} is taken with 201 and given back exactly`, ROUND_TRIP, placedPet(valid, value), {
          status: 201,
          body: { name: value },
        })
      : post(
          `name.${slug}`,
          `${words} is taken with 201 and given back exactly (the contract states no length: ${
            refusals.length === 0 ? 'a 4xx warns' : `${refusals.join(' or ')} passes, another 4xx warns`
          }), never a 5xx`,
          ROUND_TRIP,
          placedPet(valid, value),
          { undocumented: { refusals }, when: { '201': { body: { name: value } } } },
        ),
  );
  for (const [slug, value] of CATEGORY_IDS) {
    const json = Number.isSafeInteger(Number(value)) ? Number(value) : value;
    cases.push(
      post(
        `categoryId.${slug}`,
        `categoryId ${value} (a valid int64) is taken and echoed exactly, or refused with 400 as an unknown category; never a 5xx`,
        ROUND_TRIP,
        { ...valid, categoryId: json },
        { status: [201, 400], when: { '201': { body: { categoryId: json } }, '400': { schema: 'Error' } } },
      ),
    );
  }
  cases.push(
    post(
      'status.empty',
      'status "" (not a PetStatus value) is refused with 400 and an Error',
      INVALID,
      { ...valid, status: '' },
      {
        status: 400,
        schema: 'Error',
      },
    ),
    post(
      'status.nul-suffix',
      `status ${JSON.stringify(`${status}\u0000`)} (a PetStatus value and NUL) is refused with 400 and an Error`,
      INVALID,
      { ...valid, status: `${status}\u0000` },
      { status: 400, schema: 'Error' },
    ),
  );
  return cases;
}

function listEdges(list: OperationInfo, templates: ContractTemplates, contract: Contract): CaseSpec[] {
  const { max, default: fallback } = listLimitOf(contract);
  const status = statusValues(contract)[0] ?? 'available';
  const cases: CaseSpec[] = [];
  const limits: ReadonlyArray<[string, string]> = [
    ['int32-max-plus-one', '2147483648'],
    ['int64-max', '9223372036854775807'],
    ['int64-max-plus-one', '9223372036854775808'],
  ];
  for (const [slug, value] of limits)
    cases.push(
      generated(list, {
        id: `edge.listPets.limit.${slug}`,
        title: `limit=${value} is refused with a 4xx Error or answered by a 200 within bounds (at most ${max}), never a 5xx`,
        clause: 'Endpoints › listPets: limit 1..100 (outside them the contract is silent: a 400 Error or a bounded 200 pass)',
        suite: 'limits',
        steps: [
          {
            request: templates.listing({ limit: value }),
            expect: { undocumented: { refusals: [400] }, when: { '200': { maxItems: max } } },
          },
        ],
      }),
    );
  if (!list.queryParameters.has('status')) return cases;
  const filters: ReadonlyArray<[string, string, string]> = [
    ['nul', `${status}\u0000`, 'a status and NUL'],
    ['html', '<script>alert(1)</script>', 'HTML'],
    ['sql', `${status}' OR '1'='1`, 'a status and SQL'],
  ];
  for (const [slug, value, words] of filters)
    cases.push(
      generated(list, {
        id: `edge.listPets.status.${slug}`,
        title: `status=${JSON.stringify(value)} (${words}) is refused with a 4xx Error, or answered 200 with no pet`,
        clause: 'Endpoints › listPets rule 1 (reading: a value outside the enum matches no pet, so it is refused or answered with none)',
        suite: 'filters',
        steps: [
          {
            request: templates.listing({ status: value }),
            expect: { undocumented: { refusals: [400] }, when: { '200': { maxItems: fallback } } },
          },
        ],
      }),
    );
  return cases;
}

/** The edge-value dimension, in a stable order: the path's ids, the create's fields, the listing's parameters. */
export function edgeCases(contract: Contract): CaseSpec[] {
  const get = contract.operations.get(ROLES.get);
  const create = contract.operations.get(ROLES.create);
  const list = contract.operations.get(ROLES.list);
  const status = statusValues(contract)[0] ?? 'available';
  const valid: Record<string, JsonValue> = { name: '{runId} edge', categoryId: '{categoryId}', status: SPARE_STATUS };
  const { templates } = contractRequests(contract);
  return [
    ...(get === undefined ? [] : getEdges(get, templates)),
    ...(create === undefined ? [] : createEdges(create, templates, valid, status)),
    ...(list === undefined ? [] : listEdges(list, templates, contract)),
  ];
}
