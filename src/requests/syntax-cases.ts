/**
 * The syntax-and-encoding dimension: createPet bodies that are not JSON (comments, single quotes, trailing commas, escapes
 * JSON does not define, NaN and Infinity in every position, text in UTF-16 or UTF-32 with and without a byte order mark),
 * JSON a parser may choke on (numbers of thousands of digits, nesting 10,000 deep), a valid body sent chunked, and getPet
 * paths whose segment is not UTF-8, `%00` or an encoded slash. Each is sent with a key and without one: without, 401 and an
 * Error whatever else is wrong (auth-first). The malformed bodies the coverage phase sends already (trailing data, NaN and
 * Infinity as categoryId, invalid UTF-8, a byte order mark, lone surrogates, nesting 1,000 deep) are not sent again.
 */
import { type Contract, type OperationInfo, ROLES } from '../model/contract.js';
import { SPARE_STATUS } from '../model/template.js';
import type { BodyEncoding, CaseSpec, Expectations, RequestSpec } from '../model/scenario.js';
import { type ContractTemplates, contractRequests } from './contract-requests.js';
import { generated } from './generated-case.js';

/** Not JSON, or no pet: refused with 400 and an Error. */
const REFUSED: Expectations = { status: 400, schema: 'Error' };
/** JSON a pet store may take (an unknown field) or refuse with 400 and an Error; never a 5xx. */
const TAKEN_OR_REFUSED: Expectations = { status: [201, 400], when: { '400': { schema: 'Error' } } };
/** Without a key: 401 and an Error, whatever else is wrong. */
const NO_KEY: Expectations = { status: 401, schema: 'Error' };
/** Without a key, a chunked body: 401, or the 411 a server that takes no body without a Content-Length answers first (RFC 9112 §6.3). */
const LENGTH_REQUIRED_OR_NO_KEY: Expectations = { status: [401, 411], schema: 'Error' };

/** Nesting ten times the coverage phase's 1,000. */
const DEEP = 10_000;
/** Digits in a long number: beyond Python's 4,300-digit limit on int() of a string. */
const DIGITS = 5_000;

/** A body value: its slug, the request's body part, words, what a request with a key must get. */
interface BodyValue {
  slug: string;
  body: Pick<RequestSpec, 'body' | 'json' | 'encoding' | 'chunked'>;
  words: string;
  expect: Expectations;
}

function bodyValues(status: string): BodyValue[] {
  const pet = (inside: string, extra = ''): string =>
    `{"name":"{runId} syntax${inside}","categoryId":{categoryId},"status":"${status}"${extra}}`;
  const text = (slug: string, body: string, words: string, expect: Expectations = REFUSED): BodyValue => ({
    slug,
    body: { body },
    words,
    expect,
  });
  const charsets: Array<BodyEncoding['charset']> = ['utf-16le', 'utf-16be', 'utf-32le', 'utf-32be'];
  const encoded = charsets.flatMap((charset) =>
    [false, true].map(
      (byteOrderMark): BodyValue => ({
        slug: `${charset}${byteOrderMark ? '-bom' : ''}`,
        body: { json: { name: '{runId} syntax', categoryId: '{categoryId}', status }, encoding: { charset, byteOrderMark } },
        words: `a pet in ${charset.toUpperCase()} ${byteOrderMark ? 'with' : 'without'} a byte order mark (JSON is UTF-8)`,
        expect: REFUSED,
      }),
    ),
  );
  const nanIn = (where: string, slug: string, words: string, literal = 'NaN'): BodyValue =>
    text(`${slug}`, where.replace('@', literal), `${literal} ${words} (not JSON)`);
  return [
    text('comment-block', pet('', ' /* a comment */'), 'a block comment after the last field (not JSON)'),
    text('comment-line', pet('', ' // a comment\n'), 'a line comment after the last field (not JSON)'),
    text(
      'single-quotes',
      `{'name':'{runId} syntax','categoryId':{categoryId},'status':'${status}'}`,
      'names and strings in single quotes (not JSON)',
    ),
    text('trailing-comma-object', pet('', ','), 'a trailing comma in the object (not JSON)'),
    text('trailing-comma-array', pet('', ',"extra":[1,]'), 'a trailing comma in an array (not JSON)'),
    text('escape-x', pet(' \\x41'), 'the escape \\x41 in the name (not a JSON escape)'),
    text('escape-quote', pet(" \\'"), "the escape \\' in the name (not a JSON escape)"),
    nanIn(pet('', ',"extra":@'), 'nan-unknown', 'in an unknown field'),
    nanIn(pet('', ',"extra":@'), 'infinity-unknown', 'in an unknown field', 'Infinity'),
    nanIn(pet('', ',"extra":@'), 'minus-infinity-unknown', 'in an unknown field', '-Infinity'),
    nanIn(`{"name":@,"categoryId":{categoryId},"status":"${status}"}`, 'nan-name', 'as name'),
    nanIn(`{"name":"{runId} syntax","categoryId":{categoryId},"status":@}`, 'nan-status', 'as status'),
    nanIn(pet('', ',"extra":[1,@]'), 'nan-in-array', 'in an array'),
    nanIn(pet('', ',"extra":{"a":@}'), 'nan-in-object', 'in a nested object'),
    text(
      'long-integer-category',
      pet('').replace('{categoryId}', '9'.repeat(DIGITS)),
      `categoryId of ${DIGITS.toLocaleString('en')} digits (JSON, no int64)`,
    ),
    text('long-integer-unknown', pet('', `,"extra":${'9'.repeat(DIGITS)}`), `an unknown field of ${DIGITS} digits`, TAKEN_OR_REFUSED),
    text('long-fraction-unknown', pet('', `,"extra":0.${'1'.repeat(DIGITS)}`), `an unknown fraction of ${DIGITS} digits`, TAKEN_OR_REFUSED),
    text('long-exponent-unknown', pet('', `,"extra":1e${'9'.repeat(DIGITS)}`), `an unknown field with a ${DIGITS}-digit exponent`, {
      status: [201, 400],
      when: { '400': { schema: 'Error' } },
    }),
    text(
      'deep-nesting',
      pet('', `,"extra":${'['.repeat(DEEP)}${']'.repeat(DEEP)}`),
      `an unknown field nested ${DEEP.toLocaleString('en')} levels deep`,
      TAKEN_OR_REFUSED,
    ),
    ...encoded,
    {
      slug: 'chunked',
      body: { json: { name: '{runId} chunked', categoryId: '{categoryId}', status }, chunked: true },
      words: 'a valid pet sent with chunked transfer coding',
      // A server may refuse a body without a Content-Length with 411 (RFC 9112 §6.3); else it reads the chunks.
      expect: { status: [201, 411], when: { '201': { body: { name: '{runId} chunked' } }, '411': { schema: 'Error' } } },
    },
  ];
}

/** getPet path segments that are not an id: not UTF-8, NUL, an encoded slash. */
const PATH_SEGMENTS: ReadonlyArray<[string, string, string]> = [
  ['not-utf8', '%ff', 'the byte FF (not UTF-8)'],
  ['overlong', '%c0%af', 'an overlong encoding of /'],
  ['nul', '%00', 'NUL'],
  ['encoded-slash', '1%2F1', 'an encoded slash (1%2F1)'],
];

const NOT_JSON_CLAUSE =
  'reading-the-contract: a body that is not JSON (comments, single quotes, trailing commas, escapes JSON does not define, NaN or ' +
  'Infinity anywhere, UTF-16 or UTF-32) is an invalid body (400 with an Error); a number JSON allows is never a reason for a 5xx';
const AUTH_CLAUSE = 'Authentication rule 1: 401 with an Error, whatever else is wrong with the request';

function createSyntax(create: OperationInfo, templates: ContractTemplates, status: string): CaseSpec[] {
  return bodyValues(status).flatMap(({ slug, body: { json, ...framed }, words, expect }) => {
    const request = (auth: 'valid' | 'none'): RequestSpec =>
      templates.create(json, {
        auth,
        ...(json === undefined ? { headers: { 'Content-Type': 'application/json' } } : {}),
        ...framed,
      });
    return [
      generated(create, {
        id: `syntax.createPet.${slug}`,
        title: `createPet with ${words}: ${expect === REFUSED ? '400 with an Error' : 'never a 5xx'}`,
        clause:
          slug === 'chunked' ? 'Endpoints › createPet: a valid NewPet is created (201), however HTTP frames the body' : NOT_JSON_CLAUSE,
        suite: 'coverage',
        steps: [{ request: request('valid'), expect }],
      }),
      generated(create, {
        id: `syntax.createPet.${slug}.no-key`,
        title: `createPet with ${words} and no key: 401 with an Error`,
        clause: AUTH_CLAUSE,
        suite: 'auth',
        steps: [{ request: request('none'), expect: slug === 'chunked' ? LENGTH_REQUIRED_OR_NO_KEY : NO_KEY }],
      }),
    ];
  });
}

function pathSyntax(get: OperationInfo, templates: ContractTemplates): CaseSpec[] {
  return PATH_SEGMENTS.flatMap(([slug, segment, words]) => {
    return [
      generated(get, {
        id: `syntax.getPet.path-${slug}`,
        title: `GET of a petId of ${words} names no pet: refused with a 4xx Error (400 or 404 pass), never a 5xx`,
        clause: 'Endpoints › getPet: petId is an int64 (reading: a malformed petId names no animal; never a 5xx)',
        suite: 'errors',
        steps: [{ request: templates.get(segment), expect: { undocumented: { refusals: [400, 404] } } }],
      }),
      generated(get, {
        id: `syntax.getPet.path-${slug}.no-key`,
        title: `GET of a petId of ${words} and no key: 401 with an Error (the key is checked first)`,
        clause: `${AUTH_CLAUSE} (reading: bytes such as %ff in the path included)`,
        suite: 'auth',
        steps: [{ request: templates.get(segment, { auth: 'none' }), expect: NO_KEY }],
      }),
    ];
  });
}

/** The syntax-and-encoding dimension: createPet bodies, then getPet paths, each with a key and without. */
export function syntaxCases(contract: Contract): CaseSpec[] {
  const create = contract.operations.get(ROLES.create);
  const get = contract.operations.get(ROLES.get);
  const { templates } = contractRequests(contract);
  return [
    ...(create === undefined ? [] : createSyntax(create, templates, SPARE_STATUS)),
    ...(get === undefined ? [] : pathSyntax(get, templates)),
  ];
}
