/** createPet bodies at the edges: Unicode, the JSON grammar, int64 bounds, sizes; never a 5xx. */
import { isJsonObject, type JsonValue } from '../../model/json.js';
import { errorResponse, type Wrap } from '../reference-server.js';
import { before, bodyOf, createBody, isCreate, isGet, isList, newestFirst, type Variant } from './kit.js';

/** A surrogate escape in JSON text: a pair is written as its character, so in an answer it is a lone one. */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/i;

/** A createPet that crashes (500 with `message`) on the bodies `test` picks: how a framework's bug shows to a client. */
function createCrashesOn(test: (body: string, json: JsonValue | undefined) => boolean, message: string): Wrap {
  return before(
    (r) => isCreate(r) && test(r.body.toString('utf8'), bodyOf(r)),
    () => errorResponse(500, 'internal', message),
  );
}

/** Variants that crash on, mangle or misread createPet bodies at the edges of Unicode and the JSON grammar. */
export const BODY_VARIANTS: readonly Variant[] = [
  {
    name: 'name-emoji-500',
    verdict: 'broken',
    description: 'a name with a character outside the BMP crashes the server (utf8mb3)',
    clause: 'reading-the-contract: strings round-trip in any Unicode, never a 5xx',
    caughtBy: ['coverage.createPet.name.emoji'],
    wrap: createCrashesOn((text) => /[\u{10000}-\u{10FFFF}]/u.test(text), 'Incorrect string value'),
  },
  {
    name: 'name-long-500',
    verdict: 'broken',
    description: 'a name longer than 255 characters crashes the server',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['coverage.createPet.name.length-256', 'coverage.createPet.name.length-10000'],
    wrap: before(
      (r) => {
        const b = isCreate(r) ? bodyOf(r) : undefined;
        return isJsonObject(b) && typeof b['name'] === 'string' && b['name'].length > 255;
      },
      () => errorResponse(500, 'internal', 'value too long for type character varying(255)'),
    ),
  },
  {
    name: 'category-int64-max-500',
    verdict: 'broken',
    description: 'categoryId 9223372036854775807, a valid int64, crashes the server',
    clause: 'reading-the-contract: any valid int64 without a 5xx',
    caughtBy: ['coverage.createPet.categoryId.int64-max'],
    wrap: before(
      (r) => {
        const b = isCreate(r) ? bodyOf(r) : undefined;
        return isJsonObject(b) && b['categoryId'] === 2n ** 63n - 1n;
      },
      () => errorResponse(500, 'internal', 'integer overflow'),
    ),
  },
  {
    name: 'name-latin1-mangled',
    verdict: 'broken',
    description: 'non-ASCII names are read as Latin-1 and come back mangled',
    clause: 'reading-the-contract: strings round-trip exactly in any Unicode',
    caughtBy: ['coverage.createPet.name.latin-1', 'coverage.createPet.name.cjk'],
    wrap: createBody((b) => {
      const n = b['name'];
      if (typeof n === 'string') b['name'] = Buffer.from(n, 'utf8').toString('latin1');
    }),
  },
  {
    name: 'json-lenient',
    verdict: 'broken',
    description:
      "createPet reads JSON leniently, as Go's json.Decoder with case-insensitive fields and Python's json module do: trailing text " +
      'ignored, keys in any case, NaN and Infinity taken',
    clause: 'reading-the-contract: a body that is not JSON is an invalid body (400); keys are case-sensitive',
    caughtBy: [
      'coverage.createPet.malformed.trailing-data',
      'coverage.createPet.malformed.nan',
      'coverage.createPet.malformed.infinity',
      'coverage.createPet.malformed.minus-infinity',
      'coverage.createPet.malformed.keys-in-capitals',
    ],
    wrap: before(isCreate, (req) => {
      const text = req.body.toString('utf8');
      const lenient = text
        .slice(0, text.lastIndexOf('}') + 1)
        .replace(/\b(NaN|-?Infinity)\b/g, '1')
        .replace(
          /"([A-Za-z]+)"\s*:/g,
          (_, key: string) => `"${key.charAt(0).toLowerCase()}${key.slice(1).toLowerCase().replace('id', 'Id')}":`,
        );
      return { ...req, body: Buffer.from(lenient) };
    }),
  },
  {
    name: 'utf8-lenient',
    verdict: 'broken',
    description:
      'createPet decodes a body that is not UTF-8 with U+FFFD in place of the bad bytes, and stores it (as Go, Express, Fastify and Hono ' +
      'do)',
    clause: 'reading-the-contract: invalid UTF-8 is not JSON (RFC 8259 §8.1): 400 with an Error',
    caughtBy: [
      'coverage.createPet.malformed.not-utf8.stray-continuation',
      'coverage.createPet.malformed.not-utf8.overlong',
      'coverage.createPet.malformed.not-utf8.truncated',
      'coverage.createPet.malformed.not-utf8.encoded-surrogate',
    ],
    wrap: before(isCreate, (req) => ({ ...req, body: Buffer.from(req.body.toString('utf8')) })),
  },
  {
    name: 'surrogate-500',
    verdict: 'broken',
    description: 'a name holding a lone surrogate escape crashes createPet (500), as FastAPI did when it encoded the pet',
    clause: 'reading-the-contract: a lone surrogate is refused with 400 or stored and read back exactly; never a 5xx',
    caughtBy: ['coverage.createPet.malformed.lone-high-surrogate', 'coverage.createPet.malformed.lone-low-surrogate'],
    wrap: createCrashesOn((text) => LONE_SURROGATE_ESCAPE.test(text), 'surrogates not allowed'),
  },
  {
    name: 'surrogate-poisons-store',
    verdict: 'broken',
    description:
      'a name holding a lone surrogate escape is stored, and then every answer that would show it is a 500 (the create included), as ' +
      'FastAPI did',
    clause:
      'reading-the-contract: a lone surrogate is refused with 400 or stored and read back exactly; never a store whose reads fail ' +
      'afterwards',
    caughtBy: ['lifecycle.store-health'],
    // Newest first, so that the listings hold the poisoned pet whatever the store held before.
    wrap: (next, store) => async (req) => {
      const res = await newestFirst(next, store)(req);
      // JSON.stringify escapes a lone surrogate (and only that): an answer holding one is what the encoder chokes on.
      return (isCreate(req) || isList(req) || isGet(req)) && LONE_SURROGATE_ESCAPE.test(res.body)
        ? errorResponse(500, 'internal', 'surrogates not allowed')
        : res;
    },
  },
  {
    name: 'surrogate-replaced',
    verdict: 'broken',
    description: 'a lone surrogate escape in a name is stored as U+FFFD, so the name read back is not the name sent (as Go does)',
    clause: 'reading-the-contract: a lone surrogate is refused with 400 or stored and read back exactly',
    caughtBy: ['coverage.createPet.malformed.lone-high-surrogate', 'coverage.createPet.malformed.lone-low-surrogate'],
    wrap: createBody((body) => {
      if (typeof body['name'] === 'string')
        body['name'] = body['name'].replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
    }),
  },
  {
    name: 'nesting-500',
    verdict: 'broken',
    description: 'a body nested deeper than 100 levels crashes createPet (500), as a recursive parser does (Flask: RecursionError)',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['coverage.createPet.malformed.deep-nesting'],
    wrap: createCrashesOn((text) => /[[{]{100}/.test(text), 'maximum recursion depth exceeded'),
  },
  {
    name: 'client-id-crash',
    verdict: 'broken',
    description: "a client id that is not an integer crashes createPet (500), as Fastify's serializer did on a listing that held one",
    clause: 'reading-the-contract: a client-supplied id is accepted (ids stay unique) or refused with 400; never a 5xx',
    caughtBy: [
      'coverage.createPet.malformed.id-string',
      'coverage.createPet.malformed.id-null',
      'coverage.createPet.malformed.id-boolean',
      'coverage.createPet.malformed.id-float',
      'coverage.createPet.malformed.id-array',
      'coverage.createPet.malformed.id-object',
    ],
    wrap: createCrashesOn(
      (_, body) => isJsonObject(body) && 'id' in body && !Number.isInteger(body['id']) && typeof body['id'] !== 'bigint',
      'id.toString is not a function',
    ),
  },
  {
    name: 'number-edges-500',
    verdict: 'broken',
    description:
      "a categoryId at the edges of JSON's number grammar (-0, 1e400) crashes createPet (500), as a strict decimal-to-integer conversion " +
      'that raises does',
    clause: 'reading-the-contract: a number that is not an int64 is an invalid value (400); never a 5xx',
    caughtBy: ['coverage.createPet.malformed.1e400', 'coverage.createPet.malformed.minus-zero'],
    wrap: createCrashesOn((text) => /"categoryId":(-0|\d+e\d+)[,}]/i.test(text), 'cannot convert float infinity to integer'),
  },
  {
    name: 'bom-500',
    verdict: 'broken',
    description: 'a body that starts with a byte order mark crashes createPet (500), as a parser that raises on one does',
    clause: 'reading-the-contract: a parser may ignore a byte order mark or refuse the body with 400; never a 5xx',
    caughtBy: ['coverage.createPet.malformed.byte-order-mark'],
    wrap: createCrashesOn((text) => text.startsWith('\ufeff'), 'Unexpected UTF-8 BOM'),
  },
];
