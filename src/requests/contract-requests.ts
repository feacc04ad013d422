/**
 * The one builder of the contract's requests by operation role: a listing with a query, a create, a get. Paths and
 * operation names come from the contract model (its operations, by role), so that no phase or generator spells a role's
 * request out again. On the wire every request has one shape, OutgoingRequest; a case's step declares the same requests as
 * templates (RequestSpec, the shape a scenario file writes: its `{name}` placeholders are filled, and the template turned
 * into an OutgoingRequest, when the case sends it), and those are built here too, by the same roles.
 */
import type { OutgoingRequest } from '../http/sender.js';
import { type Contract, type OperationInfo, pathOf, ROLES, type Role, pathWith } from '../model/contract.js';
import type { JsonValue } from '../model/json.js';
import type { AuthVariant } from '../model/contract-names.js';
import type { RequestSpec } from '../model/scenario.js';

/** The method of each role's request. */
const METHODS = { list: 'GET', create: 'POST', get: 'GET' } as const satisfies Record<Role, RequestSpec['method']>;

/** What a request may carry besides what its role fixes. */
export interface RequestExtras {
  auth?: AuthVariant;
  headers?: Record<string, string>;
  /** Where the exchange belongs, in words (`the store fill`): what the store model names it by. */
  label?: string;
}

/** What a step's request may carry besides what its role fixes: the credential, headers, a raw body and how it is framed. */
export type TemplateExtras = Omit<RequestSpec, 'method' | 'path' | 'query' | 'json'>;

/** The contract's requests as a case's step declares them: templates, filled and encoded when the case sends them. */
export interface ContractTemplates {
  /** The listing, with a query (`{ status: 'sold', limit: 100 }`; a list of values repeats the name); none: no query at all. */
  listing(query?: RequestSpec['query'], extras?: TemplateExtras): RequestSpec;
  /** A create, its body sent as JSON; none: a body the extras give (`body`, `bytes`) or no body. */
  create(json?: JsonValue, extras?: TemplateExtras): RequestSpec;
  /** A get, the segment placed in the path as given: a placeholder (`{petId}`, encoded when filled), an id, or bytes as sent. */
  get(segment: string, extras?: TemplateExtras): RequestSpec;
  /**
   * The request of any operation, as a client would send it to an operation it names by itself: its path parameters an
   * unknown pet's id, and for a POST a minimal pet named `{runId} <name>` (what the credential's cases send to every one).
   */
  ofOperation(op: OperationInfo, name: string, extras?: TemplateExtras): RequestSpec;
}

/** The contract's requests, built from one contract. */
export interface ContractRequests {
  /** The path template of a role (relative to the base URL), as the contract gives it. */
  pathOf(role: Role): string;
  /** The listing, with a query (`[['status', 'sold'], ['limit', '100']]`). */
  listing(query?: ReadonlyArray<readonly [string, string]>, extras?: RequestExtras): OutgoingRequest;
  /** A create, its body sent as JSON. */
  create(pet: JsonValue, extras?: RequestExtras): OutgoingRequest;
  /** A get of one pet by its id (as sent: already a decimal string or a value to encode). */
  get(id: string, extras?: RequestExtras): OutgoingRequest;
  /** The same requests as a case's steps declare them. */
  templates: ContractTemplates;
}

/** A role's request at a path of the contract, with nothing more than its role fixes and the extras give. */
function wire(role: Role, path: string, extras: RequestExtras | undefined): OutgoingRequest {
  return {
    method: METHODS[role],
    path,
    query: [],
    headers: { ...extras?.headers },
    auth: extras?.auth ?? 'valid',
    operation: ROLES[role],
    ...(extras?.label === undefined ? {} : { label: extras.label }),
  };
}

/** The listing at a path already read from the contract (what a load stage holds, in a worker that has no contract). */
export function listingAt(path: string, query: ReadonlyArray<readonly [string, string]> = [], extras?: RequestExtras): OutgoingRequest {
  return { ...wire('list', path, extras), query: query.map(([name, value]) => [name, value]) };
}

/** The builder of a contract's step templates. */
function contractTemplates(contract: Pick<Contract, 'operations'>): ContractTemplates {
  const template = (role: Role, path: string): RequestSpec => ({ method: METHODS[role], path });
  return {
    listing: (query, extras) => ({ ...template('list', pathOf(contract, 'list')), ...(query === undefined ? {} : { query }), ...extras }),
    create: (json, extras) => ({ ...template('create', pathOf(contract, 'create')), ...(json === undefined ? {} : { json }), ...extras }),
    get: (segment, extras) => ({ ...template('get', pathWith(pathOf(contract, 'get'), segment)), ...extras }),
    ofOperation: (op, name, extras) => ({
      method: op.method as RequestSpec['method'],
      path: op.path.replace(/\{[^}]+\}/g, '{unknownPetId}'),
      ...extras,
      ...(op.method === 'POST' ? { json: { name: `{runId} ${name}`, categoryId: '{categoryId}' } } : {}),
    }),
  };
}

/** The builder of a contract's requests. */
export function contractRequests(contract: Pick<Contract, 'operations'>): ContractRequests {
  return {
    pathOf: (role) => pathOf(contract, role),
    listing: (query = [], extras) => listingAt(pathOf(contract, 'list'), query, extras),
    create: (pet, extras) => ({ ...wire('create', pathOf(contract, 'create'), extras), json: pet }),
    get: (id, extras) => wire('get', pathWith(pathOf(contract, 'get'), encodeURIComponent(id)), extras),
    templates: contractTemplates(contract),
  };
}
