/** createPet: what a NewPet must hold, what the answer carries, and what the service assigns. */
import { isJsonObject, type JsonValue } from '../../model/json.js';
import { authorised, errorResponse, type PetResponse } from '../reference-server.js';
import { PET_STATUSES } from '../store.js';
import { after, before, bodyOf, createBody, isCreate, mapJson, type Variant, withJsonBody } from './kit.js';

/** Variants that accept a NewPet the contract refuses, answer a create wrongly, or use a freedom createPet leaves. */
export const CREATE_VARIANTS: readonly Variant[] = [
  {
    name: 'create-accepts-missing-name',
    verdict: 'broken',
    description: 'a pet without name is created',
    clause: 'createPet rule 1: name is required',
    caughtBy: ['createPet.invalid.no-name'],
    wrap: createBody((b) => {
      if (b['name'] === undefined) b['name'] = 'unnamed';
    }),
  },
  {
    name: 'create-accepts-missing-category',
    verdict: 'broken',
    description: 'a pet without categoryId is created',
    clause: 'createPet rule 1: categoryId is required',
    caughtBy: ['createPet.invalid.no-category'],
    wrap: createBody((b) => {
      if (b['categoryId'] === undefined) b['categoryId'] = 1;
    }),
  },
  {
    name: 'create-accepts-string-category',
    verdict: 'broken',
    description: 'a string categoryId is coerced',
    clause: 'createPet rule 2: invalid values',
    caughtBy: ['createPet.invalid.category-string'],
    wrap: createBody((b) => {
      if (typeof b['categoryId'] === 'string') b['categoryId'] = 1;
    }),
  },
  {
    name: 'create-accepts-float-category',
    verdict: 'broken',
    description: 'a fractional categoryId is truncated',
    clause: 'NewPet: categoryId is an integer',
    caughtBy: ['createPet.invalid.category-float'],
    wrap: createBody((b) => {
      const c = b['categoryId'];
      if (typeof c === 'number' && !Number.isInteger(c)) b['categoryId'] = Math.trunc(c);
    }),
  },
  {
    name: 'create-accepts-any-status',
    verdict: 'broken',
    description: 'an unknown status is dropped, not refused',
    clause: 'PetStatus enumeration',
    caughtBy: ['createPet.invalid.status-unknown'],
    wrap: createBody((b) => {
      if (!(PET_STATUSES as readonly unknown[]).includes(b['status'])) delete b['status'];
    }),
  },
  {
    name: 'create-accepts-array-body',
    verdict: 'broken',
    description: 'an array body creates its first element',
    clause: 'createPet: body is NewPet',
    caughtBy: ['createPet.invalid.array'],
    wrap: before(isCreate, (r) => {
      const b = bodyOf(r);
      return Array.isArray(b) && b[0] !== undefined ? withJsonBody(r, b[0]) : r;
    }),
  },
  {
    name: 'create-500-on-bad-json',
    verdict: 'broken',
    description: 'a body that is not JSON crashes the server',
    clause: 'createPet rule 2 and never a 5xx',
    caughtBy: ['createPet.invalid.not-json'],
    wrap: before(
      (r) => isCreate(r) && r.body.length > 0 && bodyOf(r) === undefined,
      () => errorResponse(500, 'internal', 'SyntaxError'),
    ),
  },
  {
    name: 'create-accepts-empty-body',
    verdict: 'broken',
    description: 'an empty body creates a default pet',
    clause: 'createPet rule 2: a missing body is 400',
    caughtBy: ['createPet.invalid.no-body'],
    wrap: before(
      (r) => isCreate(r) && r.body.length === 0,
      (r) => withJsonBody(r, { name: 'unnamed', categoryId: 1 }),
    ),
  },
  {
    name: 'create-returns-200',
    verdict: 'broken',
    description: 'createPet answers 200 instead of 201',
    clause: 'createPet: success 201',
    caughtBy: ['createPet.created'],
    wrap: after((res, req) => (isCreate(req) && res.status === 201 ? { ...res, status: 200 } : res)),
  },
  {
    name: 'create-omits-id',
    verdict: 'broken',
    description: 'the created Pet comes back without its id',
    clause: 'createPet: body is Pet including the assigned id',
    caughtBy: ['createPet.created'],
    wrap: after((res, req) =>
      isCreate(req) && res.status === 201
        ? mapJson(res, (b) => {
            const { id: _id, ...rest } = b as Record<string, JsonValue>;
            return rest;
          })
        : res,
    ),
  },
  {
    name: 'create-drops-status',
    verdict: 'broken',
    description: 'the created Pet comes back without the status sent',
    clause: 'States: a new animal is created with the status the client sends',
    caughtBy: ['createPet.created'],
    wrap: after((res, req) =>
      isCreate(req) && res.status === 201
        ? mapJson(res, (b) => {
            const { status: _s, ...rest } = b as Record<string, JsonValue>;
            return rest;
          })
        : res,
    ),
  },
  {
    name: 'create-same-id',
    verdict: 'broken',
    description: 'every created pet is reported with id 1',
    clause: 'Pet: id is unique',
    caughtBy: ['createPet.distinct-ids'],
    wrap: after((res, req) =>
      isCreate(req) && res.status === 201 ? mapJson(res, (b) => ({ ...(b as Record<string, JsonValue>), id: 1 })) : res,
    ),
  },
  {
    name: 'create-not-persisted',
    verdict: 'broken',
    description: 'created pets are answered but never stored',
    clause: 'createPet: the created pet can be fetched by its id',
    caughtBy: ['getPet.read-back'],
    wrap: (next) => {
      let n = 0n;
      return async (req) => {
        const res = await next(req);
        return isCreate(req) && res.status === 201
          ? mapJson(res, (b) => ({ ...(b as Record<string, JsonValue>), id: 10n ** 12n + n++ }))
          : res;
      };
    },
  },
  {
    name: 'create-uses-client-id',
    verdict: 'broken',
    description: 'a client-supplied id is echoed back as the new id',
    clause: 'Pet rule 1: id is assigned by the service',
    caughtBy: ['createPet.client-id'],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const sent = isCreate(req) ? bodyOf(req) : undefined;
      return isJsonObject(sent) && sent['id'] !== undefined && res.status === 201
        ? mapJson(res, (b) => ({ ...(b as Record<string, JsonValue>), id: sent['id'] as JsonValue }))
        : res;
    },
  },
  {
    name: 'status-case-folded',
    verdict: 'broken',
    description: 'status values in another case are accepted and stored in lower case',
    clause: 'PetStatus enumeration: a status outside the enum is 400',
    caughtBy: ['coverage.createPet.status.capitalised', 'coverage.createPet.status.upper-case'],
    wrap: createBody((b) => {
      const st = b['status'];
      if (typeof st === 'string') b['status'] = st.toLowerCase();
    }),
  },
  {
    name: 'category-numeric-string-coerced',
    verdict: 'broken',
    description: 'categoryId "7", a numeric string, is coerced to 7',
    clause: 'createPet rule 2: a wrong JSON type is 400',
    caughtBy: ['coverage.createPet.categoryId.numeric-string'],
    wrap: createBody((b) => {
      const c = b['categoryId'];
      if (typeof c === 'string' && /^-?\d+$/.test(c)) b['categoryId'] = Number(c);
    }),
  },
  {
    name: 'create-category-as-double',
    verdict: 'broken',
    description: 'categoryId goes through a double and loses precision',
    clause: 'NewPet: categoryId is int64',
    caughtBy: ['createPet.int64.category'],
    wrap: after((res, req) =>
      isCreate(req) && res.status === 201
        ? mapJson(res, (b) => {
            const o = b as Record<string, JsonValue>;
            const c = o['categoryId'];
            return { ...o, categoryId: typeof c === 'bigint' ? BigInt(Number(c)) : (c as JsonValue) };
          })
        : res,
    ),
  },
  {
    name: 'create-idempotent-by-body',
    verdict: 'broken',
    description: 'a createPet whose body equals an earlier one answers 201 with the earlier pet (two identical bodies make one pet)',
    clause: 'reading-the-contract: each createPet adds an animal; two identical bodies make two pets',
    caughtBy: ['createPet.identical-bodies', 'store.unique-ids'],
    wrap: (next) => {
      const earlier = new Map<string, PetResponse>();
      return async (req) => {
        if (!isCreate(req)) return next(req);
        const key = req.body.toString('utf8');
        const seen = earlier.get(key);
        if (seen !== undefined) return seen;
        const res = await next(req);
        if (res.status === 201) earlier.set(key, res);
        return res;
      };
    },
  },
  {
    name: 'default-status-available',
    verdict: 'conformant',
    description: 'a pet created without status becomes available',
    clause: 'States: the default status is not stated',
    caughtBy: [],
    wrap: createBody((b) => {
      if (b['status'] === undefined) b['status'] = 'available';
    }),
  },
  {
    name: 'rejects-unknown-fields',
    verdict: 'conformant',
    description: 'unknown body fields are refused with 400',
    clause: 'NewPet (extra fields are not described)',
    caughtBy: [],
    // After the key, as the contract asks: a keyless request is a 401 whatever its body.
    wrap: before(isCreate, (r, s) => {
      const b = bodyOf(r);
      return authorised(r.headers, s.apiKey) && isJsonObject(b) && Object.keys(b).some((k) => !['name', 'categoryId', 'status'].includes(k))
        ? errorResponse(400, 'unknown_field', 'unknown field')
        : r;
    }),
  },
  {
    name: 'unsupported-media-type',
    verdict: 'conformant',
    description: 'a non-JSON content type gets 415 (warned, not failed)',
    clause: 'createPet: body is application/json',
    caughtBy: [],
    warnedBy: ['createPet.invalid.content-type'],
    wrap: before(
      (r) => isCreate(r) && !/^application\/json/.test(r.headers['content-type'] ?? ''),
      () => errorResponse(415, 'unsupported_media_type', 'send application/json'),
    ),
  },
  {
    name: 'lenient-media-type',
    verdict: 'conformant',
    description: 'a JSON body labelled text/plain is accepted (warned: a cross-site simple request)',
    clause: 'createPet (another media type is not described)',
    caughtBy: [],
    warnedBy: ['createPet.invalid.content-type'],
    wrap: before(
      (r) => isCreate(r) && /^text\/plain/.test(r.headers['content-type'] ?? ''),
      (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/json' } }),
    ),
  },
  {
    name: 'length-required',
    verdict: 'conformant',
    description: 'a body without a Content-Length (chunked) is refused with 411 and an Error, before the key (RFC 9112 §6.3)',
    clause: 'RFC 9112 §6.3: a server may refuse a body without a Content-Length with 411',
    caughtBy: [],
    wrap: before(
      (r) => r.headers['transfer-encoding'] !== undefined,
      () => errorResponse(411, 'length_required', 'send the body with a Content-Length'),
    ),
  },
  {
    name: 'rejects-client-id',
    verdict: 'conformant',
    description: 'a body with an id is refused with 400 (once the key is checked: without it, 401 as ever)',
    clause: 'Pet rule 1: a client does not supply the id',
    caughtBy: [],
    wrap: before(isCreate, (r, store) => {
      const b = bodyOf(r);
      const refused = authorised(r.headers, store.apiKey) && isJsonObject(b) && b['id'] !== undefined;
      return refused ? errorResponse(400, 'id_not_allowed', 'id is assigned by the service') : r;
    }),
  },
];
