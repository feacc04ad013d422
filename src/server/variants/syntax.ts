/**
 * Variants of the request space's edge-value and syntax dimensions (issue 36), each modelled on a miss measured on a real
 * server: NaN in an unknown field, a body in UTF-16 or UTF-32, comments taken; id 0 refused with 400; a 5,000-digit number
 * crashing the parser; a chunked body refused; a name cut at NUL, trimmed, escaped or normalised; `status: ""` or null
 * taken as no status.
 */
import { isUtf8 } from 'node:buffer';
import { isJsonObject } from '../../model/json.js';
import { errorResponse, type PetRequest, type Wrap } from '../reference-server.js';
import { before, bodyOf, createBody, isCreate, isGet, isList, type Variant } from './kit.js';

/** The create request with its body text rewritten; a body that is not UTF-8 is left as it is (refused as such). */
function rewritten(req: PetRequest, edit: (text: string) => string): PetRequest {
  return isUtf8(req.body) ? { ...req, body: Buffer.from(edit(req.body.toString('utf8'))) } : req;
}

/** Takes the body as text in UTF-16 or UTF-32, told by its byte order mark or its zero bytes (RFC 4627 §3), as UTF-8. */
function fromWideText(body: Buffer): Buffer | undefined {
  const [a, b, c, d] = [body[0], body[1], body[2], body[3]];
  const charset =
    a === 0xff && b === 0xfe && c === 0 && d === 0
      ? 'utf-32le'
      : a === 0 && b === 0 && c === 0xfe && d === 0xff
        ? 'utf-32be'
        : a === 0xff && b === 0xfe
          ? 'utf-16le'
          : a === 0xfe && b === 0xff
            ? 'utf-16be'
            : a !== 0 && b === 0 && c === 0 && d === 0
              ? 'utf-32le'
              : a === 0 && b === 0 && c === 0 && d !== 0
                ? 'utf-32be'
                : a === 0
                  ? 'utf-16be'
                  : b === 0
                    ? 'utf-16le'
                    : undefined;
  if (charset === undefined) return undefined;
  let text = '';
  if (charset.startsWith('utf-16')) {
    const copy = Buffer.from(body.subarray(0, body.length - (body.length % 2)));
    text = (charset === 'utf-16be' ? copy.swap16() : copy).toString('utf16le');
  } else {
    for (let at = 0; at + 4 <= body.length; at += 4)
      text += String.fromCodePoint(charset === 'utf-32le' ? body.readUInt32LE(at) : body.readUInt32BE(at));
  }
  return Buffer.from(text.replace(/^\ufeff/, ''));
}

/** A name as a store keeps it, for the variants that change names. */
function nameEdited(edit: (name: string) => string): Wrap {
  return createBody((body) => {
    if (typeof body['name'] === 'string') body['name'] = edit(body['name']);
  });
}

/** Variants of the values at the edges of each type, and of the syntax and encoding of a body. */
export const SYNTAX_VARIANTS: readonly Variant[] = [
  {
    name: 'nan-in-unknown',
    verdict: 'broken',
    description: 'NaN and Infinity are taken where no field is validated (an unknown field), as Python json does',
    clause: 'reading-the-contract: NaN or Infinity anywhere, an unknown field included, is no JSON (400)',
    caughtBy: ['syntax.createPet.nan-unknown', 'syntax.createPet.infinity-unknown', 'syntax.createPet.nan-in-object'],
    wrap: before(isCreate, (req) => rewritten(req, (text) => text.replace(/(?<=[:,[]\s*)(?:NaN|-?Infinity)(?=\s*[,\]}])/g, 'null'))),
  },
  {
    name: 'utf16-accepted',
    verdict: 'broken',
    description: 'a body in UTF-16 or UTF-32 is decoded and taken, as FastAPI and Flask do',
    clause: 'reading-the-contract: a text in UTF-16 or UTF-32 is no JSON between systems (RFC 8259 §8.1): 400',
    caughtBy: ['syntax.createPet.utf-16le', 'syntax.createPet.utf-16be-bom', 'syntax.createPet.utf-32le'],
    wrap: before(isCreate, (req) => {
      const decoded = req.body.length >= 4 ? fromWideText(req.body) : undefined;
      return decoded === undefined ? req : { ...req, body: decoded };
    }),
  },
  {
    name: 'comments-accepted',
    verdict: 'broken',
    description: 'comments in a createPet body are skipped and the pet taken',
    clause: 'reading-the-contract: a body with comments is no JSON (400)',
    caughtBy: ['syntax.createPet.comment-block', 'syntax.createPet.comment-line'],
    wrap: before(isCreate, (req) => rewritten(req, (text) => text.replace(/\/\*[^*]*\*\/|\/\/[^\n]*/g, ''))),
  },
  {
    name: 'zero-id-400',
    verdict: 'broken',
    description: 'getPet refuses an id below 1 with 400 (a validation rule min=1), where an unknown id is 404',
    clause: 'reading-the-contract: a negative or zero id is a valid int64; an unknown one is a 404, never a 400',
    caughtBy: ['edge.getPet.id.zero', 'getPet.unknown-id.negative'],
    wrap: before(
      (req) => isGet(req) && /^\/v1\/pets\/(?:0|-\d+)$/.test(req.path),
      () => errorResponse(400, 'invalid_id', 'petId must be at least 1'),
    ),
  },
  {
    name: 'long-number-500',
    verdict: 'broken',
    description: 'a number of more than 4,300 digits crashes the parser (500), as Python int() of a long string does',
    clause: 'reading-the-contract: a number JSON allows is never a reason for a 5xx, however many digits it has',
    caughtBy: ['syntax.createPet.long-integer-category', 'syntax.createPet.long-integer-unknown'],
    wrap: before(
      (req) => isCreate(req) && /\d{4301}/.test(req.body.toString('latin1')),
      () => errorResponse(500, 'internal', 'Exceeds the limit (4300 digits) for integer string conversion'),
    ),
  },
  {
    name: 'chunked-body-400',
    verdict: 'broken',
    description: 'a createPet whose body is chunked (no Content-Length) is refused with 400, as a WSGI server may',
    clause: 'Endpoints › createPet: a valid NewPet is created (201), however HTTP frames the body',
    caughtBy: ['syntax.createPet.chunked'],
    wrap: before(
      (req) => isCreate(req) && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined,
      () => errorResponse(400, 'bad_request', 'a body needs a Content-Length'),
    ),
  },
  {
    name: 'name-cut-at-nul',
    verdict: 'broken',
    description: 'a name is stored as a C string: cut at its first NUL',
    clause: 'reading-the-contract: strings round-trip exactly in any Unicode',
    caughtBy: ['edge.createPet.name.nul', 'edge.createPet.name.c0-controls'],
    wrap: nameEdited((name) => name.split('\u0000')[0] ?? ''),
  },
  {
    name: 'name-html-escaped',
    verdict: 'broken',
    description: 'a name is stored HTML-escaped',
    clause: 'reading-the-contract: strings round-trip exactly',
    caughtBy: ['edge.createPet.name.html'],
    wrap: nameEdited((name) => name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')),
  },
  {
    name: 'name-sql-500',
    verdict: 'broken',
    description: "a name with a quote breaks the server's SQL (500)",
    clause: 'reading-the-contract: never a 5xx; strings round-trip exactly',
    caughtBy: ['edge.createPet.name.sql'],
    wrap: before(
      (req) => {
        const body = isCreate(req) ? bodyOf(req) : undefined;
        return isJsonObject(body) && typeof body['name'] === 'string' && body['name'].includes("'");
      },
      () => errorResponse(500, 'internal', 'syntax error at or near "DROP"'),
    ),
  },
  {
    name: 'name-trimmed',
    verdict: 'broken',
    description: 'a name is stored with its spaces trimmed and runs of spaces collapsed',
    clause: 'reading-the-contract: strings round-trip exactly',
    caughtBy: ['edge.createPet.name.padded'],
    wrap: nameEdited((name) => name.trim().replace(/ {2,}/g, ' ')),
  },
  {
    name: 'name-normalised',
    verdict: 'broken',
    description: 'a name is stored in Unicode normalisation form NFKC',
    clause: 'reading-the-contract: strings round-trip exactly in any Unicode',
    caughtBy: ['edge.createPet.name.normalisation'],
    wrap: nameEdited((name) => name.normalize('NFKC')),
  },
  {
    name: 'status-empty-as-absent',
    verdict: 'broken',
    description: 'status "" and status null are taken as no status (the pet created without one)',
    clause: 'Endpoints › createPet rule 2: a status outside the enum (reading: null included) is refused with 400',
    caughtBy: ['edge.createPet.status.empty', 'createPet.invalid.status-null'],
    wrap: createBody((body) => {
      if (body['status'] === '' || body['status'] === null) delete body['status'];
    }),
  },
  {
    name: 'ids-int32-500',
    verdict: 'broken',
    description: 'an id or a limit beyond int32 overflows the server (500)',
    clause: 'reading-the-contract: any valid int64 without a 5xx',
    caughtBy: ['edge.getPet.id.int32-max-plus-one', 'edge.listPets.limit.int32-max-plus-one'],
    wrap: before(
      (req) => {
        const text = isGet(req) ? req.path.split('/').at(-1) : isList(req) ? req.query.get('limit') : null;
        return text !== null && text !== undefined && /^-?\d+$/.test(text) && Math.abs(Number(text)) > 2 ** 31 - 1;
      },
      () => errorResponse(500, 'internal', 'integer overflow'),
    ),
  },
];
