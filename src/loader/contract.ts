/** Loads the contract as data: the resource schemas (compiled once) and the operations of the OpenAPI document. */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajvFailures } from './ajv-errors.js';
import { type Contract, type OperationInfo, ROLES } from '../model/contract.js';
import { RunError } from '../model/errors.js';
import type { SourceLocation } from '../model/source-location.js';
import { isJsonObject, toValidationView } from '../model/json.js';
import type { OperationName, SchemaName } from '../model/contract-names.js';
import { formatProblem, readYamlSource } from './yaml-file.js';

/** The names of the resource schemas, as their `title`s spell them. */
const SCHEMA_NAMES: readonly SchemaName[] = ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error'];

/** The contract with what the loader also needs: validators of the suite's own input files. */
export interface LoadedContract extends Contract {
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

/** The schema documents by $id, as read. */
type SchemaDocuments = Map<string, { file: string; schema: Record<string, unknown> }>;

/** Loads every `*.schema.json` of a folder into ajv; throws RunError naming the file on any problem. */
export async function loadSchemaDocuments(dir: string): Promise<SchemaDocuments> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.schema.json')).sort();
  const documents: SchemaDocuments = new Map();
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

function readOperations(
  doc: Record<string, unknown>,
  titlesByFile: Map<string, SchemaName>,
  file: string,
  sourceOf: (path: string[]) => SourceLocation,
): Map<OperationName, OperationInfo> {
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
        if (
          isJsonObject(parameter) &&
          parameter['in'] === 'query' &&
          typeof parameter['name'] === 'string' &&
          isJsonObject(parameter['schema'])
        ) {
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
        source: sourceOf(['paths', pathTemplate, method]),
      };
      if (typeof operation['x-sunset'] === 'string') info.sunset = operation['x-sunset'];
      operations.set(info.name, info);
    }
  }
  return operations;
}

const loaded = new Map<string, Promise<LoadedContract>>();

/** The contract of schemas/ (every resource schema and openapi.yaml), read once per process; each validator compiles on first use. */
export function loadContract(schemasDir: string): Promise<LoadedContract> {
  let contract = loaded.get(schemasDir);
  if (contract === undefined) {
    contract = readContract(schemasDir);
    // A folder that failed to load is read again next time, so the error is not cached.
    contract.catch(() => loaded.delete(schemasDir));
    loaded.set(schemasDir, contract);
  }
  return contract;
}

/** A digest of the schema documents' content: the precompiled validators serve only the schemas they were compiled from. */
export function schemaDigest(documents: SchemaDocuments): string {
  const hash = createHash('sha256');
  for (const [id, { schema }] of [...documents].sort(([a], [b]) => (a < b ? -1 : 1)))
    hash.update(`${id}\u0000${JSON.stringify(schema)}\u0000`);
  return hash.digest('hex');
}

/** The module the build writes (dist/src/loader/precompiled-validators.js): ajv's standalone validators of schemas/, by $id. */
export const PRECOMPILED_MODULE = 'precompiled-validators.js';

/**
 * The validators compiled at build time, when they were compiled from these very documents; undefined otherwise (a source checkout without
 * a build, schemas changed since).
 */
async function precompiledValidators(documents: SchemaDocuments): Promise<ReadonlyMap<string, ValidateFunction> | undefined> {
  let loaded: unknown;
  try {
    loaded = await import(new URL(`./${PRECOMPILED_MODULE}`, import.meta.url).href);
  } catch {
    return undefined;
  }
  const module = loaded as { digest?: unknown; exportsById?: unknown } & Record<string, unknown>;
  if (module.digest !== schemaDigest(documents) || typeof module.exportsById !== 'object' || module.exportsById === null) return undefined;
  const validators = new Map<string, ValidateFunction>();
  for (const [id, exported] of Object.entries(module.exportsById as Record<string, unknown>)) {
    const validate = typeof exported === 'string' ? module[exported] : undefined;
    if (typeof validate !== 'function') continue;
    // A standalone validator does not carry its schema as ajv's own do; the messages read the keys a place allows off it.
    const withSchema = validate as ValidateFunction;
    withSchema.schema = documents.get(id)?.schema ?? {};
    validators.set(id, withSchema);
  }
  return validators.size === documents.size ? validators : undefined;
}

/** Every schema added to a fresh ajv (checked against its meta-schema), each compiled on first use. */
async function ajvValidators(documents: SchemaDocuments): Promise<(id: string, file: string) => ValidateFunction> {
  // ajv is loaded only here: a build's precompiled validators spare a run its import and its compiling.
  const { createAjv } = await import('./ajv.js');
  const ajv = createAjv();
  for (const { file, schema } of documents.values()) {
    try {
      ajv.addSchema(schema);
    } catch (error) {
      throw new RunError('ERR_SCHEMA_INVALID', `${file}: ${(error as Error).message}`);
    }
  }
  return (id, file) => {
    try {
      const validate = ajv.getSchema(id);
      if (validate) return validate;
    } catch (error) {
      throw new RunError('ERR_SCHEMA_INVALID', `${file}: ${(error as Error).message}`);
    }
    throw new RunError('ERR_SCHEMA_INVALID', `${file}: does not compile`);
  };
}

async function readContract(schemasDir: string): Promise<LoadedContract> {
  const documents = await loadSchemaDocuments(schemasDir);
  const titlesByFile = new Map<string, SchemaName>();
  for (const { file, schema } of documents.values()) {
    const title = schema['title'];
    if (typeof title === 'string' && (SCHEMA_NAMES as readonly string[]).includes(title)) {
      titlesByFile.set(path.basename(file), title as SchemaName);
    }
  }
  const idByTitle = new Map<SchemaName, string>();
  for (const { file, schema } of documents.values()) {
    const title = titlesByFile.get(path.basename(file));
    if (title !== undefined) idByTitle.set(title, schema['$id'] as string);
  }
  for (const name of SCHEMA_NAMES) {
    if (!idByTitle.has(name)) throw new RunError('ERR_SCHEMA_INVALID', `${schemasDir}: no schema titled ${name}`);
  }
  const precompiled = await precompiledValidators(documents);
  // Without them, ajv compiles each schema on first use, once: a run that never validates a Pet never pays for it.
  const compiled =
    precompiled === undefined
      ? await ajvValidators(documents)
      : (id: string, file: string): ValidateFunction => {
          const validate = precompiled.get(id);
          if (validate === undefined) throw new RunError('ERR_SCHEMA_INVALID', `${file}: not among the precompiled validators`);
          return validate;
        };
  const openapiFile = path.join(schemasDir, 'openapi.yaml');
  const { source, problems } = await readYamlSource(openapiFile);
  if (!source || !isJsonObject(source.value))
    throw new RunError('ERR_SCHEMA_INVALID', problems[0] ? formatProblem(problems[0]) : `${openapiFile}: not an OpenAPI document`);
  const operations = readOperations(source.value as Record<string, unknown>, titlesByFile, openapiFile, (p) => ({
    file: 'schemas/openapi.yaml',
    ...source.locate(p),
  }));
  // Each path template as a pattern once, e.g. /pets/{petId} → ^/pets/[^/]+$ (templates hold no other regex syntax).
  const matchers = [...operations.values()].map((op) => ({
    name: op.name,
    method: op.method,
    pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const schemasByName = new Map([...documents.values()].map((d) => [d.schema['title'], d.schema]));
  const limitSchema = operations.get(ROLES.list)?.queryParameters.get('limit');
  const [min, max, fallback] = ['minimum', 'maximum', 'default'].map((key) => limitSchema?.[key]);
  const listLimit =
    typeof min === 'number' && typeof max === 'number' && typeof fallback === 'number' ? { min, max, default: fallback } : undefined;
  const info = (source.value as Record<string, unknown>)['info'];
  const version = isJsonObject(info) && typeof info['version'] === 'string' ? info['version'] : undefined;
  return {
    ...(version === undefined ? {} : { version }),
    ...(listLimit === undefined ? {} : { listLimit }),
    validate(schema, value) {
      const id = idByTitle.get(schema);
      if (id === undefined) return [{ message: `unknown schema ${schema}` }];
      const validator = compiled(id, schema);
      return validator(toValidationView(value)) ? [] : ajvFailures(validator.errors);
    },
    operations,
    schemaOf: (name) => schemasByName.get(name) ?? {},
    fileValidator(fileName) {
      const found = [...documents.values()].find((d) => path.basename(d.file) === fileName);
      if (!found) throw new RunError('ERR_SCHEMA_INVALID', `${schemasDir}: ${fileName} is missing`);
      return compiled(found.schema['$id'] as string, found.file);
    },
    operationFor(method, requestPath) {
      return matchers.find((m) => m.method === method && m.pattern.test(requestPath))?.name;
    },
  };
}
