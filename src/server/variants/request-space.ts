/**
 * Variants of the request space's channel, representation and path dimensions (issue 36), each modelled on a miss measured
 * on a real server: the key read from the query, another header or a cookie; no Accept or `*\/*` answered 406; bytes in the
 * path that are not UTF-8 refused before the key is checked, or answered other than with an Error.
 */
import { authorised, errorResponse, type PetRequest, type PetStore, type Wrap } from '../reference-server.js';
import { before, isList, type Variant } from './kit.js';

/** The request with the key under Bearer, as a server that found it elsewhere goes on. */
function withKey(req: PetRequest, store: PetStore): PetRequest {
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${store.apiKey}` } };
}

/** A server that also takes the key from where `found` looks: a request without Authorization goes on as if it had it. */
function keyAlsoFrom(found: (req: PetRequest, key: string) => boolean): Wrap {
  return (next, store) => (req) =>
    req.headers.authorization === undefined && found(req, store.apiKey) ? next(withKey(req, store)) : next(req);
}

/** The cookies of a request, by name. */
function cookies(req: PetRequest): Map<string, string> {
  const pairs = String(req.headers.cookie ?? '')
    .split(';')
    .map((pair) => pair.trim().split('='));
  return new Map(pairs.map(([name, ...value]) => [name ?? '', value.join('=')]));
}

/** A path with a percent-escape that does not decode as UTF-8 (`%ff`, an overlong `%c0%af`). */
function undecodablePath(req: PetRequest): boolean {
  try {
    decodeURIComponent(req.path);
    return false;
  } catch {
    return true;
  }
}

/** Whether an Accept header admits application/json: its most specific matching range has a q above 0 (RFC 9110 §12.5.1). */
export function admitsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  let best: { specificity: number; q: number } | undefined;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const specificity = type === 'application/json' ? 3 : type === 'application/*' ? 2 : type === '*/*' ? 1 : 0;
    if (specificity === 0) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (best === undefined || specificity > best.specificity) best = { specificity, q };
  }
  return best !== undefined && best.q > 0;
}

const NOT_ACCEPTABLE = errorResponse(406, 'not_acceptable', 'this service answers application/json only');

/** Variants of where the key is read, what Accept gets, and paths that are not UTF-8. */
export const REQUEST_SPACE_VARIANTS: readonly Variant[] = [
  {
    name: 'key-in-query',
    verdict: 'broken',
    description: 'the key is also taken from a query parameter (api_key, access_token, ...)',
    clause: 'reading-the-contract: the key anywhere but Authorization is no credential (401)',
    caughtBy: ['channel.listPets.query-api_key', 'channel.getPet.query-access_token'],
    wrap: keyAlsoFrom((req, key) => [...req.query.values()].includes(key)),
  },
  {
    name: 'key-in-x-api-key',
    verdict: 'broken',
    description: 'the key is also taken from an X-API-Key header',
    clause: 'reading-the-contract: the key anywhere but Authorization is no credential (401)',
    caughtBy: ['channel.listPets.header-x-api-key', 'channel.createPet.header-x-api-key'],
    wrap: keyAlsoFrom((req, key) => req.headers['x-api-key'] === key),
  },
  {
    name: 'key-in-cookie',
    verdict: 'broken',
    description: 'the key is also taken from a cookie',
    clause: 'reading-the-contract: the key anywhere but Authorization is no credential (401)',
    caughtBy: ['channel.listPets.cookie', 'channel.getPet.cookie'],
    wrap: keyAlsoFrom((req, key) => [...cookies(req).values()].includes(key)),
  },
  {
    name: 'accept-missing-406',
    verdict: 'broken',
    description: 'a request without Accept is answered 406 (before the key is checked)',
    clause: 'reading-the-contract: a request without Accept gets JSON; 406 only to an Accept that excludes application/json',
    caughtBy: ['representation.listPets.no-accept', 'representation.listPets.no-accept.no-key'],
    wrap: before(
      (req) => req.headers.accept === undefined,
      () => NOT_ACCEPTABLE,
    ),
  },
  {
    name: 'accept-literal-json-only',
    verdict: 'broken',
    description: 'listPets answers 406 unless Accept names application/json itself (*/* and application/* refused)',
    clause: 'reading-the-contract: Accept: */* gets JSON; 406 only to an Accept that excludes application/json',
    caughtBy: ['representation.listPets.any', 'representation.listPets.application-any'],
    wrap: before(
      (req) => isList(req) && !String(req.headers.accept ?? '').includes('application/json'),
      () => NOT_ACCEPTABLE,
    ),
  },
  {
    name: 'accept-negotiated',
    verdict: 'conformant',
    description: 'an Accept that excludes application/json (text/html, application/json;q=0) is answered 406 with an Error',
    clause: 'reading-the-contract: a server may answer 406 to an Accept that excludes application/json',
    caughtBy: [],
    wrap: before(
      (req) => !admitsJson(req.headers.accept),
      () => NOT_ACCEPTABLE,
    ),
  },
  {
    name: 'path-bytes-before-auth',
    verdict: 'broken',
    description: 'a path whose escapes are not UTF-8 (%ff) is answered 400 before the key is checked (as Express does)',
    clause: 'Authentication rule 1 (reading: 401 first, whatever else is wrong, bytes such as %ff in the path included)',
    caughtBy: ['syntax.getPet.path-not-utf8.no-key', 'syntax.getPet.path-overlong.no-key'],
    wrap: before(undecodablePath, () => errorResponse(400, 'bad_request', 'failed to decode param')),
  },
  {
    name: 'path-bytes-plain-400',
    verdict: 'broken',
    description: 'a path whose escapes are not UTF-8 is answered 400 with a plain-text body, not an Error (as Fastify does)',
    clause: 'Errors: every error body is an Error',
    caughtBy: ['syntax.getPet.path-not-utf8', 'syntax.getPet.path-overlong'],
    wrap: (next, store) => (req) =>
      authorised(req.headers, store.apiKey) && undecodablePath(req)
        ? { status: 400, headers: { 'content-type': 'text/plain' }, body: "'/pets/%ff' is not a valid url component" }
        : next(req),
  },
  {
    name: 'path-bytes-html-500',
    verdict: 'broken',
    description: 'a path whose escapes are not UTF-8 crashes the server with an HTML page (as Sinatra does)',
    clause: 'reading-the-contract: never a 5xx',
    caughtBy: ['syntax.getPet.path-not-utf8'],
    wrap: (next, store) => (req) =>
      authorised(req.headers, store.apiKey) && undecodablePath(req)
        ? {
            status: 500,
            headers: { 'content-type': 'text/html' },
            body: '<h1>Internal Server Error</h1><p>invalid byte sequence in UTF-8</p>',
          }
        : next(req),
  },
];
