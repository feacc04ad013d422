/**
 * What every variant file shares: the Variant type, which request is which operation, and the wrappers that bend the
 * reference store before or after its conformant handler. The list itself is in ../variants.ts.
 */
import { isUtf8 } from 'node:buffer';
import { isJsonObject, type JsonValue, parseExactJson, stringifyExactJson } from '../../model/json.js';
import {
  jsonResponse,
  type PetRequest,
  type PetResponse,
  type PetStore,
  type ReferenceServerOptions,
  type Wrap,
} from '../reference-server.js';
import type { PetStatus } from '../store.js';

/** A named behaviour of the pet store. */
export interface Variant {
  name: string;
  description: string;
  /** The contract clause the variant touches. */
  clause: string;
  /**
   * broken: the run fails; conformant: it passes; unrunnable: it stops with exit 2 and one line (rate limits, a dead
   * server, a wrong base URL are never verdicts).
   */
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

/** A listPets request. */
export const isList = (req: PetRequest): boolean => req.method === 'GET' && req.path === '/v1/pets';
/** A createPet request. */
export const isCreate = (req: PetRequest): boolean => req.method === 'POST' && req.path === '/v1/pets';
/** A getPet request. */
export const isGet = (req: PetRequest): boolean => req.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(req.path);

/** The request with its query edited. */
export function withQuery(req: PetRequest, edit: (q: URLSearchParams) => void): PetRequest {
  const query = new URLSearchParams(req.query);
  edit(query);
  return { ...req, query };
}

/** The request with `body` as its JSON body. */
export function withJsonBody(req: PetRequest, body: JsonValue): PetRequest {
  return { ...req, body: Buffer.from(stringifyExactJson(body)), headers: { 'content-type': 'application/json', ...req.headers } };
}

/** The request's body as JSON, or undefined where it is none. */
export function bodyOf(req: PetRequest): JsonValue | undefined {
  // A body that is not UTF-8 is no JSON: read as text it would hold U+FFFD, and a rewrite would hide what was sent.
  if (!isUtf8(req.body)) return undefined;
  try {
    return parseExactJson(req.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The response's body as JSON, or undefined where it is none. */
export function jsonOf(res: PetResponse): JsonValue | undefined {
  try {
    return parseExactJson(res.body);
  } catch {
    return undefined;
  }
}

/** Rewrites the JSON body of a response. */
export function mapJson(res: PetResponse, edit: (body: JsonValue) => JsonValue): PetResponse {
  const body = jsonOf(res);
  return body === undefined ? res : { ...res, body: stringifyExactJson(edit(body)) };
}

/** Changes a request before the conformant handler sees it. */
export function before(test: (req: PetRequest) => boolean, edit: (req: PetRequest, store: PetStore) => PetRequest | PetResponse): Wrap {
  return (next, store) => (req) => {
    if (!test(req)) return next(req);
    const edited = edit(req, store);
    return 'status' in edited ? edited : next(edited);
  };
}

/** Changes a response after the conformant handler answered. */
export function after(edit: (res: PetResponse, req: PetRequest, store: PetStore) => PetResponse): Wrap {
  return (next, store) => async (req) => edit(await next(req), req, store);
}

/** Edits a createPet body that is a JSON object before the conformant handler reads it. */
export function createBody(edit: (body: Record<string, JsonValue>) => void): Wrap {
  return before(isCreate, (req) => {
    const body = bodyOf(req);
    if (!isJsonObject(body)) return req;
    const copy = { ...body };
    edit(copy);
    return withJsonBody(req, copy);
  });
}

/** Listings ordered newest first (the contract states no order). */
export const newestFirst: Wrap = (next, store) => async (req) => {
  const res = await next(req);
  if (!isList(req) || res.status !== 200) return res;
  const limit = Number(req.query.get('limit') ?? '20');
  return jsonResponse(200, store.catalogue.pageJson(limit, (req.query.get('status') ?? undefined) as PetStatus | undefined, true));
};
