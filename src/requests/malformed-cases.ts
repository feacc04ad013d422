/**
 * Malformed createPet bodies, part of the coverage phase: what is not JSON (trailing data, NaN, Infinity, bytes that are
 * not UTF-8), numbers no int64 holds, keys in another case, a byte order mark, lone surrogate escapes, nesting far deeper
 * than any pet, a client id of every other JSON type. Each is judged by the reading: 400 with an Error where it is not JSON
 * or lacks a field; a lone surrogate refused with 400 or stored and given back exactly; never a 5xx. Without a key, a
 * refused one is a 401. (An empty body with a JSON media type is a declared case: createPet.invalid.no-body.)
 */
import { type Contract, ROLES } from '../model/contract.js';
import { SPARE_STATUS } from '../model/template.js';
import type { CaseSpec, Expectations, StepSpec } from '../model/scenario.js';
import { contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';

/** A body that is not JSON, or a pet that lacks a field the contract requires: refused with 400 and an Error. */
const REFUSED: Expectations = { status: 400, schema: 'Error' };
/** Taken (and then judged as any created pet) or refused with 400 and an Error; never a 5xx. */
const TAKEN_OR_REFUSED: Expectations = { status: [201, 400], when: { '400': { schema: 'Error' } } };

/** Taken and given back with exactly this name, or refused with 400 and an Error: a name no character holds must not change. */
function nameKeptOrRefused(name: string): Expectations {
  return { status: [201, 400], when: { '201': { body: { name } }, '400': { schema: 'Error' } } };
}

/** Nesting far deeper than a pet's, in a field the contract does not know. */
const DEEP = 1000;

/** A body: JSON text as sent (`{runId}` and `{categoryId}` filled by the run), or text around raw bytes that are not UTF-8. */
type Body = string | Array<string | { hex: string }>;

/** Bytes that are not UTF-8 (RFC 3629), each in a name: invalid UTF-8 is not JSON (RFC 8259 §8.1). */
const NOT_UTF8: ReadonlyArray<[string, string, string]> = [
  ['stray-continuation', '80', 'a continuation byte with no lead byte'],
  ['overlong', 'c0af', 'an overlong encoding of /'],
  ['truncated', 'e282', 'a sequence cut short'],
  ['encoded-surrogate', 'eda080', 'a surrogate encoded as UTF-8'],
];

/** A client id of every JSON type but an integer (the contract's own): taken (the service still assigns the id) or refused with 400. */
const CLIENT_IDS: ReadonlyArray<[string, string]> = [
  ['string', '"abc"'],
  ['null', 'null'],
  ['boolean', 'true'],
  ['float', '1.5'],
  ['array', '[1]'],
  ['object', '{"id":1}'],
];

/** The bodies, with what each must get. */
function bodies(status: string): Array<[string, Body, string, Expectations]> {
  const pet = (fields: string, categoryId = '{categoryId}'): string =>
    `{"name":"{runId} malformed","categoryId":${categoryId},"status":"${status}"${fields}}`;
  const withCategory = (number: string): string => pet('', number);
  return [
    ['trailing-data', `${pet('')} xyz`, 'a pet followed by more text (not one JSON value)', REFUSED],
    ['nan', withCategory('NaN'), 'NaN as categoryId (not JSON)', REFUSED],
    ['infinity', withCategory('Infinity'), 'Infinity as categoryId (not JSON)', REFUSED],
    ['minus-infinity', withCategory('-Infinity'), '-Infinity as categoryId (not JSON)', REFUSED],
    ['1e400', withCategory('1e400'), 'categoryId 1e400 (JSON, but no int64: a double overflows to infinity)', REFUSED],
    ['minus-zero', withCategory('-0'), 'categoryId -0 (JSON for the int64 0: an unknown category may be refused)', TAKEN_OR_REFUSED],
    [
      'keys-in-capitals',
      `{"NAME":"{runId} malformed","CATEGORYID":{categoryId}}`,
      'NAME and CATEGORYID (keys are case-sensitive: no name)',
      REFUSED,
    ],
    [
      'byte-order-mark',
      [{ hex: 'efbbbf' }, pet('')],
      'a byte order mark before the JSON text (RFC 8259 §8.1: a parser may ignore it)',
      TAKEN_OR_REFUSED,
    ],
    [
      'lone-high-surrogate',
      pet('').replace('malformed"', 'malformed \\ud83d"'),
      'a name ending in a lone high surrogate escape',
      nameKeptOrRefused('{runId} malformed \ud83d'),
    ],
    [
      'lone-low-surrogate',
      pet('').replace('malformed"', 'malformed \\udc36"'),
      'a name ending in a lone low surrogate escape',
      nameKeptOrRefused('{runId} malformed \udc36'),
    ],
    [
      'deep-nesting',
      pet(`,"extra":${'['.repeat(DEEP)}${']'.repeat(DEEP)}`),
      `an unknown field nested ${DEEP} levels deep`,
      TAKEN_OR_REFUSED,
    ],
    ...CLIENT_IDS.map(([slug, json]): [string, Body, string, Expectations] => [
      `id-${slug}`,
      pet(`,"id":${json}`),
      `a client id that is ${slug === 'float' ? 'a fraction' : `${/^[aeiou]/.test(slug) ? 'an' : 'a'} ${slug}`} (${json})`,
      TAKEN_OR_REFUSED,
    ]),
    ...NOT_UTF8.map(([slug, hex, words]): [string, Body, string, Expectations] => [
      `not-utf8.${slug}`,
      ['{"name":"{runId} malformed ', { hex }, `","categoryId":{categoryId},"status":"${status}"}`],
      `a name holding ${words} (not UTF-8, so not JSON)`,
      { status: 400, schema: 'Error' },
    ]),
  ];
}

/** The malformed createPet bodies, with a key and without one; none when the contract has no createPet. */
export function malformedCases(contract: Contract): CaseSpec[] {
  const create = contract.operations.get(ROLES.create);
  if (create === undefined) return [];
  const clause =
    'reading-the-contract: a body that is not JSON, or lacks name or categoryId, is an invalid body (400 with an Error); a lone ' +
    'surrogate is refused with 400 or stored and read back exactly; never a 5xx';
  const cases: CaseSpec[] = [];
  const { templates } = contractRequests(contract);
  for (const [slug, body, words, expect] of bodies(SPARE_STATUS)) {
    const request = (auth: 'valid' | 'none'): StepSpec['request'] =>
      templates.create(undefined, {
        auth,
        headers: { 'Content-Type': 'application/json' },
        ...(typeof body === 'string' ? { body } : { bytes: body }),
      });
    // Without a key, the bodies a server refuses: a server that reads the body before the key answers them 400.
    const variants: ReadonlyArray<readonly ['valid' | 'none', Expectations, string]> = [
      ['valid', expect, ''],
      ...(expect === REFUSED ? [['none', { status: 401, schema: 'Error' }, ' and no key: 401 whatever the body'] as const] : []),
    ];
    for (const [auth, expected, what] of variants) {
      const steps: StepSpec[] = [{ request: request(auth), expect: expected }];
      // Without a key it is a case of the auth rule, beside the other bodies a keyless createPet is sent with.
      cases.push(
        generated(create, {
          id: auth === 'none' ? `auth.createPet.before-validation.${slug}` : `coverage.createPet.malformed.${slug}`,
          title: `createPet with ${words}${what}`,
          clause: auth === 'none' ? 'Authentication rule 1: 401 with an Error, whatever else is wrong with the request' : clause,
          suite: auth === 'none' ? 'auth' : 'coverage',
          steps,
        }),
      );
    }
  }
  return cases;
}
