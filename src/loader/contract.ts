/** Loads the contract as data: the resource schemas (compiled once) and the operations of the OpenAPI document. */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, formatAjvErrors } from './ajv.js';
import { RunError } from '../model/errors.js';
import { isJsonObject, toValidationView, type JsonValue } from '../model/json.js';
import type { OperationName, SchemaName } from '../model/scenario.js';
import { formatProblem, readYamlSource } from './yaml-file.js';

/** The names of the resource schemas, as their `title`s spell them. */
const SCHEMA_NAMES: readonly SchemaName[] = ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error'];

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
  /** The line of the operation in the OpenAPI document, for tracing generated checks. */
  line: number;
}

/** The compiled contract. */
export interface Contract {
  /** Validates a value against a resource schema; returns every error, empty when valid. */
  validate(schema: SchemaName, value: JsonValue): string[];
  operations: ReadonlyMap<OperationName, OperationInfo>;
  /** listPets' page size: minimum, maximum and default, from the `limit` parameter; undefined when not documented. */
  listLimit?: { min: number; max: number; default: number };
  /** The operation a request addresses, by method and path (relative to the base URL). */
  operationFor(method: string, path: string): OperationName | undefined;
  /** The schema document of a named resource. */
  schemaOf(name: SchemaName): Record<string, unknown>;
  /** The compiled validator of one of the input-file schemas in schemas/ (e.g. scenario.schema.json). */
  fileValidator(fileName: string): ValidateFunction;
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
  if (!isJsonObject(value)) throw new RunError('ERR_SCHEMA_INVALID', `${file}: a schema must be a JSON object`);
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
  if (!isJsonObject(response)) return undefined;
  const ref = response['$ref'];
  if (typeof ref !== 'string') return response;
  const name = ref.replace('#/components/responses/', '');
  const components = doc['components'];
  const responses = isJsonObject(components) ? components['responses'] : undefined;
  const target = isJsonObject(responses) ? responses[name] : undefined;
  return isJsonObject(target) ? target : undefined;
}

function readOperations(doc: Record<string, unknown>, titlesByFile: Map<string, SchemaName>, file: string, lineOf: (path: string[]) => number): Map<OperationName, OperationInfo> {
  const operations = new Map<OperationName, OperationInfo>();
  const paths = doc['paths'];
  if (!isJsonObject(paths)) throw new RunError('ERR_SCHEMA_INVALID', `${file}: no paths`);
  for (const [pathTemplate, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isJsonObject(operation) || typeof operation['operationId'] !== 'string') continue;
      const responses = new Map<number, SchemaName | undefined>();
      const documented = isJsonObject(operation['responses']) ? operation['responses'] : {};
      for (const [status, raw] of Object.entries(documented)) {
        const response = resolveResponse(doc, raw);
        const content = response && isJsonObject(response['content']) ? response['content'] : undefined;
        const media = content && isJsonObject(content['application/json']) ? content['application/json'] : undefined;
        const schema = media && isJsonObject(media['schema']) ? media['schema'] : undefined;
        responses.set(Number(status), refToSchemaName(schema?.['$ref'], titlesByFile));
      }
      const queryParameters = new Map<string, Record<string, unknown>>();
      for (const parameter of Array.isArray(operation['parameters']) ? (operation['parameters'] as unknown[]) : []) {
        if (isJsonObject(parameter) && parameter['in'] === 'query' && typeof parameter['name'] === 'string' && isJsonObject(parameter['schema'])) {
          queryParameters.set(parameter['name'], parameter['schema']);
        }
      }
      const security = Array.isArray(operation['security']) ? operation['security'] : doc['security'];
      const info: OperationInfo = {
        name: operation['operationId'] as OperationName,
        method: method.toUpperCase(),
        path: pathTemplate,
        deprecated: operation['deprecated'] === true,
        responses,
        queryParameters,
        secured: Array.isArray(security) && security.length > 0,
        line: lineOf(['paths', pathTemplate, method]),
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
  const { source, problems } = await readYamlSource(openapiFile);
  if (!source || !isJsonObject(source.value)) throw new RunError('ERR_SCHEMA_INVALID', problems[0] ? formatProblem(problems[0]) : `${openapiFile}: not an OpenAPI document`);
  const operations = readOperations(source.value as Record<string, unknown>, titlesByFile, openapiFile, (p) => source.locate(p).line);
  // Each path template as a pattern once, e.g. /pets/{petId} → ^/pets/[^/]+$ (templates hold no other regex syntax).
  const matchers = [...operations.values()].map((op) => ({ name: op.name, method: op.method, pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  const schemasByName = new Map([...documents.values()].map((d) => [d.schema['title'], d.schema]));
  const limitSchema = operations.get('listPets')?.queryParameters.get('limit');
  const [min, max, fallback] = ['minimum', 'maximum', 'default'].map((key) => limitSchema?.[key]);
  const listLimit = typeof min === 'number' && typeof max === 'number' && typeof fallback === 'number' ? { min, max, default: fallback } : undefined;
  return {
    ...(listLimit === undefined ? {} : { listLimit }),
    validate(schema, value) {
      const validator = validators.get(schema);
      if (!validator) return [`unknown schema ${schema}`];
      return validator(toValidationView(value)) ? [] : formatAjvErrors(validator.errors);
    },
    operations,
    schemaOf: (name) => schemasByName.get(name) ?? {},
    fileValidator(fileName) {
      const found = [...documents.values()].find((d) => path.basename(d.file) === fileName);
      if (!found) throw new RunError('ERR_SCHEMA_INVALID', `${schemasDir}: ${fileName} is missing`);
      const validate = ajv.getSchema(found.schema['$id'] as string);
      if (!validate) throw new RunError('ERR_SCHEMA_INVALID', `${found.file}: does not compile`);
      return validate;
    },
    operationFor(method, requestPath) {
      return matchers.find((m) => m.method === method && m.pattern.test(requestPath))?.name;
    },
  };
}
