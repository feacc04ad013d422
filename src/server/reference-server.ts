/** The embedded default: a conformant pet store over node:http, in memory. */
import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonObject, parseExactJson, stringifyExactJson, type JsonValue } from '../model/json.js';
import { PET_STATUSES, PetCatalogue, seedCatalogue, type PetStatus, type StoredPet } from './store.js';

/** The API key `serve` uses when PETSTORE_API_KEY is not set. For local development only. */
export const DEVELOPMENT_API_KEY = 'petstore-dev-key';

/** The removal date of getPet. */
const GET_PET_SUNSET = new Date('2030-12-05T00:00:00Z');

const INT64_MAX = 2n ** 63n - 1n;
const MAX_BODY_BYTES = 64 * 1024;
// RFC 9745 structured date: when getPet was deprecated (the contract gives no date; 2025-01-01 is ours).
const DEPRECATION_HEADER = '@1735689600';
const SUNSET_HEADER = GET_PET_SUNSET.toUTCString();

/** A request as the pet store sees it: the body already read (bounded). */
export interface PetRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** True when an earlier request came over the same connection (keep-alive). */
  reusedConnection?: boolean;
  /** The body was longer than the store reads (`body` is then empty): refused once the key is known good. */
  tooLarge?: boolean;
}

/** A response as the pet store answers it. */
export interface PetResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Close the connection without answering (what a client sees when a server closes an idle keep-alive connection under it). */
  drop?: boolean;
}

/** The pet store as a function; variants wrap it to break or bend the contract. */
export type PetHandler = (req: PetRequest) => PetResponse | Promise<PetResponse>;

/** How the reference server behaves. */
export interface ReferenceServerOptions {
  apiKey: string;
  /** The first id handed out; set it above 2^53 to exercise int64 exactness. */
  firstId?: bigint;
  /** The server's clock, for the removal of getPet. */
  now?: () => Date;
  /** How many pets of each status the store starts with (default 110 available, 30 pending, 20 sold). */
  seed?: Record<PetStatus, number>;
  /** Wraps the conformant handler: how test variants and load faults change behaviour. */
  wrap?: Wrap;
}

/** Bends the conformant handler into a variant. */
export type Wrap = (next: PetHandler, store: PetStore) => PetHandler;

/** The catalogue and the conformant handler. */
export interface PetStore {
  catalogue: PetCatalogue;
  apiKey: string;
  handle: PetHandler;
}

/** A JSON response. */
export function jsonResponse(status: number, body: string, headers: Record<string, string> = {}): PetResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}

/** An Error response: `{code, message, status}` with the status of the response. */
export function errorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): PetResponse {
  return jsonResponse(status, JSON.stringify({ code, message, status }), headers);
}

/** True when the request carries `Bearer <apiKey>` (the scheme is case-insensitive, RFC 9110 §11.1). */
export function authorised(headers: IncomingHttpHeaders, apiKey: string): boolean {
  const header = headers.authorization;
  if (header === undefined) return false;
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match !== null && sameSecret(match[1] as string, apiKey);
}

/**
 * Compares in time that depends on the length only, not on where the strings differ (as timingSafeEqual, without two
 * buffers per request).
 */
function sameSecret(presented: string, expected: string): boolean {
  if (presented.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= presented.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}

function parseInt64(text: string): bigint | undefined {
  if (!/^-?\d{1,20}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= -INT64_MAX - 1n && value <= INT64_MAX ? value : undefined;
}

/** A path segment's percent-escapes decoded; one whose escapes are not UTF-8 (`%ff`) names nothing (an empty segment). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

type Validated<T> = { ok: true; value: T } | { ok: false; message: string };

function validateNewPet(body: JsonValue): Validated<Omit<StoredPet, 'id'>> {
  if (!isJsonObject(body)) return { ok: false, message: 'the body must be a JSON object (NewPet)' };
  const { name, categoryId, status } = body;
  if (typeof name !== 'string') return { ok: false, message: name === undefined ? 'name is required' : 'name must be a string' };
  if (categoryId === undefined) return { ok: false, message: 'categoryId is required' };
  const category =
    typeof categoryId === 'bigint'
      ? categoryId
      : typeof categoryId === 'number' && Number.isInteger(categoryId)
        ? BigInt(categoryId)
        : undefined;
  if (category === undefined || category > INT64_MAX || category < -INT64_MAX - 1n)
    return { ok: false, message: 'categoryId must be an int64 integer' };
  if (status !== undefined && !(PET_STATUSES as readonly unknown[]).includes(status))
    return { ok: false, message: `status must be one of ${PET_STATUSES.join(', ')}` };
  const pet: Omit<StoredPet, 'id'> = { name, categoryId: category };
  if (status !== undefined) pet.status = status as PetStatus;
  return { ok: true, value: pet };
}

function single(params: URLSearchParams, name: string): string | undefined | 'repeated' {
  const values = params.getAll(name);
  if (values.length > 1) return 'repeated';
  return values[0];
}

/** Creates the conformant handler and its catalogue (seeded with pets of every status). */
export function createPetStore(options: ReferenceServerOptions): PetStore {
  const catalogue = new PetCatalogue(options.firstId ?? 1n);
  seedCatalogue(catalogue, options.seed);
  const now = options.now ?? (() => new Date());

  const listPets = (query: URLSearchParams): PetResponse => {
    const limitText = single(query, 'limit');
    let limit = 20;
    if (limitText !== undefined) {
      if (limitText === 'repeated' || !/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100) {
        return errorResponse(400, 'invalid_limit', 'limit must be a single integer from 1 to 100');
      }
      limit = Number(limitText);
    }
    const status = single(query, 'status');
    if (status !== undefined && !(PET_STATUSES as readonly string[]).includes(status)) {
      return errorResponse(400, 'invalid_status', `status must be one of ${PET_STATUSES.join(', ')}`);
    }
    return jsonResponse(200, catalogue.pageJson(limit, status as PetStatus | undefined));
  };

  const createPet = (req: PetRequest): PetResponse => {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return errorResponse(400, 'invalid_content_type', 'the body must be application/json');
    // The contract states no length: a body beyond the bound is an invalid body (400), as the reading's silence policy passes.
    if (req.tooLarge === true) return errorResponse(400, 'body_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`);
    if (req.body.length === 0) return errorResponse(400, 'missing_body', 'a NewPet body is required');
    // Invalid UTF-8 is not JSON (RFC 8259 §8.1): decoding it would store U+FFFD in place of what was sent.
    if (!isUtf8(req.body)) return errorResponse(400, 'invalid_json', 'the body is not UTF-8');
    let body: JsonValue;
    try {
      body = parseExactJson(req.body.toString('utf8'));
    } catch {
      return errorResponse(400, 'invalid_json', 'the body is not valid JSON');
    }
    const validated = validateNewPet(body);
    if (!validated.ok) return errorResponse(400, 'invalid_pet', validated.message);
    const pet = catalogue.add(validated.value);
    return jsonResponse(201, stringifyExactJson(pet), { location: `/v1/pets/${pet.id}` });
  };

  const getPet = (idText: string): PetResponse => {
    if (now() >= GET_PET_SUNSET) return errorResponse(410, 'gone', 'GET /pets/{petId} was removed on 2030-12-05; use GET /pets');
    const headers = { deprecation: DEPRECATION_HEADER, sunset: SUNSET_HEADER, link: '</v1/pets>; rel="successor-version"' };
    const id = parseInt64(decodedSegment(idText));
    if (id === undefined) return errorResponse(400, 'invalid_id', 'petId must be an int64 integer', headers);
    const json = catalogue.findJson(id);
    if (json === undefined) return errorResponse(404, 'not_found', `no pet has id ${id}`, headers);
    return jsonResponse(200, json, headers);
  };

  const handle: PetHandler = (req) => {
    if (!req.path.startsWith('/v1/') && req.path !== '/v1') return errorResponse(404, 'not_found', 'the API lives under /v1');
    if (!authorised(req.headers, options.apiKey)) {
      const error = req.headers.authorization === undefined ? '' : ', error="invalid_token"';
      return errorResponse(401, 'unauthorized', 'a valid bearer API key is required', {
        'www-authenticate': `Bearer realm="petstore"${error}`,
      });
    }
    if (req.path === '/v1/pets') {
      if (req.method === 'GET') return listPets(req.query);
      if (req.method === 'POST') return createPet(req);
      return errorResponse(405, 'method_not_allowed', `${req.method} is not allowed on /pets`, { allow: 'GET, POST' });
    }
    const match = /^\/v1\/pets\/([^/]+)$/.exec(req.path);
    if (match) {
      if (req.method === 'GET') return getPet(match[1] as string);
      return errorResponse(405, 'method_not_allowed', `${req.method} is not allowed on /pets/{petId}`, { allow: 'GET' });
    }
    return errorResponse(404, 'not_found', `no route for ${req.path}`);
  };

  const store: PetStore = { catalogue, apiKey: options.apiKey, handle };
  return options.wrap ? { ...store, handle: options.wrap(handle, store) } : store;
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    // Stryker disable next-line StringLiteral: a request stream that fails has no client left to answer; invisible to any client.
    req.on('error', reject);
  });
}

const EMPTY = Buffer.alloc(0);

/**
 * The request's headers, with no credential when it carried two Authorization fields: Node keeps the first of them, but
 * which one a proxy in front reads is unknown, so two credentials count as none (401).
 */
function singleCredential(req: IncomingMessage): IncomingMessage['headers'] {
  let fields = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if ((req.rawHeaders[i] as string).toLowerCase() === 'authorization') fields += 1;
  if (fields <= 1) return req.headers;
  const { authorization: _ambiguous, ...rest } = req.headers;
  return rest;
}

/** A request target WHATWG URL parsing would leave as it is: no dot segments, escapes, backslashes or leading `//`. */
const PLAIN_TARGET = /^(?!\/\/)(\/[A-Za-z0-9_~-]*)+(\?[A-Za-z0-9_~=&+-]*)?$/;

/** The path and query of a request target as URL parsing gives them, without building a URL when the target is plain (the hot path). */
export function pathAndQuery(target: string): { path: string; query: URLSearchParams } {
  if (!PLAIN_TARGET.test(target)) {
    const url = new URL(target, 'http://localhost');
    return { path: url.pathname, query: url.searchParams };
  }
  const mark = target.indexOf('?');
  return mark === -1
    ? { path: target, query: new URLSearchParams() }
    : { path: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) };
}

/** The bytes of the last few bodies sent: listings repeat, and are encoded once instead of on every answer. */
class EncodedBodies {
  private readonly bodies = new Map<string, Buffer>();

  of(body: string): Buffer {
    let bytes = this.bodies.get(body);
    if (bytes === undefined) {
      bytes = Buffer.from(body);
      // Kept small: the store's listings change as pets are added, and old ones are never asked for again. When the cache
      // empties is invisible to any client: every answer is the same bytes whenever it does.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: when the cache of encoded bodies empties (above).
      if (this.bodies.size >= 64) this.bodies.clear();
      this.bodies.set(body, bytes);
    }
    return bytes;
  }
}

/** Adapts a PetHandler to node:http: reads the body (bounded), answers, never throws. */
export function toNodeHandler(handle: PetHandler): (req: IncomingMessage, res: ServerResponse) => void {
  const encoded = new EncodedBodies();
  const write = (res: ServerResponse, response: PetResponse): void => {
    const bytes = encoded.of(response.body);
    res.writeHead(response.status, { 'content-length': bytes.length, ...response.headers });
    res.end(bytes);
  };
  const answer = (req: IncomingMessage, res: ServerResponse, response: PetResponse): void => {
    if (response.drop === true) req.socket.destroy();
    else write(res, response);
  };
  const fail = (res: ServerResponse): void => {
    if (!res.headersSent) write(res, errorResponse(400, 'bad_request', 'the request could not be read'));
    else res.destroy();
  };
  const served = new WeakSet<object>();
  return (req, res) => {
    try {
      const { path, query } = pathAndQuery(req.url ?? '/');
      const reusedConnection = served.has(req.socket);
      served.add(req.socket);
      const request = (body: Buffer | 'too-large'): PetRequest => ({
        method: req.method ?? 'GET',
        path,
        query,
        headers: singleCredential(req),
        ...(body === 'too-large' ? { body: EMPTY, tooLarge: true } : { body }),
        reusedConnection,
      });
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
        // No body: answered in this tick when the handler is synchronous (the conformant one is).
        const response = handle(request(EMPTY));
        if (response instanceof Promise)
          response.then(
            (r) => answer(req, res, r),
            () => fail(res),
          );
        else answer(req, res, response);
        return;
      }
      readBody(req)
        .then(async (raw) => handle(request(raw)))
        .then(
          (r) => answer(req, res, r),
          () => fail(res),
        );
    } catch {
      fail(res);
    }
  };
}

/** A running reference server. */
export interface RunningServer {
  /** The base URL, ending in /v1. */
  baseUrl: string;
  server: Server;
  store: PetStore;
  close(): Promise<void>;
}

/** Starts the reference pet store (or a variant of it) on host:port; port 0 picks a free one. */
export function startReferenceServer(options: ReferenceServerOptions & { host?: string; port?: number }): Promise<RunningServer> {
  const store = createPetStore(options);
  const server = createServer(toNodeHandler(store.handle));
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    // Stryker disable next-line StringLiteral: only a listen that fails reaches it, before any client.
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      // Stryker disable next-line StringLiteral: removes the listen failure handler once listening; no client sees it.
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        baseUrl: `http://${shownHost}:${address.port}/v1`,
        server,
        store,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
