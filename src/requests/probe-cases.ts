/**
 * Requests the store invariants need, derived from the contract: status values near the enum, ids that are not decimal
 * int64 aimed at a pet that exists, unknown ids beyond what a double holds, two identical creates, and a bad credential
 * with a body that is not JSON. The cases declare little of their own: what a response must not do (answer a malformed
 * id with a pet, a near status with pets of another) is judged on every response by src/checks/invariants.ts.
 */
import { type Contract, listLimitOf, statusValues, ROLES } from '../model/contract.js';
import { SPARE_STATUS } from '../model/template.js';
import type { CaseSpec, StepSpec } from '../model/scenario.js';
import { contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';

/** Status values a lenient filter would take for `status`: each names no pet, so a 200 holds none. */
function nearStatusValues(status: string): Array<[string, string, string]> {
  const capitalised = `${status.charAt(0).toUpperCase()}${status.slice(1)}`;
  return [
    ['prefix', status.slice(0, Math.max(1, status.length - 4)), 'a prefix of'],
    ['suffix', `${status}x`, 'a character added to'],
    ['case', capitalised === status ? status.toLowerCase() : capitalised, 'another letter case of'],
    ['upper', status.toUpperCase(), 'the upper case of'],
    ['leading-space', ` ${status}`, 'a space before'],
    ['trailing-space', `${status} `, 'a space after'],
  ];
}

function filterProbes(contract: Contract): CaseSpec[] {
  const list = contract.operations.get(ROLES.list);
  const [status, other] = statusValues(contract);
  if (list === undefined || status === undefined || !list.queryParameters.has('status')) return [];
  const fallback = listLimitOf(contract).default;
  const { templates } = contractRequests(contract);
  const clause =
    'Endpoints › listPets rule 1 (reading: only pets of exactly the status asked; a value outside the enum matches no pet, so it is ' +
    'refused or answered with none)';
  const cases = nearStatusValues(status).map(([slug, value, words]) =>
    generated(list, {
      id: `listPets.filter.near.${slug}`,
      title: `status=${JSON.stringify(value)} (${words} ${status}) is refused with a 4xx Error, or answered 200 with no pet`,
      clause,
      suite: 'filters',
      steps: [
        {
          request: templates.listing({ status: value }),
          expect: { undocumented: { refusals: [400] }, when: { '200': { maxItems: fallback } } },
        },
      ],
    }),
  );
  // The reading: an empty query value may be read as the parameter's absence (many frameworks do), so a 200 is judged as
  // the listing without it, or as a value that matches no pet (store.listing-status and store.listing-complete say which).
  cases.push(
    generated(list, {
      id: 'listPets.filter.near.empty',
      title: 'an empty status= is refused with a 4xx Error, or answered 200 as the listing without it or with no pet, never a 5xx',
      clause: `${clause}; reading: an empty query value may be read as the parameter's absence`,
      suite: 'filters',
      steps: [
        {
          request: templates.listing({ status: '' }),
          expect: { undocumented: { refusals: [400] }, when: { '200': { maxItems: fallback } } },
        },
      ],
    }),
  );
  if (other !== undefined)
    cases.push(
      generated(list, {
        id: 'listPets.filter.near.repeated',
        title: `status given twice (${status}, ${other}) is refused with a 4xx Error or answered by a 200, never a 5xx`,
        clause: `${clause}; a repeated parameter is not described`,
        suite: 'filters',
        steps: [
          {
            request: templates.listing({ status: [status, other] }),
            expect: { undocumented: { refusals: [400] }, when: { '200': { maxItems: fallback } } },
          },
        ],
      }),
    );
  return cases;
}

/** Paths that name no pet, built on the id of one that exists (`{petId}`): a lenient parser reads them as that pet or another. */
const MALFORMED_IDS: ReadonlyArray<[string, string, string]> = [
  ['trailing-letters', '{petId}abc', 'an existing id followed by letters'],
  ['underscore', '{petId}_0', 'an existing id with an underscore and a digit'],
  ['hex', '0x{petId}', 'an existing id written as hexadecimal'],
  ['arabic-indic', '\u0661', 'the digit 1 in Arabic-Indic script'],
  ['full-width', '\uFF11', 'the digit 1 in full width'],
  ['wrapped', '18446744073709551617', '2^64 + 1 (pet 1 once wrapped to 64 bits)'],
];

/** Ids no pet is expected to have, beyond what a double holds exactly: an unknown id is a 404 however large. */
const BIG_UNKNOWN_IDS: ReadonlyArray<[string, string]> = [
  ['above-2-53', '9007199254740993'],
  ['int64-max', '9223372036854775807'],
  ['int64-min', '-9223372036854775808'],
];

function idProbes(contract: Contract): CaseSpec[] {
  const get = contract.operations.get(ROLES.get);
  const list = contract.operations.get(ROLES.list);
  if (get === undefined || list === undefined) return [];
  const { templates } = contractRequests(contract);
  // A pet that exists: the first of a listing (read-only, as every probe here); an empty store leaves the probe not judged.
  const existing: StepSpec = {
    request: templates.listing({ limit: 1 }),
    expect: { status: 200, minItems: 1 },
    capture: { petId: '/0/id' },
    precondition: true,
  };
  const cases = MALFORMED_IDS.map(([slug, id, words]) =>
    generated(get, {
      id: `getPet.malformed.${slug}`,
      title: `GET of ${words} names no pet: refused with a 4xx Error (400 or 404 pass), never answered with a pet`,
      clause:
        'Endpoints › getPet: petId is an int64 (reading: a malformed or out-of-range petId names no animal,' +
        ' so it is never answered 200 with a pet)',
      suite: 'errors',
      steps: [
        ...(id.includes('{petId}') ? [existing] : []),
        { request: templates.get(id), expect: { undocumented: { refusals: [400, 404] } } },
      ],
    }),
  );
  for (const [slug, id] of BIG_UNKNOWN_IDS)
    cases.push(
      generated(get, {
        id: `getPet.unknown-id.${slug}`,
        title: `GET /pets/${id} (a valid int64 no pet has) answers 404 with an Error`,
        clause:
          'Endpoints › getPet rule 3: when no animal has the given petId, the service answers 404 (any int64 is a valid id, above 2^53 ' +
          'and at its bounds included)',
        suite: 'errors',
        steps: [{ request: templates.get(id), expect: { status: 404, schema: 'Error' } }],
      }),
    );
  return cases;
}

function createProbes(contract: Contract): CaseSpec[] {
  const create = contract.operations.get(ROLES.create);
  if (create === undefined) return [];
  const { templates } = contractRequests(contract);
  const body = { name: '{runId} twin', categoryId: '{categoryId}', status: SPARE_STATUS };
  const clause =
    'Endpoints › createPet: creates a new animal' + ' (reading: each createPet adds an animal; two identical bodies make two pets)';
  const notJson: Array<[string, string | undefined, string]> = [
    ['malformed-json', '{"name": "{runId} cut', 'JSON cut short'],
    ['not-json', 'name={runId}', 'a body that is not JSON'],
    ['empty', undefined, 'no body'],
  ];
  return [
    generated(create, {
      id: 'createPet.identical-bodies',
      title: 'Two identical createPet bodies make two pets with two ids',
      clause,
      suite: 'lifecycle',
      steps: [
        { request: templates.create(body), expect: { status: 201 }, capture: { firstId: '/id' } },
        { request: templates.create(body), expect: { status: 201, differs: { id: '{firstId}' } } },
      ],
    }),
    ...notJson.map(([slug, text, words]) =>
      generated(create, {
        id: `auth.createPet.before-validation.${slug}`,
        title: `${create.method} ${create.path} without a key and with ${words} is refused with 401, not 400`,
        clause:
          'Authentication rule 1: a request with a missing or invalid API key is answered with 401 and an Error body, whatever else is ' +
          'wrong with the request',
        suite: 'auth',
        steps: [
          {
            request: templates.create(undefined, {
              auth: 'none',
              headers: { 'Content-Type': 'application/json' },
              ...(text === undefined ? {} : { body: text }),
            }),
            expect: { status: 401, schema: 'Error' },
          },
        ],
      }),
    ),
  ];
}

/** Every probe the invariants need, in a stable order. */
export function probeCases(contract: Contract): CaseSpec[] {
  return [...filterProbes(contract), ...idProbes(contract), ...createProbes(contract)];
}
