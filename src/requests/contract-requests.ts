/**
 * The one builder of the contract's requests: a listing with a query, a create, a get. Paths and operation names come
 * from the contract model (its operations, by role), so that no phase spells the listing out again.
 */
import type { OutgoingRequest } from '../http/sender.js';
import { type Contract, pathOf, ROLES, type Role, pathWith } from '../model/contract.js';
import type { JsonValue } from '../model/json.js';
import type { AuthVariant } from '../model/contract-names.js';

/** What a request may carry besides what its role fixes. */
export interface RequestExtras {
  auth?: AuthVariant;
  headers?: Record<string, string>;
  /** Where the exchange belongs, in words (`the store fill`): what the store model names it by. */
  label?: string;
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
}

/** The builder of a contract's requests. */
export function contractRequests(contract: Pick<Contract, 'operations'>): ContractRequests {
  const base = (role: Role, method: string, extras: RequestExtras | undefined): OutgoingRequest => ({
    method,
    path: pathOf(contract, role),
    query: [],
    headers: { ...extras?.headers },
    auth: extras?.auth ?? 'valid',
    operation: ROLES[role],
    ...(extras?.label === undefined ? {} : { label: extras.label }),
  });
  return {
    pathOf: (role) => pathOf(contract, role),
    listing: (query = [], extras) => ({ ...base('list', 'GET', extras), query: query.map(([name, value]) => [name, value]) }),
    create: (pet, extras) => ({ ...base('create', 'POST', extras), json: pet }),
    get: (id, extras) => {
      const request = base('get', 'GET', extras);
      return { ...request, path: pathWith(request.path, encodeURIComponent(id)) };
    },
  };
}
