/** The embedded default: a conformant pet store over node:http, in memory. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { isJsonObject, parseExactJson, stringifyExactJson, type JsonValue } from '../model/json.js';
import { withLoadFaults, type LoadFault } from './load-faults.js';
import { PET_STATUSES, PetCatalogue, seedCatalogue, type PetStatus, type StoredPet } from './store.js';

/** The API key `serve` uses when PETSTORE_API_KEY is not set. For local development only. */
export const DEVELOPMENT_API_KEY = 'petstore-dev-key';

/** The removal date of getPet. */
export const GET_PET_SUNSET = new Date('2030-12-05T00:00:00Z');

const INT64_MAX = 2n ** 63n - 1n;
const MAX_BODY_BYTES = 64 * 1024;
// RFC 9745 structured date: when getPet was deprecated (the contract gives no date; 2025-01-01 is ours).
const DEPRECATION_HEADER = '@1735689600';
const SUNSET_HEADER = GET_PET_SUNSET.toUTCString();

/** How the reference server behaves. */
export interface ReferenceServerOptions {
  apiKey: string;
  /** The first id handed out; set it above 2^53 to exercise int64 exactness. */
  firstId?: bigint;
  /** The server's clock, for the removal of getPet. */
  now?: () => Date;
  /** Deliberate contract breaks, for proving that the suite catches them. */
  faults?: ReadonlySet<Fault>;
}

/** The deliberate breaks the reference server can make (see test/ and the variant matrix). */
export type Fault = 'no-auth' | LoadFault;

/** Everything a request handler needs; also what a fault-injecting variant wraps. */
export interface PetStore {
  catalogue: PetCatalogue;
  handle(req: IncomingMessage, res: ServerResponse): void;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify({ code, message, status }), headers);
}

function keyMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function authorised(req: IncomingMessage, apiKey: string): boolean {
  const header = req.headers.authorization;
  if (header === undefined) return false;
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match !== null && keyMatches(match[1] as string, apiKey);
}

function parseInt64(text: string): bigint | undefined {
  if (!/^-?\d{1,20}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= -INT64_MAX - 1n && value <= INT64_MAX ? value : undefined;
}

type Validated<T> = { ok: true; value: T } | { ok: false; message: string };

function validateNewPet(body: JsonValue): Validated<Omit<StoredPet, 'id'>> {
  if (!isJsonObject(body)) return { ok: false, message: 'the body must be a JSON object (NewPet)' };
  const { name, categoryId, status } = body;
  if (typeof name !== 'string') return { ok: false, message: name === undefined ? 'name is required' : 'name must be a string' };
  if (categoryId === undefined) return { ok: false, message: 'categoryId is required' };
  const category = typeof categoryId === 'bigint' ? categoryId : typeof categoryId === 'number' && Number.isInteger(categoryId) ? BigInt(categoryId) : undefined;
  if (category === undefined || category > INT64_MAX || category < -INT64_MAX - 1n) return { ok: false, message: 'categoryId must be an int64 integer' };
  if (status !== undefined && !(PET_STATUSES as readonly unknown[]).includes(status)) return { ok: false, message: `status must be one of ${PET_STATUSES.join(', ')}` };
  const pet: Omit<StoredPet, 'id'> = { name, categoryId: category };
  if (status !== undefined) pet.status = status as PetStatus;
  return { ok: true, value: pet };
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
    req.on('error', reject);
  });
}

function single(params: URLSearchParams, name: string): string | undefined | 'repeated' {
  const values = params.getAll(name);
  if (values.length > 1) return 'repeated';
  return values[0];
}

/** Creates the request handler and its catalogue (seeded with pets of every status). */
export function createPetStore(options: ReferenceServerOptions): PetStore {
  const catalogue = new PetCatalogue(options.firstId ?? 1n);
  seedCatalogue(catalogue);
  const now = options.now ?? (() => new Date());
  const faults = options.faults ?? new Set<Fault>();

  const listPets = (res: ServerResponse, params: URLSearchParams): void => {
    const limitText = single(params, 'limit');
    let limit = 20;
    if (limitText !== undefined) {
      if (limitText === 'repeated' || !/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100) {
        return sendError(res, 400, 'invalid_limit', 'limit must be a single integer from 1 to 100');
      }
      limit = Number(limitText);
    }
    const status = single(params, 'status');
    if (status !== undefined && !(PET_STATUSES as readonly string[]).includes(status)) {
      return sendError(res, 400, 'invalid_status', `status must be one of ${PET_STATUSES.join(', ')}`);
    }
    send(res, 200, catalogue.pageJson(limit, status as PetStatus | undefined));
  };

  const createPet = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    if (raw === 'too-large') return sendError(res, 413, 'body_too_large', `the body exceeds ${MAX_BODY_BYTES} bytes`);
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return sendError(res, 400, 'invalid_content_type', 'the body must be application/json');
    if (raw.length === 0) return sendError(res, 400, 'missing_body', 'a NewPet body is required');
    let body: JsonValue;
    try {
      body = parseExactJson(raw.toString('utf8'));
    } catch {
      return sendError(res, 400, 'invalid_json', 'the body is not valid JSON');
    }
    const validated = validateNewPet(body);
    if (!validated.ok) return sendError(res, 400, 'invalid_pet', validated.message);
    const pet = catalogue.add(validated.value);
    send(res, 201, stringifyExactJson(pet), { location: `/v1/pets/${pet.id}` });
  };

  const getPet = (res: ServerResponse, idText: string): void => {
    if (now() >= GET_PET_SUNSET) return sendError(res, 410, 'gone', 'GET /pets/{petId} was removed on 2030-12-05; use GET /pets');
    const headers = { deprecation: DEPRECATION_HEADER, sunset: SUNSET_HEADER, link: '</v1/pets>; rel="successor-version"' };
    const id = parseInt64(decodeURIComponent(idText));
    if (id === undefined) return sendError(res, 400, 'invalid_id', 'petId must be an int64 integer', headers);
    const json = catalogue.findJson(id);
    if (json === undefined) return sendError(res, 404, 'not_found', `no pet has id ${id}`, headers);
    send(res, 200, json, headers);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (!path.startsWith('/v1/') && path !== '/v1') return sendError(res, 404, 'not_found', 'the API lives under /v1');
    if (!faults.has('no-auth') && !authorised(req, options.apiKey)) {
      const error = req.headers.authorization === undefined ? '' : ', error="invalid_token"';
      return sendError(res, 401, 'unauthorized', 'a valid bearer API key is required', { 'www-authenticate': `Bearer realm="petstore"${error}` });
    }
    if (path === '/v1/pets') {
      if (req.method === 'GET') return listPets(res, url.searchParams);
      if (req.method === 'POST') {
        createPet(req, res).catch(() => sendError(res, 400, 'invalid_body', 'the body could not be read'));
        return;
      }
      return sendError(res, 405, 'method_not_allowed', `${req.method ?? ''} is not allowed on /pets`, { allow: 'GET, POST' });
    }
    const match = /^\/v1\/pets\/([^/]+)$/.exec(path);
    if (match) {
      if (req.method === 'GET') return getPet(res, match[1] as string);
      return sendError(res, 405, 'method_not_allowed', `${req.method ?? ''} is not allowed on /pets/{petId}`, { allow: 'GET' });
    }
    sendError(res, 404, 'not_found', `no route for ${path}`);
  };

  return { catalogue, handle: withLoadFaults(handle, faults) };
}

/** A running reference server. */
export interface RunningServer {
  /** The base URL, ending in /v1. */
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts a pet store handler on host:port (port 0 picks a free one). */
export function listen(handle: PetStore['handle'], host = '127.0.0.1', port = 0): Promise<RunningServer> {
  const server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        baseUrl: `http://${shownHost}:${address.port}/v1`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Starts the reference pet store. */
export function startReferenceServer(options: ReferenceServerOptions & { host?: string; port?: number }): Promise<RunningServer> {
  return listen(createPetStore(options).handle, options.host, options.port);
}
