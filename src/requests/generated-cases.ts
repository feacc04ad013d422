/**
 * Cases that are a table over the contract, generated from schemas/ and openapi.yaml so that a change
 * of the contract changes them: the auth matrix over every secured operation, limit boundaries from the
 * parameter's minimum/maximum/default, and the PetStatus enum for filters and creation.
 */
import type { JsonValue } from '../model/json.js';
import { coverageCases } from './coverage-cases.js';
import { dimensionCases } from './dimensions.js';
import { contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';
import { probeCases } from './probe-cases.js';
import { type Contract, listLimitOf, type OperationInfo, statusValues, ROLES } from '../model/contract.js';
import type { CaseSpec, Expectations, RequestSpec, StepSpec } from '../model/scenario.js';
import type { AuthVariant } from '../model/contract-names.js';

/** Credentials that must be refused, with the words the check titles use. */
const REFUSED: ReadonlyArray<[AuthVariant, string, string]> = [
  ['none', 'missing', 'without Authorization'],
  ['basic-scheme', 'basic-scheme', 'with the key under the Basic scheme'],
  ['empty-bearer', 'empty-bearer', 'with "Bearer" and an empty token'],
  ['wrong-token', 'wrong-token', 'with a wrong token'],
  ['appended-char', 'appended-char', 'with the key plus one character'],
  ['removed-char', 'removed-char', 'with the key less its last character'],
  ['swapped-case', 'swapped-case', 'with the key in flipped letter case (the key is compared exactly)'],
  ['basic-raw', 'basic-raw', 'with the key itself under the Basic scheme'],
  ['token-scheme', 'token-scheme', 'with the key under the Token scheme'],
  ['no-scheme', 'no-scheme', 'with the key and no scheme'],
  ['prefixed-char', 'prefixed-char', 'with one character before the key'],
  ['space-inside', 'space-inside', 'with a space inside the key'],
  ['scheme-suffix', 'scheme-suffix', 'with the key under a scheme that ends in Bearer (XBearer)'],
  ['trailing-token', 'trailing-token', 'with the key followed by a space and another token'],
];

const AUTH_CLAUSE = 'Authentication rule 1: a request with a missing or invalid API key is answered with 401 and an Error body';

/** Whether a request built by the templates' ofOperation names the unknown pet, where the operation documents 404 for an unknown id. */
function namesUnknownPet(request: RequestSpec, op: OperationInfo): boolean {
  return request.path.includes('{unknownPetId}') && op.responses.has(404);
}

function single(request: RequestSpec, expect: Expectations, extra: Partial<StepSpec> = {}): StepSpec[] {
  return [{ request, expect, ...extra }];
}

function authCases(contract: Contract): CaseSpec[] {
  const cases: CaseSpec[] = [];
  const { templates } = contractRequests(contract);
  const validRequest = (op: OperationInfo, auth: AuthVariant, label: string): RequestSpec => templates.ofOperation(op, label, { auth });
  for (const op of contract.operations.values()) {
    if (!op.secured) continue;
    const verb = `${op.method} ${op.path}`;
    for (const [variant, slug, words] of REFUSED) {
      cases.push(
        generated(op, {
          id: `auth.${op.name}.${slug}`,
          title: `${verb} ${words} is refused with 401 and an Error`,
          clause: AUTH_CLAUSE,
          suite: 'auth',
          steps: single(validRequest(op, variant, 'auth probe'), { status: 401, schema: 'Error' }),
        }),
      );
    }
    const twoHeaders = validRequest(op, 'two-headers', 'two headers');
    cases.push(
      generated(op, {
        id: `auth.${op.name}.two-headers`,
        title: `${verb} with two Authorization headers (the key and a wrong token) is refused, or warned when accepted`,
        clause: `${AUTH_CLAUSE} (two credentials are not one valid credential; the contract does not say which a server reads)`,
        suite: 'auth',
        steps: single(twoHeaders, {
          undocumented: {
            refusals: [401, 400],
            acceptanceRisk: 'two Authorization headers were accepted: which one the server read is unknown (a proxy may read the other)',
            // A 404 for the unknown pet the request names means the server took a key and looked for the pet.
            ...(namesUnknownPet(twoHeaders, op) ? { acceptedWith: [404] } : {}),
          },
        }),
      }),
    );
    const accepted = [...op.responses.keys()].filter((s) => s !== 401);
    cases.push(
      generated(op, {
        id: `auth.${op.name}.lowercase-scheme`,
        title: `${verb} with "bearer" in lower case is accepted (auth schemes are case-insensitive)`,
        clause: 'Authentication: HTTP bearer (RFC 9110 §11.1: the scheme name is case-insensitive)',
        suite: 'auth',
        level: 'warn',
        steps: single(validRequest(op, 'lowercase-scheme', 'lower-case scheme'), { status: accepted }),
      }),
    );
    if (op.method === 'POST') {
      cases.push(
        generated(op, {
          id: `auth.${op.name}.before-validation`,
          title: `${verb} with an invalid body and no key is refused with 401, not 400`,
          clause: `${AUTH_CLAUSE}, whatever else is wrong with the request`,
          suite: 'auth',
          steps: single(
            { method: 'POST', path: op.path, auth: 'none', json: { categoryId: 'not-a-number' } },
            { status: 401, schema: 'Error' },
          ),
        }),
      );
    }
  }
  return cases;
}

function limitCases(contract: Contract): CaseSpec[] {
  const op = contract.operations.get(ROLES.list);
  if (!op || !contract.listLimit) return [];
  const { min, max, default: fallback } = contract.listLimit;
  const clause = `Endpoints › listPets: limit minimum ${min}, maximum ${max}, default ${fallback}`;
  const listing = (query: RequestSpec['query']): RequestSpec => contractRequests(contract).templates.listing(query);
  const cases = [
    generated(op, {
      id: 'listPets.limit.default',
      title: `Without limit, at most ${fallback} pets are returned (exactly that many from a store that holds more)`,
      clause: `Endpoints › listPets rule 2: when limit is omitted, at most ${fallback} animals are returned`,
      suite: 'limits',
      requires: { pets: fallback + 1, because: `without limit, a listing cannot show the default cap of ${fallback}` },
      // The store holds more than a page: a page shorter than the default would lack pets that match (the window lets new ones show).
      steps: single(listing(undefined), { status: 200, maxItems: fallback, minItems: fallback }, { readAfterWrite: true }),
    }),
  ];
  const inRange: Array<[string, number]> = [
    ['min', min],
    ['min-plus-one', min + 1],
    ['default-explicit', fallback],
    ['max-minus-one', max - 1],
    ['max', max],
  ];
  for (const [slug, value] of inRange) {
    cases.push(
      generated(op, {
        id: `listPets.limit.${slug}`,
        title: `limit=${value} is honoured: 200 with at most ${value} pets (exactly that many from a store that holds more)`,
        clause,
        suite: 'limits',
        requires: { pets: value + 1, because: `limit=${value} cannot show a cap` },
        steps: single(listing({ limit: value }), { status: 200, maxItems: value, minItems: value }, { readAfterWrite: true }),
      }),
    );
  }
  const outOfRange: Array<[string, string, RequestSpec['query']]> = [
    ['below-min', `limit=${min - 1}`, { limit: min - 1 }],
    ['above-max', `limit=${max + 1}`, { limit: max + 1 }],
    ['negative', 'limit=-1', { limit: -1 }],
    ['fraction', 'limit=1.5', { limit: '1.5' }],
    ['not-a-number', 'limit=abc', { limit: 'abc' }],
    ['empty', 'an empty limit', { limit: '' }],
    ['repeated', 'a repeated limit', { limit: [min, min + 1] }],
  ];
  for (const [slug, words, query] of outOfRange) {
    cases.push(
      generated(op, {
        id: `listPets.limit.${slug}`,
        title: `${words} is refused with a 4xx Error or answered by a 200 within bounds (at most ${max}), never a 5xx`,
        clause: `${clause} (outside them the contract is silent: a 400 Error or a bounded 200 pass, another 4xx Error warns)`,
        suite: 'limits',
        steps: single(listing(query), { undocumented: { refusals: [400] }, when: { '200': { maxItems: max } } }),
      }),
    );
  }
  return cases;
}

function filterCases(contract: Contract): CaseSpec[] {
  const list = contract.operations.get(ROLES.list);
  const create = contract.operations.get(ROLES.create);
  const max = listLimitOf(contract).max;
  if (!list?.queryParameters.has('status')) return [];
  const clause = 'Endpoints › listPets rule 1: when status is given, only animals with that status are returned';
  const cases: CaseSpec[] = [];
  const { templates } = contractRequests(contract);
  for (const status of statusValues(contract)) {
    const listing = templates.listing({ status, limit: max });
    cases.push(
      generated(list, {
        id: `listPets.filter.${status}`,
        title: `status=${status} returns only ${status} pets`,
        clause,
        suite: 'filters',
        requires: { pets: 1, status, because: `an empty listing of status=${status} shows nothing about the filter` },
        steps: single(listing, { status: 200, everyItem: { status } }),
      }),
    );
    if (!create) continue;
    const created: JsonValue = { name: `{runId} filter ${status}`, categoryId: '{categoryId}', status };
    cases.push(
      generated(list, {
        id: `listPets.filter.${status}.created`,
        title: `a pet created with status ${status} is listed under status=${status} (unless the page is full)`,
        clause: `${clause}; a page that is not full holds every matching animal`,
        suite: 'filters',
        steps: [
          { request: templates.create(created), expect: { status: 201 }, capture: { petId: '/id' } },
          {
            request: listing,
            expect: { status: 200, everyItem: { status }, holdsIfNotFull: { id: '{petId}' } },
            readAfterWrite: true,
            // On a full page, the filter is still judged on every pet the page holds.
            fullPageJudgedBy: `every pet of the page has status ${status}`,
          },
        ],
      }),
    );
    cases.push(
      generated(create, {
        id: `createPet.status.${status}`,
        title: `a pet created with status ${status} comes back with status ${status}`,
        clause: 'States and transitions: a new animal is created with the status the client sends',
        suite: 'lifecycle',
        steps: single(templates.create({ name: `{runId} status ${status}`, categoryId: '{categoryId}', status }), {
          status: 201,
          body: { status },
        }),
      }),
    );
  }
  const fallback = listLimitOf(contract).default;
  const first = statusValues(contract)[0];
  if (first !== undefined) {
    cases.push(
      generated(list, {
        id: 'listPets.filter.default-page',
        title: `status=${first} without limit returns at most ${fallback} pets (the default applies with a filter too)`,
        clause: `${clause}; rule 2: when limit is omitted, at most ${fallback} animals are returned`,
        suite: 'limits',
        requires: {
          pets: fallback + 1,
          status: first,
          because: `a filtered listing without limit cannot show the default cap of ${fallback}`,
        },
        steps: single(
          templates.listing({ status: first }),
          { status: 200, maxItems: fallback, minItems: fallback, everyItem: { status: first } },
          { readAfterWrite: true },
        ),
      }),
    );
  }
  cases.push(
    generated(list, {
      id: 'listPets.filter.unknown-value',
      title: 'an unknown status value is refused with a 4xx Error or answered by a 200 within the default page, never a 5xx',
      clause: `${clause} (an unknown value is not described: a 400 Error or a 200 pass, another 4xx Error warns)`,
      suite: 'filters',
      steps: single(templates.listing({ status: 'no-such-status' }), {
        undocumented: { refusals: [400] },
        when: { '200': { maxItems: fallback } },
      }),
    }),
  );
  return cases;
}

/** Every generated case, in a stable order. */
export function generateCases(contract: Contract): CaseSpec[] {
  return [
    ...authCases(contract),
    ...limitCases(contract),
    ...filterCases(contract),
    ...probeCases(contract),
    ...coverageCases(contract),
    ...dimensionCases(contract),
  ];
}
