/** The contract as the checks see it: validators of its schemas and the operations of its OpenAPI document. */
import type { JsonValue } from './json.js';
import type { Failure } from './results.js';
import type { SourceLocation } from './source-location.js';
import type { OperationName, SchemaName } from './contract-names.js';

/** A documented operation as the OpenAPI document describes it. */
export interface OperationInfo {
  name: OperationName;
  method: string;
  /** Path template relative to the base URL, e.g. /pets/{petId}. */
  path: string;
  deprecated: boolean;
  /** The removal date (YYYY-MM-DD) of a deprecated operation. */
  sunset?: string;
  /** Documented response statuses and the schema of each body. */
  responses: Map<number, SchemaName | undefined>;
  /** Query parameters and their schemas, as documented. */
  queryParameters: Map<string, Record<string, unknown>>;
  /** Whether the operation requires the bearer credential (its own or the document's security). */
  secured: boolean;
  /** Where the operation is declared in the OpenAPI document, for tracing generated cases. */
  source: SourceLocation;
}

/** The compiled contract. */
export interface Contract {
  /** The contract's version (openapi.yaml's `info.version`), when the document states one. */
  version?: string;
  /** Validates a value against a resource schema; every problem with its pointer and schema path, empty when valid. */
  validate(schema: SchemaName, value: JsonValue): Failure[];
  operations: ReadonlyMap<OperationName, OperationInfo>;
  /** listPets' page size: minimum, maximum and default, from the `limit` parameter; undefined when not documented. */
  listLimit?: ListLimit;
  /** The operation a request addresses, by method and path (relative to the base URL). */
  operationFor(method: string, path: string): OperationName | undefined;
  /** The schema document of a named resource. */
  schemaOf(name: SchemaName): Record<string, unknown>;
}

/** listPets' page size as the contract states it (limit 1..100, default 20): what the suite assumes where the document is silent. */
export const STATED_LIST_LIMIT: Readonly<ListLimit> = { min: 1, max: 100, default: 20 };

/** listPets' page size: minimum, maximum and default. */
export interface ListLimit {
  min: number;
  max: number;
  default: number;
}

/** listPets' page size bounds: the document's, else the contract's stated ones. */
export function listLimitOf(contract: Pick<Contract, 'listLimit'>): Readonly<ListLimit> {
  return contract.listLimit ?? STATED_LIST_LIMIT;
}

/** The operation that plays each role of the contract: list the pets, create one, get one by id. */
export const ROLES = { list: 'listPets', create: 'createPet', get: 'getPet' } as const satisfies Record<string, OperationName>;

/** A role of the contract's operations. */
export type Role = keyof typeof ROLES;

/** Whether an operation (a request's, an exchange's) plays a role: `plays(request.operation, 'list')`. */
export function plays(operation: OperationName, role: Role): boolean {
  return operation === ROLES[role];
}

/** The path each role takes where the contract document names none (the contract's own prose). */
const STATED_PATHS: Readonly<Record<Role, string>> = { list: '/pets', create: '/pets', get: '/pets/{petId}' };

/** The path template of a role, relative to the base URL: its document's, else the one the contract states. */
export function pathOf(contract: Pick<Contract, 'operations'>, role: Role): string {
  return contract.operations.get(ROLES[role])?.path ?? STATED_PATHS[role];
}

/** A path template with its one parameter (`{petId}`) given: an id, a run variable (`{petId}`), or raw bytes as sent. */
export function pathWith(template: string, value: string): string {
  return template.replace(/\{[^}]+\}/, value);
}

/** The listing's path, as the contract gives it (`/pets` where it gives none): what the preflight, the wait and the load ask. */
export function listPathOf(contract: Pick<Contract, 'operations'>): string {
  return pathOf(contract, 'list');
}

/** The PetStatus values, in the order the schema lists them (none when it lists none). */
export function statusValues(contract: Pick<Contract, 'schemaOf'>): string[] {
  const values = contract.schemaOf('PetStatus')['enum'];
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
}
