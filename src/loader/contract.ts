/** Loads the contract as data: the resource schemas (compiled once) and the operations of the OpenAPI document. */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { RunError } from '../model/errors.js';
import { toValidationView, type JsonValue } from '../model/json.js';
import type { OperationName, SchemaName } from '../model/scenario.js';

// ajv-formats ships CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The names of the resource schemas, as their `title`s spell them. */
export const SCHEMA_NAMES: readonly SchemaName[] = ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error'];

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
}

/** The compiled contract. */
export interface Contract {
  /** Validates a value against a resource schema; returns every error, empty when valid. */
  validate(schema: SchemaName, value: JsonValue): string[];
  operations: ReadonlyMap<OperationName, OperationInfo>;
  /** The raw schema documents by $id, for tools that generate from them. */
  schemaDocuments: ReadonlyMap<string, Record<string, unknown>>;
}

/** A fresh ajv instance in strict mode with the standard formats. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // ajv-formats' int64 accepts any integer; bound it (the validation view maps values beyond int64 to ±2^64).
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 63 });
  return ajv;
}

/** Renders ajv errors as one line each: `/path: message`. */
export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === '' ? '(root)' : e.instancePath;
    const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params['additionalProperty'])}'` : '';
    const allowed = e.keyword === 'enum' ? ` (${(e.params['allowedValues'] as unknown[]).map(String).join(', ')})` : '';
    return `${where}: ${e.message ?? e.keyword}${extra}${allowed}`;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJsonFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RunError('ERR_SCHEMA_INVALID', `${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RunError('ERR_SCHEMA_INVALID', `${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(value)) throw new RunError('ERR_SCHEMA_INVALID', `${file}: a schema must be a JSON object`);
  return value;
}

/** Loads every `*.schema.json` of a folder into ajv; throws RunError naming the file on any problem. */
export async function loadSchemaDocuments(dir: string): Promise<Map<string, { file: string; schema: Record<string, unknown> }>> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.schema.json')).sort();
  const documents = new Map<string, { file: string; schema: Record<string, unknown> }>();
  for (const name of names) {
    const file = path.join(dir, name);
    const schema = await readJsonFile(file);
    const id = schema['$id'];
    if (typeof id !== 'string') throw new RunError('ERR_SCHEMA_INVALID', `${file}: the schema has no $id`);
    documents.set(id, { file, schema });
  }
  return documents;
}

function refToSchemaName(ref: unknown, titlesByFile: Map<string, SchemaName>): SchemaName | undefined {
  if (typeof ref !== 'string') return undefined;
  return titlesByFile.get(path.posix.basename(ref));
}

function resolveResponse(doc: Record<string, unknown>, response: unknown): Record<string, unknown> | undefined {
  if (!isRecord(response)) return undefined;
  const ref = response['$ref'];
  if (typeof ref !== 'string') return response;
  const name = ref.replace('#/components/responses/', '');
  const components = doc['components'];
  const responses = isRecord(components) ? components['responses'] : undefined;
  const target = isRecord(responses) ? responses[name] : undefined;
  return isRecord(target) ? target : undefined;
}

function readOperations(doc: Record<string, unknown>, titlesByFile: Map<string, SchemaName>, file: string): Map<OperationName, OperationInfo> {
  const operations = new Map<OperationName, OperationInfo>();
  const paths = doc['paths'];
  if (!isRecord(paths)) throw new RunError('ERR_SCHEMA_INVALID', `${file}: no paths`);
  for (const [pathTemplate, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isRecord(operation) || typeof operation['operationId'] !== 'string') continue;
      const responses = new Map<number, SchemaName | undefined>();
      const documented = isRecord(operation['responses']) ? operation['responses'] : {};
      for (const [status, raw] of Object.entries(documented)) {
        const response = resolveResponse(doc, raw);
        const content = response && isRecord(response['content']) ? response['content'] : undefined;
        const media = content && isRecord(content['application/json']) ? content['application/json'] : undefined;
        const schema = media && isRecord(media['schema']) ? media['schema'] : undefined;
        responses.set(Number(status), refToSchemaName(schema?.['$ref'], titlesByFile));
      }
      const info: OperationInfo = {
        name: operation['operationId'] as OperationName,
        method: method.toUpperCase(),
        path: pathTemplate,
        deprecated: operation['deprecated'] === true,
        responses,
      };
      if (typeof operation['x-sunset'] === 'string') info.sunset = operation['x-sunset'];
      operations.set(info.name, info);
    }
  }
  return operations;
}

/** Loads schemas/ (every resource schema and openapi.yaml) and compiles the validators once. */
export async function loadContract(schemasDir: string): Promise<Contract> {
  const documents = await loadSchemaDocuments(schemasDir);
  const ajv = createAjv();
  const titlesByFile = new Map<string, SchemaName>();
  const validators = new Map<SchemaName, ValidateFunction>();
  for (const { file, schema } of documents.values()) {
    try {
      ajv.addSchema(schema);
    } catch (error) {
      throw new RunError('ERR_SCHEMA_INVALID', `${file}: ${(error as Error).message}`);
    }
    const title = schema['title'];
    if (typeof title === 'string' && (SCHEMA_NAMES as readonly string[]).includes(title)) {
      titlesByFile.set(path.basename(file), title as SchemaName);
    }
  }
  for (const { file, schema } of documents.values()) {
    const title = titlesByFile.get(path.basename(file));
    if (title === undefined) continue;
    try {
      const validate = ajv.getSchema(schema['$id'] as string);
      if (validate) validators.set(title, validate);
    } catch (error) {
      throw new RunError('ERR_SCHEMA_INVALID', `${file}: ${(error as Error).message}`);
    }
  }
  for (const name of SCHEMA_NAMES) {
    if (!validators.has(name)) throw new RunError('ERR_SCHEMA_INVALID', `${schemasDir}: no schema titled ${name}`);
  }
  const openapiFile = path.join(schemasDir, 'openapi.yaml');
  let openapi: unknown;
  try {
    openapi = parseYaml(await readFile(openapiFile, 'utf8'));
  } catch (error) {
    throw new RunError('ERR_SCHEMA_INVALID', `${openapiFile}: ${(error as Error).message.split('\n')[0] ?? 'cannot read'}`);
  }
  if (!isRecord(openapi)) throw new RunError('ERR_SCHEMA_INVALID', `${openapiFile}: not an OpenAPI document`);
  const operations = readOperations(openapi, titlesByFile, openapiFile);
  const schemaDocuments = new Map([...documents].map(([id, d]) => [id, d.schema]));
  return {
    validate(schema, value) {
      const validator = validators.get(schema);
      if (!validator) return [`unknown schema ${schema}`];
      return validator(toValidationView(value)) ? [] : formatAjvErrors(validator.errors);
    },
    operations,
    schemaDocuments,
  };
}
