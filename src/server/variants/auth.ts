/** Authentication: the key, the Bearer scheme, and 401 before anything else. */
import { isJsonObject } from '../../model/json.js';
import { authorised, errorResponse, type PetRequest, type PetStore, type Wrap } from '../reference-server.js';
import { after, before, bodyOf, isCreate, isGet, isList, type Variant } from './kit.js';

function withKey(req: PetRequest, store: PetStore): PetRequest {
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${store.apiKey}` } };
}

/** A wrapper that lets the key through on some requests: the auth check is skipped. */
function skipAuthWhen(test: (req: PetRequest, store: PetStore) => boolean): Wrap {
  return (next, store) => (req) => (!authorised(req.headers, store.apiKey) && test(req, store) ? next(withKey(req, store)) : next(req));
}

function bearerToken(req: PetRequest): string | undefined {
  return /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
}

/** A server that reads the credential with `pattern`: a header whose token matches the key is taken as the key itself. */
function leniently(pattern: RegExp): Wrap {
  return (next, store) => (req) => {
    const token = pattern.exec(String(req.headers.authorization ?? ''))?.[1];
    return next(token === store.apiKey ? withKey(req, store) : req);
  };
}

/** Variants that let a request through without the exact key under Bearer, or answer it other than 401. */
export const AUTH_VARIANTS: readonly Variant[] = [
  {
    name: 'auth-off-list',
    verdict: 'broken',
    description: 'listPets answers without a key',
    clause: 'Authentication rule 1 (listPets)',
    caughtBy: ['auth.listPets.missing'],
    wrap: skipAuthWhen((r) => isList(r) && r.headers.authorization === undefined),
  },
  {
    name: 'auth-off-create',
    verdict: 'broken',
    description: 'createPet answers without a key',
    clause: 'Authentication rule 1 (createPet)',
    caughtBy: ['auth.createPet.missing'],
    wrap: skipAuthWhen((r) => isCreate(r) && r.headers.authorization === undefined),
  },
  {
    name: 'auth-off-get',
    verdict: 'broken',
    description: 'getPet answers without a key',
    clause: 'Authentication rule 1 (getPet)',
    caughtBy: ['auth.getPet.missing'],
    wrap: skipAuthWhen((r) => isGet(r) && r.headers.authorization === undefined),
  },
  {
    name: 'auth-accepts-basic',
    verdict: 'broken',
    description: 'the key is accepted under the Basic scheme',
    clause: 'Authentication: scheme HTTP bearer',
    caughtBy: ['auth.listPets.basic-scheme'],
    wrap: skipAuthWhen((r) => /^Basic /.test(r.headers.authorization ?? '')),
  },
  {
    name: 'auth-accepts-empty-bearer',
    verdict: 'broken',
    description: '"Bearer" with no token is accepted',
    clause: 'Authentication rule 1 (missing key)',
    caughtBy: ['auth.listPets.empty-bearer'],
    wrap: skipAuthWhen((r) => /^Bearer\s*$/.test(r.headers.authorization ?? '')),
  },
  {
    name: 'auth-accepts-any-token',
    verdict: 'broken',
    description: 'any bearer token is accepted',
    clause: 'Authentication rule 1 (invalid key)',
    caughtBy: ['auth.listPets.wrong-token'],
    wrap: skipAuthWhen((r) => (bearerToken(r) ?? '') !== ''),
  },
  {
    name: 'auth-prefix-compare',
    verdict: 'broken',
    description: 'a token is accepted when it starts with the key',
    clause: 'Authentication rule 1 (invalid key)',
    caughtBy: ['auth.listPets.appended-char'],
    wrap: skipAuthWhen((r, s) => (bearerToken(r) ?? '').startsWith(s.apiKey)),
  },
  {
    name: 'auth-truncated-compare',
    verdict: 'broken',
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
    verdict: 'broken',
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
    verdict: 'broken',
    description: '401 answers carry no body',
    clause: 'Authentication rule 1: 401 with an Error body',
    caughtBy: ['auth.listPets.missing', 'expect.schema'],
    wrap: after((res) => (res.status === 401 ? { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: '' } : res)),
  },
  {
    name: 'auth-403-instead',
    verdict: 'broken',
    description: 'a bad key gets 403 instead of 401',
    clause: 'Authentication rule 1: 401',
    caughtBy: ['auth.listPets.missing'],
    wrap: after((res) => (res.status === 401 ? errorResponse(403, 'forbidden', 'no') : res)),
  },
  {
    name: 'auth-key-case-insensitive',
    verdict: 'broken',
    description: 'the key is compared without regard to letter case',
    clause: 'Authentication rule 1: the key is compared exactly',
    caughtBy: ['auth.listPets.swapped-case'],
    wrap: skipAuthWhen((r, s) => (bearerToken(r) ?? '').toLowerCase() === s.apiKey.toLowerCase()),
  },
  {
    name: 'auth-scheme-ignored',
    verdict: 'broken',
    description: 'the key is accepted under any scheme, or none',
    clause: 'Authentication: the scheme is Bearer; the key under another scheme is a wrong credential',
    caughtBy: ['auth.listPets.basic-raw', 'auth.listPets.token-scheme', 'auth.listPets.no-scheme'],
    wrap: skipAuthWhen((r, s) => (r.headers.authorization ?? '').split(' ').at(-1) === s.apiKey),
  },
  {
    name: 'auth-scheme-suffix',
    verdict: 'broken',
    description: 'the key is accepted under any scheme that ends in "bearer" (XBearer): the Bearer match lost its start anchor',
    clause: 'Authentication: the key under another scheme is a wrong credential (401)',
    caughtBy: ['auth.listPets.scheme-suffix', 'auth.createPet.scheme-suffix', 'auth.getPet.scheme-suffix'],
    wrap: leniently(/bearer +(\S+) *$/i),
  },
  {
    name: 'auth-trailing-token',
    verdict: 'broken',
    description: 'the key followed by a space and more is accepted (Bearer <key> x): the Bearer match lost its end anchor',
    clause: 'Authentication: the key is compared exactly (401 for anything else)',
    caughtBy: ['auth.listPets.trailing-token', 'auth.createPet.trailing-token', 'auth.getPet.trailing-token'],
    wrap: leniently(/^bearer +(\S+)/i),
  },
  {
    name: 'body-before-auth',
    verdict: 'broken',
    description:
      'createPet parses its body before it looks at the key: a body that is not a JSON object gets 400 whatever the key ' +
      '(as a JSON body parser mounted before auth does)',
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
    name: 'lowercase-scheme-refused',
    verdict: 'conformant',
    description: '"bearer" in lower case is refused (warned: schemes are case-insensitive)',
    clause: 'Authentication (RFC 9110 §11.1)',
    caughtBy: [],
    warnedBy: ['auth.listPets.lowercase-scheme', 'auth.createPet.lowercase-scheme', 'auth.getPet.lowercase-scheme'],
    wrap: before(
      (r) => /^bearer /.test(r.headers.authorization ?? ''),
      () => errorResponse(401, 'unauthorized', 'use Bearer', { 'www-authenticate': 'Bearer' }),
    ),
  },
];
