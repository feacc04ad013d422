/**
 * The variant catalogue: the reference pet store bent in named ways. Broken variants each break one
 * clause and name the cases or checks that must catch them; conformant variants use a freedom the contract
 * leaves and must pass. `npm run matrix` and test/matrix.test.ts hold the suite to both.
 */
import { isUtf8 } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import { isJsonObject, parseExactJson, stringifyExactJson, type JsonValue } from '../model/json.js';
import {
  authorised,
  errorResponse,
  jsonResponse,
  type PetRequest,
  type PetResponse,
  type PetStore,
  type ReferenceServerOptions,
  type Wrap,
} from './reference-server.js';
import { PET_STATUSES, type PetStatus } from './store.js';

/** A named behaviour of the pet store. */
export interface Variant {
  name: string;
  description: string;
  /** The contract clause the variant touches. */
  clause: string;
  /** broken: the run fails; conformant: it passes; unrunnable: it stops with exit 2 and one line (rate limits, a dead server, a wrong base URL are never verdicts). */
  verdict: 'broken' | 'conformant' | 'unrunnable';
  /** For an unrunnable variant: words the one line that stops the run must hold. */
  stopsWith?: string;
  /** For a broken variant: case or check ids, at least one of which must fail. */
  caughtBy: readonly string[];
  /** Case or check ids that must warn (a conformant variant that ignores a recommendation). */
  warnedBy?: readonly string[];
  /** Serve the API under this path instead of /v1. */
  basePath?: string;
  wrap?: Wrap;
  server?: Pick<ReferenceServerOptions, 'firstId' | 'seed'> & { now?: string };
  /** The suite's clock to judge this variant by (YYYY-MM-DD), when not today. */
  clock?: string;
}

const isList = (req: PetRequest): boolean => req.method === 'GET' && req.path === '/v1/pets';
const isCreate = (req: PetRequest): boolean => req.method === 'POST' && req.path === '/v1/pets';
const isGet = (req: PetRequest): boolean => req.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(req.path);

function withKey(req: PetRequest, store: PetStore): PetRequest {
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${store.apiKey}` } };
}

function withQuery(req: PetRequest, edit: (q: URLSearchParams) => void): PetRequest {
  const query = new URLSearchParams(req.query);
  edit(query);
  return { ...req, query };
}

function withJsonBody(req: PetRequest, body: JsonValue): PetRequest {
  return { ...req, body: Buffer.from(stringifyExactJson(body)), headers: { 'content-type': 'application/json', ...req.headers } };
}

function bodyOf(req: PetRequest): JsonValue | undefined {
  // A body that is not UTF-8 is no JSON: read as text it would hold U+FFFD, and a rewrite would hide what was sent.
  if (!isUtf8(req.body)) return undefined;
  try {
    return parseExactJson(req.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function jsonOf(res: PetResponse): JsonValue | undefined {
  try {
    return parseExactJson(res.body);
  } catch {
    return undefined;
  }
}

/** Rewrites the JSON body of a response. */
function mapJson(res: PetResponse, edit: (body: JsonValue) => JsonValue): PetResponse {
  const body = jsonOf(res);
  return body === undefined ? res : { ...res, body: stringifyExactJson(edit(body)) };
}

/** A wrapper that lets the key through on some requests: the auth check is skipped. */
function skipAuthWhen(test: (req: PetRequest, store: PetStore) => boolean): Wrap {
  return (next, store) => (req) => (!authorised(req.headers, store.apiKey) && test(req, store) ? next(withKey(req, store)) : next(req));
}

function bearerToken(req: PetRequest): string | undefined {
  return /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
}

/** Changes a request before the conformant handler sees it. */
function before(test: (req: PetRequest) => boolean, edit: (req: PetRequest, store: PetStore) => PetRequest | PetResponse): Wrap {
  return (next, store) => (req) => {
    if (!test(req)) return next(req);
    const edited = edit(req, store);
    return 'status' in edited ? edited : next(edited);
  };
}

/** Changes a response after the conformant handler answered. */
function after(edit: (res: PetResponse, req: PetRequest, store: PetStore) => PetResponse): Wrap {
  return (next, store) => async (req) => edit(await next(req), req, store);
}

/** The value of a decimal digit of any script (Arabic-Indic, Devanagari, full width...): its offset from the script's zero. */
function digitOf(digit: string): number {
  const code = digit.codePointAt(0) ?? 0;
  for (let zero = code; zero >= code - 9; zero--) if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return code - zero;
  return 0;
}

/** A server that reads the credential with `pattern`: a header whose token matches the key is taken as the key itself. */
function leniently(pattern: RegExp): Wrap {
  return (next, store) => (req) => {
    const token = pattern.exec(String(req.headers.authorization ?? ''))?.[1];
    return next(token === store.apiKey ? withKey(req, store) : req);
  };
}

/** A createPet that crashes (500 with `message`) on the bodies `test` picks: how a framework's bug shows to a client. */
function createCrashesOn(test: (body: string, json: JsonValue | undefined) => boolean, message: string): Wrap {
  return before(
    (r) => isCreate(r) && test(r.body.toString('utf8'), bodyOf(r)),
    () => errorResponse(500, 'internal', message),
  );
}

function createBody(edit: (body: Record<string, JsonValue>) => void): Wrap {
  return before(isCreate, (req) => {
    const body = bodyOf(req);
    if (!isJsonObject(body)) return req;
    const copy = { ...body };
    edit(copy);
    return withJsonBody(req, copy);
  });
}

/** Listings ordered newest first (the contract states no order). */
const newestFirst: Wrap = (next, store) => async (req) => {
  const res = await next(req);
  if (!isList(req) || res.status !== 200) return res;
  const limit = Number(req.query.get('limit') ?? '20');
  return jsonResponse(200, store.catalogue.pageJson(limit, (req.query.get('status') ?? undefined) as PetStatus | undefined, true));
};

const isError = (res: PetResponse): boolean => res.status >= 400;
/** A surrogate escape in JSON text: a pair is written as its character, so in an answer it is a lone one. */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f][0-9a-f]{2}/i;
/** The rate-limited variant's requests per second: far below what a run sends, so that it is throttled all along. */
const RATE_LIMIT = 50;
const FIRST_SEEDED_PET = '{"id":1,"name":"Rex 1","categoryId":1,"status":"available"}';

const broken: Array<Omit<Variant, 'verdict'>> = [
  {
    name: 'auth-off-list',
    description: 'listPets answers without a key',
    clause: 'Authentication rule 1 (listPets)',
    caughtBy: ['auth.listPets.missing'],
    wrap: skipAuthWhen((r) => isList(r) && r.headers.authorization === undefined),
  },
  {
    name: 'auth-off-create',
    description: 'createPet answers without a key',
    clause: 'Authentication rule 1 (createPet)',
    caughtBy: ['auth.createPet.missing'],
    wrap: skipAuthWhen((r) => isCreate(r) && r.headers.authorization === undefined),
  },
  {
    name: 'auth-off-get',
    description: 'getPet answers without a key',
    clause: 'Authentication rule 1 (getPet)',
    caughtBy: ['auth.getPet.missing'],
    wrap: skipAuthWhen((r) => isGet(r) && r.headers.authorization === undefined),
  },
  {
    name: 'auth-accepts-basic',
    description: 'the key is accepted under the Basic scheme',
    clause: 'Authentication: scheme HTTP bearer',
    caughtBy: ['auth.listPets.basic-scheme'],
    wrap: skipAuthWhen((r) => /^Basic /.test(r.headers.authorization ?? '')),
  },
  {
    name: 'auth-accepts-empty-bearer',
    description: '"Bearer" with no token is accepted',
    clause: 'Authentication rule 1 (missing key)',
    caughtBy: ['auth.listPets.empty-bearer'],
    wrap: skipAuthWhen((r) => /^Bearer\s*$/.test(r.headers.authorization ?? '')),
  },
  {
    name: 'auth-accepts-any-token',
    description: 'any bearer token is accepted',
    clause: 'Authentication rule 1 (invalid key)',
    caughtBy: ['auth.listPets.wrong-token'],
    wrap: skipAuthWhen((r) => (bearerToken(r) ?? '') !== ''),
  },
  {
    name: 'auth-prefix-compare',
    description: 'a token is accepted when it starts with the key',
    clause: 'Authentication rule 1 (invalid key)',
    caughtBy: ['auth.listPets.appended-char'],
    wrap: skipAuthWhen((r, s) => (bearerToken(r) ?? '').startsWith(s.apiKey)),
  },
  {
    name: 'auth-truncated-compare',
    description: 'a token is accepted when the key starts with it',
    clause: 'Authentication rule 1 (invalid key)',
    caughtBy: ['auth.listPets.removed-char'],
    wrap: skipAuthWhen((r, s) => {
      const t = bearerToken(r) ?? '';
      return t.length > 0 && s.apiKey.startsWith(t);
    }),
  },
  {
    name: 'auth-validates-first',
    description: 'createPet validates the body before the key',
    clause: 'Authentication rule 1, whatever else is wrong',
    caughtBy: [
      'auth.createPet.before-validation',
      'auth.createPet.before-validation.trailing-data',
      'auth.createPet.before-validation.nan',
      'auth.createPet.before-validation.infinity',
      'auth.createPet.before-validation.keys-in-capitals',
    ],
    wrap: before(
      (r) => isCreate(r) && !r.headers.authorization,
      (req) => {
        const b = bodyOf(req);
        return isJsonObject(b) && typeof b['name'] === 'string' ? req : errorResponse(400, 'invalid_pet', 'name is required');
      },
    ),
  },
  {
    name: 'auth-401-empty-body',
    description: '401 answers carry no body',
    clause: 'Authentication rule 1: 401 with an Error body',
    caughtBy: ['auth.listPets.missing', 'expect.schema'],
    wrap: after((res) => (res.status === 401 ? { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: '' } : res)),
  },
  {
    name: 'auth-403-instead',
    description: 'a bad key gets 403 instead of 401',
    clause: 'Authentication rule 1: 401',
    caughtBy: ['auth.listPets.missing'],
    wrap: after((res) => (res.status === 401 ? errorResponse(403, 'forbidden', 'no') : res)),
  },
  {
    name: 'limit-default-50',
    description: 'without limit, 50 pets come back',
    clause: 'listPets rule 2: default 20',
    caughtBy: ['listPets.limit.default'],
    wrap: before(
      (r) => isList(r) && !r.query.has('limit'),
      (r) => withQuery(r, (q) => q.set('limit', '50')),
    ),
  },
  {
    name: 'limit-no-cap',
    description: 'limit above 100 is served in full',
    clause: 'Limits: maximum 100',
    caughtBy: ['listPets.limit.above-max'],
    wrap: before(
      (r) => isList(r) && Number(r.query.get('limit')) > 100,
      (r, s) => jsonResponse(200, s.catalogue.pageJson(Number(r.query.get('limit')))),
    ),
  },
  {
    name: 'limit-ignored',
    description: 'limit is ignored: always 20',
    clause: 'listPets: limit',
    caughtBy: ['listPets.limit.min'],
    wrap: before(isList, (r) => withQuery(r, (q) => q.delete('limit'))),
  },
  {
    name: 'limit-short-pages',
    description: 'limit N returns N-1 pets (limit=1 answers []), though the store holds more',
    clause: 'reading-the-contract: a page shorter than its limit holds every matching pet',
    caughtBy: ['listPets.limit.min', 'listPets.limit.max', 'store.listing-complete'],
    wrap: before(
      (r) => isList(r) && /^\d+$/.test(r.query.get('limit') ?? ''),
      (r, s) =>
        jsonResponse(
          200,
          s.catalogue.pageJson(
            Math.max(0, Number(r.query.get('limit')) - 1),
            (r.query.get('status') ?? undefined) as PetStatus | undefined,
          ),
        ),
    ),
  },
  {
    name: 'limit-off-by-one',
    description: 'limit N returns N+1 pets',
    clause: 'listPets: limit is the maximum returned',
    caughtBy: ['listPets.limit.min'],
    wrap: before(
      (r) => isList(r) && /^\d+$/.test(r.query.get('limit') ?? ''),
      (r, s) =>
        jsonResponse(
          200,
          s.catalogue.pageJson(Number(r.query.get('limit')) + 1, (r.query.get('status') ?? undefined) as PetStatus | undefined),
        ),
    ),
  },
  {
    name: 'limit-500-on-malformed',
    description: 'a non-numeric limit crashes the server',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['listPets.limit.not-a-number'],
    wrap: before(
      (r) => isList(r) && /[a-z]/.test(r.query.get('limit') ?? ''),
      () => errorResponse(500, 'internal', 'NaN'),
    ),
  },
  {
    name: 'limit-zero-returns-all',
    description: 'limit=0 returns every pet',
    clause: 'Limits: maximum 100',
    caughtBy: ['listPets.limit.below-min'],
    wrap: before(
      (r) => isList(r) && r.query.get('limit') === '0',
      (_r, s) => jsonResponse(200, s.catalogue.pageJson(s.catalogue.size)),
    ),
  },
  {
    name: 'limit-max-rejected',
    description: 'limit=100 is refused (cap off by one)',
    clause: 'Limits: maximum 100',
    caughtBy: ['listPets.limit.max'],
    wrap: before(
      (r) => isList(r) && r.query.get('limit') === '100',
      () => errorResponse(400, 'invalid_limit', 'too big'),
    ),
  },
  {
    name: 'filter-ignored',
    description: 'the status filter is ignored',
    clause: 'listPets rule 1',
    caughtBy: ['listPets.filter.sold'],
    wrap: before(isList, (r) => withQuery(r, (q) => q.delete('status'))),
  },
  {
    name: 'filter-leaky',
    description: 'status=pending also returns a sold pet',
    clause: 'listPets rule 1',
    caughtBy: ['listPets.filter.pending'],
    wrap: after((res, req, s) =>
      isList(req) && req.query.get('status') === 'pending' && res.status === 200
        ? mapJson(res, (b) => [...(b as JsonValue[]), ...(parseExactJson(s.catalogue.pageJson(1, 'sold')) as JsonValue[])])
        : res,
    ),
  },
  {
    name: 'filter-500-unknown',
    description: 'an unknown status value crashes the server',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['listPets.filter.unknown-value'],
    wrap: before(
      (r) => isList(r) && r.query.has('status') && !(PET_STATUSES as readonly string[]).includes(r.query.get('status') ?? ''),
      () => errorResponse(500, 'internal', 'bad enum'),
    ),
  },
  {
    name: 'filter-misses-new',
    description: 'filtered listings show only the seeded pets',
    clause: 'listPets rule 1: a page that is not full holds every match',
    caughtBy: ['listPets.filter.pending.created', 'lifecycle.created.listed'],
    wrap: (next, store) => {
      const seeded = BigInt(store.catalogue.size);
      return async (req) => {
        const res = await next(req);
        return isList(req) && req.query.has('status') && res.status === 200
          ? mapJson(res, (b) => (b as JsonValue[]).filter((p) => isJsonObject(p) && BigInt(p['id'] as number) <= seeded))
          : res;
      };
    },
  },
  {
    name: 'create-accepts-missing-name',
    description: 'a pet without name is created',
    clause: 'createPet rule 1: name is required',
    caughtBy: ['createPet.invalid.no-name'],
    wrap: createBody((b) => {
      if (b['name'] === undefined) b['name'] = 'unnamed';
    }),
  },
  {
    name: 'create-accepts-missing-category',
    description: 'a pet without categoryId is created',
    clause: 'createPet rule 1: categoryId is required',
    caughtBy: ['createPet.invalid.no-category'],
    wrap: createBody((b) => {
      if (b['categoryId'] === undefined) b['categoryId'] = 1;
    }),
  },
  {
    name: 'create-accepts-string-category',
    description: 'a string categoryId is coerced',
    clause: 'createPet rule 2: invalid values',
    caughtBy: ['createPet.invalid.category-string'],
    wrap: createBody((b) => {
      if (typeof b['categoryId'] === 'string') b['categoryId'] = 1;
    }),
  },
  {
    name: 'create-accepts-float-category',
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
    description: 'an unknown status is dropped, not refused',
    clause: 'PetStatus enumeration',
    caughtBy: ['createPet.invalid.status-unknown'],
    wrap: createBody((b) => {
      if (!(PET_STATUSES as readonly unknown[]).includes(b['status'])) delete b['status'];
    }),
  },
  {
    name: 'create-accepts-array-body',
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
    description: 'createPet answers 200 instead of 201',
    clause: 'createPet: success 201',
    caughtBy: ['createPet.created'],
    wrap: after((res, req) => (isCreate(req) && res.status === 201 ? { ...res, status: 200 } : res)),
  },
  {
    name: 'create-omits-id',
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
    description: 'every created pet is reported with id 1',
    clause: 'Pet: id is unique',
    caughtBy: ['createPet.distinct-ids'],
    wrap: after((res, req) =>
      isCreate(req) && res.status === 201 ? mapJson(res, (b) => ({ ...(b as Record<string, JsonValue>), id: 1 })) : res,
    ),
  },
  {
    name: 'create-not-persisted',
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
    name: 'name-emoji-500',
    description: 'a name with a character outside the BMP crashes the server (utf8mb3)',
    clause: 'reading-the-contract: strings round-trip in any Unicode, never a 5xx',
    caughtBy: ['coverage.createPet.name.emoji'],
    wrap: createCrashesOn((text) => /[\u{10000}-\u{10FFFF}]/u.test(text), 'Incorrect string value'),
  },
  {
    name: 'name-long-500',
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
    description: 'non-ASCII names are read as Latin-1 and come back mangled',
    clause: 'reading-the-contract: strings round-trip exactly in any Unicode',
    caughtBy: ['coverage.createPet.name.latin-1', 'coverage.createPet.name.cjk'],
    wrap: createBody((b) => {
      const n = b['name'];
      if (typeof n === 'string') b['name'] = Buffer.from(n, 'utf8').toString('latin1');
    }),
  },
  {
    name: 'auth-key-case-insensitive',
    description: 'the key is compared without regard to letter case',
    clause: 'Authentication rule 1: the key is compared exactly',
    caughtBy: ['auth.listPets.swapped-case'],
    wrap: skipAuthWhen((r, s) => (bearerToken(r) ?? '').toLowerCase() === s.apiKey.toLowerCase()),
  },
  {
    name: 'auth-scheme-ignored',
    description: 'the key is accepted under any scheme, or none',
    clause: 'Authentication: the scheme is Bearer; the key under another scheme is a wrong credential',
    caughtBy: ['auth.listPets.basic-raw', 'auth.listPets.token-scheme', 'auth.listPets.no-scheme'],
    wrap: skipAuthWhen((r, s) => (r.headers.authorization ?? '').split(' ').at(-1) === s.apiKey),
  },
  {
    name: 'status-case-folded',
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
    name: 'get-unknown-200',
    description: 'an unknown id returns some other pet',
    clause: 'getPet rule 3: 404',
    caughtBy: ['getPet.unknown-id'],
    wrap: after((res, req) => (isGet(req) && res.status === 404 ? jsonResponse(200, FIRST_SEEDED_PET) : res)),
  },
  {
    name: 'get-unknown-500',
    description: 'an unknown id crashes the server',
    clause: 'getPet rule 3: 404',
    caughtBy: ['getPet.unknown-id'],
    wrap: after((res, req) => (isGet(req) && res.status === 404 ? errorResponse(500, 'internal', 'null pointer') : res)),
  },
  {
    name: 'get-malformed-500',
    description: 'a non-numeric id crashes the server',
    clause: 'getPet: petId is int64; never a 5xx',
    caughtBy: ['getPet.malformed.not-a-number'],
    wrap: after((res, req) => (isGet(req) && res.status === 400 ? errorResponse(500, 'internal', 'NumberFormatException') : res)),
  },
  {
    name: 'get-404-plain-text',
    description: 'getPet answers 404 with a plain-text body',
    clause: 'Errors: every error body is an Error',
    caughtBy: ['getPet.unknown-id'],
    wrap: after((res, req) =>
      isGet(req) && res.status === 404 ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' } : res,
    ),
  },
  {
    name: 'error-status-mismatch',
    description: 'Error.status is always 400',
    clause: 'Errors rule 1: status equals the HTTP status',
    caughtBy: ['errors.error-body'],
    wrap: after((res) => (isError(res) ? mapJson(res, (b) => ({ ...(b as Record<string, JsonValue>), status: 400 })) : res)),
  },
  {
    name: 'error-missing-message',
    description: 'Error bodies lack message',
    clause: 'Error: message is required',
    caughtBy: ['errors.error-body'],
    wrap: after((res) =>
      isError(res)
        ? mapJson(res, (b) => {
            const { message: _m, ...rest } = b as Record<string, JsonValue>;
            return rest;
          })
        : res,
    ),
  },
  {
    name: 'error-html-400',
    description: 'createPet answers 400 with an HTML page',
    clause: 'Errors: every error body is an Error; the wire format is JSON',
    caughtBy: ['wire.json-body', 'errors.error-body'],
    wrap: after((res, req) =>
      isCreate(req) && res.status === 400
        ? { status: 400, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>Bad Request</h1></body></html>' }
        : res,
    ),
  },
  {
    name: 'json-as-text-plain',
    description: 'JSON bodies are labelled text/plain',
    clause: 'The wire format is JSON over HTTP',
    caughtBy: ['wire.json-content-type'],
    wrap: after((res) => ({ ...res, headers: { ...res.headers, 'content-type': 'text/plain' } })),
  },
  {
    name: 'ids-as-double',
    description: 'ids above 2^53 are written through a double',
    clause: 'Pet: id is int64; exact values survive',
    caughtBy: ['getPet.read-back'],
    server: { firstId: 2n ** 60n + 1n },
    wrap: after((res) =>
      mapJson(res, function round(b: JsonValue): JsonValue {
        if (Array.isArray(b)) return b.map(round);
        if (isJsonObject(b) && typeof b['id'] === 'bigint') return { ...b, id: BigInt(Number(b['id'])) };
        return b;
      }),
    ),
  },
  {
    name: 'get-removed-early',
    description: 'getPet is already gone (410) before 5 December 2030',
    clause: 'getPet rule 1: removed on 5 December 2030',
    caughtBy: ['deprecation.getPet.available'],
    wrap: before(isGet, () => errorResponse(410, 'gone', 'removed')),
  },
  {
    name: 'get-served-after-removal',
    description: 'getPet is still served after 5 December 2030',
    clause: 'getPet rule 1: removed on 5 December 2030',
    caughtBy: ['deprecation.getPet.removed'],
    clock: '2030-12-06',
  },
  {
    name: 'sunset-wrong-date',
    description: 'the Sunset header names the wrong day',
    clause: 'getPet: removed on 5 December 2030 (RFC 8594 Sunset)',
    caughtBy: ['deprecation.getPet.available'],
    wrap: after((res, req) =>
      isGet(req) && res.headers['sunset'] ? { ...res, headers: { ...res.headers, sunset: 'Wed, 01 Jan 2031 00:00:00 GMT' } } : res,
    ),
  },
  {
    name: 'small-store-ignores-limit',
    description: 'a store of 13 pets that ignores limit and returns every pet',
    clause: 'listPets: at most limit items',
    caughtBy: ['listPets.limit.min'],
    server: { seed: { available: 5, pending: 5, sold: 3 } },
    wrap: after((res, r, s) =>
      isList(r) && res.status === 200
        ? jsonResponse(200, s.catalogue.pageJson(s.catalogue.size, (r.query.get('status') ?? undefined) as PetStatus | undefined))
        : res,
    ),
  },
  {
    name: 'filter-no-default-cap',
    description: 'with a status filter and no limit, every matching pet is returned',
    clause: 'listPets rule 2: at most 20 without limit, filtered or not',
    caughtBy: ['listPets.filter.default-page'],
    wrap: before(
      (r) => isList(r) && r.query.has('status') && !r.query.has('limit'),
      (r) => withQuery(r, (q) => q.set('limit', '100')),
    ),
  },
  {
    name: 'hangs-on-one-query',
    description: 'GET /pets?limit=99 is never answered while everything else is',
    clause: 'reading-the-contract: a valid request left unanswered while the server answers others',
    caughtBy: ['server.answers'],
    wrap: (next) => (req) => (isList(req) && req.query.get('limit') === '99' ? new Promise<PetResponse>(() => undefined) : next(req)),
  },
  {
    name: 'intermittent-500',
    description: 'every fifth request fails with 500',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['server.no-5xx'],
    wrap: (next) => {
      let n = 0;
      return (req) => (++n % 5 === 0 ? errorResponse(500, 'internal', 'flaky') : next(req));
    },
  },
  {
    name: 'create-replaces-pet-1',
    description: 'every created pet is given id 1, and silently replaces the pet that had it',
    clause: 'reading-the-contract: an id once seen is never handed to another pet; a pet seen once reads back the same',
    caughtBy: ['store.unique-ids', 'lifecycle.seen.read-back', 'store.reads-back-same'],
    wrap: (next) => {
      let replaced: JsonValue | undefined;
      const isPetOne = (p: JsonValue): boolean => isJsonObject(p) && String(p['id']) === '1';
      return async (req) => {
        if (isGet(req) && /\/1$/.test(req.path) && replaced !== undefined) return jsonResponse(200, stringifyExactJson(replaced));
        const res = await next(req);
        if (isCreate(req) && res.status === 201) {
          const body = jsonOf(res);
          if (isJsonObject(body)) replaced = { ...body, id: 1 };
          return replaced === undefined ? res : jsonResponse(201, stringifyExactJson(replaced));
        }
        if (isList(req) && res.status === 200 && replaced !== undefined)
          return mapJson(res, (items) => (items as JsonValue[]).map((p) => (isPetOne(p) ? (replaced as JsonValue) : p)));
        return res;
      };
    },
  },
  {
    name: 'get-misreads-seed',
    description: 'getPet answers the pets the store was seeded with by another name (a read replica out of step with the listings)',
    clause: 'reading-the-contract: a pet seen once reads back the same',
    caughtBy: ['lifecycle.seen.read-back', 'store.reads-back-same'],
    wrap: (next, store) => {
      const seeded = BigInt(store.catalogue.size);
      return async (req) => {
        const res = await next(req);
        if (!isGet(req) || res.status !== 200) return res;
        return mapJson(res, (pet) =>
          isJsonObject(pet) && BigInt(String(pet['id'])) <= seeded ? { ...pet, name: `${String(pet['name']).toUpperCase()}` } : pet,
        );
      };
    },
  },
  {
    name: 'drops-limit-100',
    description: 'a listing with limit=100 is never answered: the connection is closed (a proxy that dies on it), every other request is',
    clause: 'reading-the-contract: a valid request left unanswered while the server answers others is broken (exit 1, not 2)',
    caughtBy: ['listPets.limit.max', 'server.answers'],
    wrap: before(
      (r) => isList(r) && r.query.get('limit') === '100',
      () => ({ status: 0, headers: {}, body: '', drop: true }),
    ),
  },
  {
    name: 'auth-scheme-suffix',
    description: 'the key is accepted under any scheme that ends in "bearer" (XBearer): the Bearer match lost its start anchor',
    clause: 'Authentication: the key under another scheme is a wrong credential (401)',
    caughtBy: ['auth.listPets.scheme-suffix', 'auth.createPet.scheme-suffix', 'auth.getPet.scheme-suffix'],
    wrap: leniently(/bearer +(\S+) *$/i),
  },
  {
    name: 'auth-trailing-token',
    description: 'the key followed by a space and more is accepted (Bearer <key> x): the Bearer match lost its end anchor',
    clause: 'Authentication: the key is compared exactly (401 for anything else)',
    caughtBy: ['auth.listPets.trailing-token', 'auth.createPet.trailing-token', 'auth.getPet.trailing-token'],
    wrap: leniently(/^bearer +(\S+)/i),
  },
  {
    name: 'json-lenient',
    description:
      "createPet reads JSON leniently, as Go's json.Decoder with case-insensitive fields and Python's json module do: trailing text ignored, keys in any case, NaN and Infinity taken",
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
    description:
      'createPet decodes a body that is not UTF-8 with U+FFFD in place of the bad bytes, and stores it (as Go, Express, Fastify and Hono do)',
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
    description: 'a name holding a lone surrogate escape crashes createPet (500), as FastAPI did when it encoded the pet',
    clause: 'reading-the-contract: a lone surrogate is refused with 400 or stored and read back exactly; never a 5xx',
    caughtBy: ['coverage.createPet.malformed.lone-high-surrogate', 'coverage.createPet.malformed.lone-low-surrogate'],
    wrap: createCrashesOn((text) => LONE_SURROGATE_ESCAPE.test(text), 'surrogates not allowed'),
  },
  {
    name: 'surrogate-poisons-store',
    description:
      'a name holding a lone surrogate escape is stored, and then every answer that would show it is a 500 (the create included), as FastAPI did',
    clause:
      'reading-the-contract: a lone surrogate is refused with 400 or stored and read back exactly; never a store whose reads fail afterwards',
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
    name: 'refusal-stores',
    description:
      'a createPet refused with 400 for a status outside the enum has already stored the pet, without its status (validation after the write)',
    clause: 'reading-the-contract: never a store changed by a refused request',
    caughtBy: ['lifecycle.store-health'],
    // Newest first, so that the plain listing holds the pet whatever the store held before.
    wrap: (next, store) => async (req) => {
      const res = await newestFirst(next, store)(req);
      const body = bodyOf(req);
      if (
        isCreate(req) &&
        res.status === 400 &&
        isJsonObject(body) &&
        typeof body['name'] === 'string' &&
        typeof body['status'] === 'string'
      ) {
        const categoryId = body['categoryId'];
        if (Number.isSafeInteger(categoryId)) store.catalogue.add({ name: body['name'], categoryId: BigInt(categoryId as number) });
      }
      return res;
    },
  },
  {
    name: 'surrogate-replaced',
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
    description: 'a body nested deeper than 100 levels crashes createPet (500), as a recursive parser does (Flask: RecursionError)',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['coverage.createPet.malformed.deep-nesting'],
    wrap: createCrashesOn((text) => /[[{]{100}/.test(text), 'maximum recursion depth exceeded'),
  },
  {
    name: 'client-id-crash',
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
    description:
      "a categoryId at the edges of JSON's number grammar (-0, 1e400) crashes createPet (500), as a strict decimal-to-integer conversion that raises does",
    clause: 'reading-the-contract: a number that is not an int64 is an invalid value (400); never a 5xx',
    caughtBy: ['coverage.createPet.malformed.1e400', 'coverage.createPet.malformed.minus-zero'],
    wrap: createCrashesOn((text) => /"categoryId":(-0|\d+e\d+)[,}]/i.test(text), 'cannot convert float infinity to integer'),
  },
  {
    name: 'bom-500',
    description: 'a body that starts with a byte order mark crashes createPet (500), as a parser that raises on one does',
    clause: 'reading-the-contract: a parser may ignore a byte order mark or refuse the body with 400; never a 5xx',
    caughtBy: ['coverage.createPet.malformed.byte-order-mark'],
    wrap: createCrashesOn((text) => text.startsWith('\ufeff'), 'Unexpected UTF-8 BOM'),
  },
  {
    name: 'body-limit-html',
    description: "a body beyond the store's bound is refused with 413 and an HTML page, as Express's default error handler does",
    clause: 'reading-the-contract: a refusal is a 4xx with an Error body',
    caughtBy: ['coverage.createPet.name.length-1mib'],
    wrap: before(
      (r) => isCreate(r) && r.tooLarge === true,
      () => ({ status: 413, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><h1>PayloadTooLargeError</h1>' }),
    ),
  },
  {
    name: 'listing-wrapped',
    description: 'every listing is wrapped in an object: {"items": [...]}',
    clause: 'Endpoints › listPets: 200, body is Pets (an array)',
    caughtBy: ['listPets.ok', 'contract.response-schema'],
    wrap: after((res, req) => (isList(req) && res.status === 200 ? mapJson(res, (items) => ({ items })) : res)),
  },
  {
    name: 'listing-duplicate-keys',
    description: 'every pet of a listing repeats its name key with another value (RFC 8259 §4: parsers disagree on which wins)',
    clause: 'What the service does: the wire format is JSON (a Pet has one name)',
    caughtBy: ['listPets.ok', 'wire.json-body'],
    wrap: after((res, req) =>
      isList(req) && res.status === 200
        ? { ...res, body: res.body.replace(/"name":("(?:[^"\\]|\\.)*")/g, '"name":$1,"name":"another name"') }
        : res,
    ),
  },
  {
    name: 'listing-bom',
    description: 'every listing starts with a UTF-8 byte order mark (RFC 8259 §8.1: a sender must not add one)',
    clause: 'What the service does: the wire format is JSON (RFC 8259)',
    caughtBy: ['listPets.ok', 'wire.json-body'],
    wrap: after((res, req) => (isList(req) && res.status === 200 ? { ...res, body: `\uFEFF${res.body}` } : res)),
  },
  {
    name: 'filter-lenient',
    description:
      'the status filter is read leniently: trimmed, in any letter case, by prefix either way, empty as none; a repeated one crashes',
    clause: 'reading-the-contract: with status, only pets of exactly that status; a value outside the enum matches no pet',
    caughtBy: [
      'listPets.filter.near.prefix',
      'listPets.filter.near.suffix',
      'listPets.filter.near.case',
      'listPets.filter.near.upper',
      'listPets.filter.near.leading-space',
      'listPets.filter.near.trailing-space',
      'listPets.filter.near.empty',
      'listPets.filter.near.repeated',
      'store.listing-status',
    ],
    wrap: before(
      (r) => isList(r) && r.query.has('status'),
      (r) => {
        const asked = r.query.getAll('status');
        // As Express's `req.query.status.trim()` does on an array.
        if (asked.length > 1) return errorResponse(500, 'internal', 'status.trim is not a function');
        const wanted = (asked[0] ?? '').trim().toLowerCase();
        const match = PET_STATUSES.find((s) => wanted !== '' && (s.startsWith(wanted) || wanted.startsWith(s)));
        return withQuery(r, (q) => (match === undefined && wanted === '' ? q.delete('status') : q.set('status', match ?? wanted)));
      },
    ),
  },
  {
    name: 'ids-lenient',
    description:
      "getPet reads its id leniently: trailing letters dropped, underscores removed, hexadecimal, any script's digits, wrapped to 64 bits",
    clause: 'reading-the-contract: a malformed or out-of-range petId names no animal, so it is never answered 200 with a pet',
    caughtBy: [
      'getPet.malformed.trailing-letters',
      'getPet.malformed.underscore',
      'getPet.malformed.hex',
      'getPet.malformed.arabic-indic',
      'getPet.malformed.full-width',
      'getPet.malformed.wrapped',
      'store.get-requested-pet',
    ],
    wrap: before(isGet, (r) => {
      const raw = decodeURIComponent(r.path.split('/').at(-1) ?? '').replace(/\p{Nd}/gu, (d) => String(digitOf(d)));
      const hex = /^0x([0-9a-f]+)/i.exec(raw);
      const digits = hex === null ? /^-?[\d_]+/.exec(raw)?.[0]?.replaceAll('_', '') : undefined;
      const value =
        hex !== null
          ? BigInt(`0x${hex[1] as string}`)
          : digits !== undefined && digits !== '' && digits !== '-'
            ? BigInt(digits)
            : undefined;
      return value === undefined ? r : { ...r, path: r.path.replace(/[^/]+$/, BigInt.asIntN(64, value).toString()) };
    }),
  },
  {
    name: 'ids-safe-integers',
    description: "getPet refuses every id beyond 2^53 with 400 (a validator capped at JavaScript's safe integers, as zod's int() is)",
    clause: 'reading-the-contract: any id above 2^53 is a valid int64: an unknown one is a 404, never a 400',
    caughtBy: ['getPet.unknown-id.above-2-53', 'getPet.unknown-id.int64-max', 'getPet.unknown-id.int64-min'],
    wrap: before(
      (r) => isGet(r) && !Number.isSafeInteger(Number(r.path.split('/').at(-1))),
      () => errorResponse(400, 'invalid_id', 'petId must be a safe integer'),
    ),
  },
  {
    name: 'body-before-auth',
    description:
      'createPet parses its body before it looks at the key: a body that is not a JSON object gets 400 whatever the key (as a JSON body parser mounted before auth does)',
    clause: 'Authentication rule 1: 401 whatever else is wrong with the request',
    caughtBy: [
      'auth.createPet.before-validation.malformed-json',
      'auth.createPet.before-validation.not-json',
      'auth.createPet.before-validation.empty',
    ],
    wrap: before(
      (r) => isCreate(r) && !isJsonObject(bodyOf(r)),
      () => errorResponse(400, 'invalid_body', 'the body is not a JSON object'),
    ),
  },
  {
    name: 'create-idempotent-by-body',
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
];

const conformant: Array<Omit<Variant, 'verdict'>> = [
  { name: 'reference', description: 'the reference server as it is', clause: 'all', caughtBy: [] },
  {
    name: 'clamps-limit',
    description: 'out-of-range or malformed limits are clamped, not refused',
    clause: 'Limits (silent outside 1..100)',
    caughtBy: [],
    wrap: before(
      (r) => isList(r) && r.query.has('limit'),
      (r) =>
        withQuery(r, (q) => {
          const n = Number.parseInt(q.getAll('limit')[0] ?? '', 10);
          q.set('limit', String(Number.isNaN(n) ? 20 : Math.min(100, Math.max(1, n))));
        }),
    ),
  },
  {
    name: 'extra-fields',
    description: 'responses carry fields the contract does not name',
    clause: 'Resources (extra fields are not forbidden)',
    caughtBy: [],
    wrap: after((res) =>
      mapJson(res, function extend(b: JsonValue): JsonValue {
        if (Array.isArray(b)) return b.map(extend);
        return isJsonObject(b) ? { ...b, tags: ['friendly'], createdAt: '2026-01-01T00:00:00Z' } : b;
      }),
    ),
  },
  {
    name: 'default-status-available',
    description: 'a pet created without status becomes available',
    clause: 'States: the default status is not stated',
    caughtBy: [],
    wrap: createBody((b) => {
      if (b['status'] === undefined) b['status'] = 'available';
    }),
  },
  {
    name: 'newest-first',
    description: 'listings are ordered newest first',
    clause: 'listPets (the order is not stated)',
    caughtBy: [],
    wrap: newestFirst,
  },
  {
    name: 'malformed-id-404',
    description: 'malformed petIds get 404 rather than 400',
    clause: 'getPet (a malformed id is not described)',
    caughtBy: [],
    wrap: after((res, req) => (isGet(req) && res.status === 400 ? errorResponse(404, 'not_found', 'no such pet') : res)),
  },
  {
    name: 'rejects-unknown-fields',
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
    name: 'unprocessable-422',
    description: 'undocumented conditions (bad limit, unknown status value, malformed petId) get 422 with an Error (warned)',
    clause: 'reading-the-contract: another 4xx for a request the contract gives no response for warns',
    caughtBy: [],
    warnedBy: ['listPets.limit.not-a-number', 'listPets.filter.unknown-value', 'getPet.malformed.not-a-number'],
    wrap: after((res, req) =>
      (isList(req) || isGet(req)) && res.status === 400 ? errorResponse(422, 'unprocessable', 'the request is not valid') : res,
    ),
  },
  {
    name: 'rate-limited',
    description: `at most ${RATE_LIMIT} requests per second; beyond, 429 with Retry-After: 1`,
    clause: 'reading-the-contract: rate limits are never a verdict on the contract',
    caughtBy: [],
    wrap: (next) => {
      let tokens = RATE_LIMIT;
      let refilled = Date.now();
      return (req) => {
        const now = Date.now();
        tokens = Math.min(RATE_LIMIT, tokens + ((now - refilled) / 1000) * RATE_LIMIT);
        refilled = now;
        if (tokens < 1) return errorResponse(429, 'too_many_requests', 'slow down', { 'retry-after': '1' });
        tokens -= 1;
        return next(req);
      };
    },
  },
  {
    name: 'closes-idle-connections',
    description: 'every third GET on a kept-alive connection finds it closed under it (no answer)',
    clause: 'reading-the-contract: a server may close idle keep-alive connections',
    caughtBy: [],
    // Only idempotent requests may be sent again, so the race is staged on GETs; a POST caught by it could not be tested by any client.
    wrap: (next) => {
      let reused = 0;
      return (req) =>
        req.method === 'GET' && req.reusedConnection === true && ++reused % 3 === 0
          ? { status: 0, headers: {}, body: '', drop: true }
          : next(req);
    },
  },
  {
    name: 'big-ids',
    description: 'ids are handed out above 2^53',
    clause: 'Pet: id is int64',
    caughtBy: [],
    server: { firstId: 2n ** 60n + 7n },
  },
  {
    name: 'connection-close',
    description: 'every response closes the connection',
    clause: 'HTTP (connection management is not described)',
    caughtBy: [],
    wrap: after((res) => ({ ...res, headers: { ...res.headers, connection: 'close' } })),
  },
  {
    name: 'eventual-listing',
    description: 'a new pet shows in listings only after 300 ms',
    clause: 'reading-the-contract: read-after-write may be eventually consistent',
    caughtBy: [],
    wrap: (next) => {
      const born = new Map<string, number>();
      return async (req) => {
        const res = await next(req);
        if (isCreate(req) && res.status === 201) {
          const b = jsonOf(res);
          if (isJsonObject(b)) born.set(String(b['id']), Date.now());
        }
        if (!isList(req) || res.status !== 200) return res;
        return mapJson(res, (b) =>
          (b as JsonValue[]).filter((p) => !isJsonObject(p) || Date.now() - (born.get(String(p['id'])) ?? 0) >= 300),
        );
      };
    },
  },
  {
    name: 'empty-store',
    description: 'the store starts empty',
    clause: 'listPets (the contract promises no pets)',
    caughtBy: [],
    server: { seed: { available: 0, pending: 0, sold: 0 } },
  },
  {
    name: 'large-store',
    description: 'a thousand pets of each status: every page is full',
    clause: 'listPets (pagination beyond limit is not shown)',
    caughtBy: [],
    server: { seed: { available: 1000, pending: 1000, sold: 1000 } },
  },
  {
    name: 'no-optional-headers',
    description: 'no WWW-Authenticate, Deprecation, Sunset or Link headers (warnings only)',
    clause: 'RFC 6750 / 9745 / 8594 recommendations',
    caughtBy: [],
    warnedBy: ['auth.www-authenticate', 'deprecation.getPet.available'],
    wrap: after((res) => {
      const { 'www-authenticate': _w, deprecation: _d, sunset: _s, link: _l, ...headers } = res.headers;
      return { ...res, headers };
    }),
  },
  {
    name: 'deprecation-everywhere',
    description: 'every response says Deprecation and Sunset, listPets and createPet included (warnings only)',
    clause: 'reading-the-contract: only getPet is deprecated',
    caughtBy: [],
    warnedBy: ['contract.undeclared-deprecation'],
    wrap: after((res) => ({ ...res, headers: { deprecation: '@1924905600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', ...res.headers } })),
  },
  {
    name: 'unknown-status-empty',
    description: 'an unknown status filter value returns an empty list',
    clause: 'listPets (an unknown status is not described)',
    caughtBy: [],
    wrap: before(
      (r) => isList(r) && r.query.has('status') && !(PET_STATUSES as readonly string[]).includes(r.query.get('status') ?? ''),
      () => jsonResponse(200, '[]'),
    ),
  },
  {
    name: 'rejects-client-id',
    description: 'a body with an id is refused with 400',
    clause: 'Pet rule 1: a client does not supply the id',
    caughtBy: [],
    wrap: before(isCreate, (r) => {
      const b = bodyOf(r);
      return isJsonObject(b) && b['id'] !== undefined ? errorResponse(400, 'id_not_allowed', 'id is assigned by the service') : r;
    }),
  },
  {
    name: 'removed-on-time',
    description: 'after 5 December 2030 getPet is gone (410)',
    clause: 'getPet rule 1',
    caughtBy: [],
    server: { now: '2030-12-06T00:00:00Z' },
    clock: '2030-12-06',
  },
  {
    name: 'removed-404',
    description: 'after 5 December 2030 getPet answers 404',
    clause: 'getPet rule 1',
    caughtBy: [],
    server: { now: '2030-12-06T00:00:00Z' },
    clock: '2030-12-06',
    wrap: after((res) => (res.status === 410 ? errorResponse(404, 'not_found', 'no such route') : res)),
  },
  {
    name: 'deprecation-true',
    description: 'getPet says "Deprecation: true" (an older draft\'s form; warned)',
    clause: 'getPet deprecated (RFC 9745 Deprecation)',
    caughtBy: [],
    warnedBy: ['deprecation.getPet.available'],
    wrap: after((res, req) =>
      isGet(req) && res.headers['deprecation'] !== undefined ? { ...res, headers: { ...res.headers, deprecation: 'true' } } : res,
    ),
  },
  {
    name: 'lowercase-scheme-refused',
    description: '"bearer" in lower case is refused (warned: schemes are case-insensitive)',
    clause: 'Authentication (RFC 9110 §11.1)',
    caughtBy: [],
    warnedBy: ['auth.listPets.lowercase-scheme', 'auth.createPet.lowercase-scheme', 'auth.getPet.lowercase-scheme'],
    wrap: before(
      (r) => /^bearer /.test(r.headers.authorization ?? ''),
      () => errorResponse(401, 'unauthorized', 'use Bearer', { 'www-authenticate': 'Bearer' }),
    ),
  },
  {
    name: 'unversioned-base',
    description: 'the API is served under /api rather than /v1 (warned)',
    clause: 'Versioning rule 1: /v1 ends the base address',
    caughtBy: [],
    warnedBy: ['versioning.base-path'],
    basePath: '/api',
    wrap: (next) => (req) => next({ ...req, path: req.path.replace(/^\/api(?=\/|$)/, '/v1') }),
  },
];

const unrunnable: Array<Omit<Variant, 'verdict'>> = [
  {
    name: 'wrong-base-path',
    description: 'the base URL given lacks /v1, so GET /pets answers 404',
    clause: 'Versioning: /v1 ends the base address',
    caughtBy: [],
    basePath: '',
    stopsWith: 'does the base URL end in /v1?',
  },
  {
    name: 'rate-limited-for-a-day',
    description: 'every request answers 429 with Retry-After: 86400',
    clause: 'reading-the-contract: rate limits are never a verdict',
    caughtBy: [],
    stopsWith: 'longer than one wait may take',
    wrap: () => () => errorResponse(429, 'too_many_requests', 'come back tomorrow', { 'retry-after': '86400' }),
  },
  {
    name: 'dies-mid-run',
    description: 'after its 40th request the server closes every connection without answering',
    clause: 'reading-the-contract: the run could not be completed',
    caughtBy: [],
    stopsWith: 'the server stopped answering',
    wrap: (next) => {
      let n = 0;
      return (req) => (++n > 40 ? { status: 0, headers: {}, body: '', drop: true } : next(req));
    },
  },
];

/** Every variant: broken first, then conformant, then those no run can complete. */
export const VARIANTS: readonly Variant[] = [
  ...broken.map((v) => ({ ...v, verdict: 'broken' as const })),
  ...conformant.map((v) => ({ ...v, verdict: 'conformant' as const })),
  ...unrunnable.map((v) => ({ ...v, verdict: 'unrunnable' as const })),
];

/**
 * A behaviour that shows only under load, over a stage long enough to see it: judged by the load checks of a profile, not by
 * the functional matrix (whose runs are a few hundred requests). `npm run bench:trend` runs each under LOAD_VARIANT_PROFILE;
 * test/matrix.test.ts holds their names and checks to the registry.
 */
export interface LoadVariant {
  name: string;
  description: string;
  clause: string;
  /** Load checks that must fail under the profile (none: a service the profile must pass). */
  caughtBy: readonly string[];
  /** Load checks that must pass under it. */
  passes: readonly string[];
  wrap: Wrap;
}

/** The profile the load variants are judged under: the shipped nightly profile, shortened to a 20 s stage. */
export const LOAD_VARIANT_PROFILE = { name: 'nightly', duration: 20 } as const;

/** The leaking listPets: answers after the LEAK_AFTERth are each this much slower than the one before (20 ms per 1,000). */
export const LEAK_AFTER = 3000;
const LEAK_MS_PER_ANSWER = 0.02;

/** The delay the leaking server adds to its `n`th listPets answer (from 1). */
export function leakDelayMs(n: number): number {
  return Math.max(0, n - LEAK_AFTER) * LEAK_MS_PER_ANSWER;
}

/** The pausing server: every PAUSE_EVERY_MS (at the first request after it) its event loop stops for PAUSE_MS, as a full collection would. */
const PAUSE_EVERY_MS = 2000;
const PAUSE_MS = 50;

/** The capped server answers listPets at most this many times a second, evenly spaced, however many wait. */
const CAPPED_RATE = 150;

/** When the capped server answers a request that came at `now`, its previous slot ending at `free`: the next free slot. */
export function cappedSlot(now: number, free: number): number {
  return Math.max(now, free);
}

/** Blocks the thread for `ms`: nothing else runs meanwhile, as under a stop-the-world collection. */
function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: the point is that nothing else runs.
  }
}

/** The checks of nightly's bounds (and the implicit one on resets): what a load variant that keeps them passes. */
const NIGHTLY_BOUNDS = ['p50', 'p90', 'p99', 'rps', 'errors', 'timeouts', 'resets', 'non2xx', 'mismatches'].map((m) => `load.${m}`);

/** Behaviours that show only under load. */
export const LOAD_VARIANTS: readonly LoadVariant[] = [
  {
    name: 'leaking-list',
    description: `after ${LEAK_AFTER} listPets answers each is ${LEAK_MS_PER_ANSWER} ms slower than the one before (20 ms more per 1,000): a leak that stays within nightly's bounds over a 20 s stage`,
    clause: 'a service under steady load keeps its latency (the trend of a nightly or soak run)',
    caughtBy: ['load.trend'],
    passes: NIGHTLY_BOUNDS,
    wrap: (next) => {
      let answers = 0;
      return async (req) => {
        if (!isList(req)) return next(req);
        const delay = leakDelayMs(++answers);
        if (delay > 0) await sleep(delay);
        return next(req);
      };
    },
  },
  {
    name: 'gc-pauses',
    description: `every ${PAUSE_EVERY_MS / 1000} s the server stops for ${PAUSE_MS} ms (a stop-the-world collection): steady, if not smooth`,
    clause: 'a steady service passes the trend whatever its pauses',
    caughtBy: [],
    passes: ['load.trend', ...NIGHTLY_BOUNDS],
    wrap: (next) => {
      let lastPause = performance.now();
      return (req) => {
        const now = performance.now();
        if (now - lastPause >= PAUSE_EVERY_MS) {
          lastPause = now;
          blockFor(PAUSE_MS);
        }
        return next(req);
      };
    },
  },
  {
    name: 'capped-throughput',
    description: `listPets answers at most ${CAPPED_RATE} times a second, steadily: below nightly's 200/s, which its thresholds judge (rps, and latency as the backlog grows); its trend is flat`,
    clause: "a service's capacity is the thresholds' to judge, not the trend's",
    caughtBy: ['load.rps'],
    passes: ['load.trend', 'load.errors', 'load.timeouts', 'load.resets', 'load.non2xx', 'load.mismatches'],
    wrap: (next) => {
      let free = 0;
      return async (req) => {
        if (!isList(req)) return next(req);
        const now = performance.now();
        const slot = cappedSlot(now, free);
        free = slot + 1000 / CAPPED_RATE;
        if (slot > now) await sleep(slot - now);
        return next(req);
      };
    },
  },
];

/** Every variant `serve --variant` serves: the catalogue's, then those that show only under load. */
export const SERVED_VARIANTS: ReadonlyArray<Pick<Variant, 'name' | 'wrap' | 'server'>> = [...VARIANTS, ...LOAD_VARIANTS];

/** The server options that make the reference server behave as a variant. */
export function variantServerOptions(variant: Pick<Variant, 'wrap' | 'server'>): Partial<ReferenceServerOptions> {
  const options: Partial<ReferenceServerOptions> = {};
  if (variant.wrap) options.wrap = variant.wrap;
  if (variant.server?.firstId !== undefined) options.firstId = variant.server.firstId;
  if (variant.server?.seed !== undefined) options.seed = variant.server.seed;
  const now = variant.server?.now;
  if (now !== undefined) options.now = () => new Date(now);
  return options;
}
