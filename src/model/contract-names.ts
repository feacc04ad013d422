/**
 * The contract's names that the model files share: its operations, its resource schemas, the credentials a request may
 * carry. A file of its own that imports nothing, so that scenarios, exchanges and results all stand on it.
 */
/**
 * The operations of the contract, by operationId: the one list (the scenario schema's enum and the OpenAPI document are
 * held to it by a test).
 */
export const OPERATION_NAMES = ['listPets', 'createPet', 'getPet'] as const;

/** An operation of the contract. */
export type OperationName = (typeof OPERATION_NAMES)[number];

/** The named resource schemas in schemas/. */
export type SchemaName = 'PetStatus' | 'NewPet' | 'Pet' | 'Pets' | 'Error';

/**
 * Which credential a request carries. The key itself never appears in a scenario file:
 * these names describe how the engine derives the header from it.
 */
export type AuthVariant =
  | 'valid'
  | 'none'
  | 'wrong-token'
  | 'empty-bearer'
  | 'basic-scheme'
  | 'appended-char'
  | 'removed-char'
  | 'lowercase-scheme'
  | 'swapped-case'
  | 'basic-raw'
  | 'token-scheme'
  | 'no-scheme'
  | 'prefixed-char'
  | 'space-inside'
  | 'scheme-suffix'
  | 'trailing-token'
  | 'uppercase-scheme'
  | 'double-space'
  | 'list-form'
  | 'two-headers';

/**
 * The API key put where the contract takes no credential: a query parameter, a header other than Authorization, a cookie,
 * under this name. Reports name the place, never the key.
 */
export interface KeyElsewhere {
  in: 'query' | 'header' | 'cookie';
  name: string;
}
