/** YAML input files validated against their own JSON Schema, with every problem located at file:line:col. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Document, LineCounter, Node } from 'yaml';
import { RunError, type RunErrorCode } from '../model/errors.js';
import { didYouMean, editDistance } from '../model/suggest.js';
import { parseExactJson, toValidationView, type JsonValue } from '../model/json.js';
import { formatAjvErrors } from './ajv-errors.js';
import { InputFileError, InvalidUtf8Error, readInputFile } from './input-file.js';

/** How many times a YAML file may expand an alias: enough for any real file, far from a "billion laughs" one. */
const MAX_ALIAS_COUNT = 100;

/** A problem found in an input file, already located. */
export interface FileProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  /** Where in the document, for a problem found by the schema. */
  path?: ReadonlyArray<string | number>;
}

/** Renders a problem as the one line users see: `file:line:col: message`. */
export function formatProblem(p: FileProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** A parsed YAML file that can say where any value of it stands. */
export interface YamlSource {
  file: string;
  value: JsonValue;
  /** Line and column (1-based) of the value at a JSON pointer-like path, or of its nearest parent. */
  locate(path: ReadonlyArray<string | number>, key?: boolean): { line: number; column: number };
}

function normaliseNumbers(value: unknown): JsonValue {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(normaliseNumbers);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normaliseNumbers(v);
    return out;
  }
  return value as JsonValue;
}

/** A line and a column, 1-based. */
type Position = readonly [line: number, column: number];

/** Where every value (and every map key) of a YAML document stands, by path. */
export interface YamlLocations {
  values: Record<string, Position>;
  keys: Record<string, Position>;
}

/** A path as a table key. */
function pathKey(path: ReadonlyArray<string | number>): string {
  return path.map(String).join('\u0001');
}

/** Walks the document once: each node's position under its path (a repeated key keeps its first), each map key's too. */
function locationsOf(doc: Document, lineCounter: LineCounter, yaml: typeof import('yaml')): YamlLocations {
  const locations: YamlLocations = { values: {}, keys: {} };
  const at = (node: Node | null | undefined): Position | undefined => {
    if (!node?.range) return undefined;
    const pos = lineCounter.linePos(node.range[0]);
    return [pos.line, pos.col];
  };
  const visit = (node: unknown, path: Array<string | number>): void => {
    const key = pathKey(path);
    const position = at(node as Node | undefined);
    if (position === undefined || locations.values[key] !== undefined) return;
    locations.values[key] = position;
    if (yaml.isMap(node)) {
      for (const pair of node.items) {
        if (!yaml.isScalar(pair.key)) continue;
        const child = [...path, String(pair.key.value)];
        const keyPosition = at(pair.key);
        if (keyPosition !== undefined) locations.keys[pathKey(child)] ??= keyPosition;
        visit(pair.value, child);
      }
    } else if (yaml.isSeq(node)) {
      for (const [index, item] of node.items.entries()) visit(item, [...path, index]);
    }
  };
  visit(doc.contents, []);
  return locations;
}

/** A source over a value and its location table: a path missing from the table stands at its nearest parent. */
function sourceOf(file: string, value: JsonValue, locations: YamlLocations): YamlSource {
  return {
    file,
    value,
    locate(path, key = false) {
      for (let depth = path.length; depth >= 0; depth--) {
        const prefix = pathKey(path.slice(0, depth));
        const position = key && depth === path.length ? locations.keys[prefix] : locations.values[prefix];
        if (position !== undefined) return { line: position[0], column: position[1] };
      }
      return { line: 1, column: 1 };
    },
  };
}

/** A YAML text parsed (the yaml library loaded on demand), its syntax problems, and where each of its values stands. */
export async function parseYamlText(
  file: string,
  text: string,
): Promise<{ value?: JsonValue; locations?: YamlLocations; problems: FileProblem[] }> {
  const yaml = await import('yaml');
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, intAsBigInt: true, prettyErrors: false, uniqueKeys: true });
  const problems = doc.errors.map((e): FileProblem => {
    const pos = lineCounter.linePos(e.pos[0]);
    return { file, line: pos.line, column: pos.col, message: e.message.split('\n')[0] ?? e.message };
  });
  // After the first syntax error the parser's further complaints are mostly echoes of it.
  if (problems.length > 0) return { problems: problems.slice(0, 1) };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library refuses an alias expansion past the bound (a "billion laughs" file) by throwing.
    return {
      problems: [
        {
          file,
          line: 1,
          column: 1,
          message: `the YAML cannot be expanded: ${(error as Error).message} (at most ${MAX_ALIAS_COUNT} alias expansions)`,
        },
      ],
    };
  }
  return { value: normaliseNumbers(value), locations: locationsOf(doc, lineCounter, yaml), problems };
}

/** The file the build writes (dist/src/loader/parsed-yaml.json): the package's own YAML files parsed, by the digest of their text. */
export const PARSED_YAML_FILE = 'parsed-yaml.json';

/** A parsed file as the build keeps it: the value as exact JSON text (int64 literals stay exact), and its locations. */
export interface ParsedYamlEntry {
  value: string;
  locations: YamlLocations;
}

/** The digest a text is found by in the parsed-YAML file. */
export function yamlDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

let parsedByDigest: Promise<Readonly<Record<string, ParsedYamlEntry>>> | undefined;

/** The package's YAML files as the build parsed them; none in a source checkout that was not built. */
function buildParsedYaml(): Promise<Readonly<Record<string, ParsedYamlEntry>>> {
  parsedByDigest ??= readFile(new URL(`./${PARSED_YAML_FILE}`, import.meta.url), 'utf8').then(
    (text) => JSON.parse(text) as Record<string, ParsedYamlEntry>,
    () => ({}),
  );
  return parsedByDigest;
}

/**
 * Reads and parses a YAML file; syntax problems come back as problems, not exceptions. A file the build parsed (the same text) is not
 * parsed again.
 */
export async function readYamlSource(file: string): Promise<{ source?: YamlSource; problems: FileProblem[] }> {
  let text: string;
  try {
    text = await readInputFile(file);
  } catch (error) {
    const message =
      error instanceof InputFileError && error.message.startsWith('cannot read')
        ? `cannot read the file (${error.code})`
        : (error as Error).message;
    // A file that is not UTF-8 is refused where its first bad byte stands, before its text is looked up or parsed.
    return {
      problems: [
        {
          file,
          line: error instanceof InvalidUtf8Error ? error.line : 1,
          column: error instanceof InvalidUtf8Error ? error.column : 1,
          message,
        },
      ],
    };
  }
  const built = (await buildParsedYaml())[yamlDigest(text)];
  if (built !== undefined) return { source: sourceOf(file, parseExactJson(built.value), built.locations), problems: [] };
  const { value, locations, problems } = await parseYamlText(file, text);
  return value === undefined || locations === undefined ? { problems } : { source: sourceOf(file, value, locations), problems };
}

function pathOf(error: ErrorObject): Array<string | number> {
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/');
  return segments.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Validates a parsed file against its schema and locates every error. Errors of `oneOf`/`anyOf`
 * branches are folded into the most specific ones so a user sees what to fix, not the schema's shape.
 */
function schemaProblems(source: YamlSource, validate: ValidateFunction, validationView: unknown): FileProblem[] {
  if (validate(validationView)) return [];
  const all = validate.errors ?? [];
  // Branch errors of anyOf/oneOf say what to fix; the combinator's own error only says that none matched.
  const specific = all.filter((e) => !['oneOf', 'anyOf', 'not', 'if'].includes(e.keyword));
  const chosen = specific.length > 0 ? specific : all;
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of chosen) byPath.set(error.instancePath, [...(byPath.get(error.instancePath) ?? []), error]);
  const problems: FileProblem[] = [];
  const seen = new Set<string>();
  for (const [instancePath, errors] of byPath) {
    const types = errors.filter((e) => e.keyword === 'type');
    // Alternatives that each require another key are one problem: any of them will do.
    const alternatives = errors.filter((e) => e.keyword === 'required' && /\/(oneOf|anyOf)\//.test(e.schemaPath));
    const others = errors.filter((e) => e.keyword !== 'type' && !alternatives.includes(e));
    const first = alternatives[0];
    if (first !== undefined)
      others.push({
        ...first,
        message: `must have one of the properties ${alternatives.map((e) => `'${String(e.params['missingProperty'])}'`).join(' or ')}`,
      });
    // Alternatives of one value: a type mismatch matters only when no branch of the right type complained.
    const messages = others.map((error) => ({
      error,
      text: messageOf(error, (validate as { schema?: unknown }).schema, valueAt(source.value, pathOf(error))),
    }));
    if (others.length === 0 && types.length > 0) {
      const wanted = [...new Set(types.map((e) => String(e.params['type'])))].join(' or ');
      messages.push({ error: types[0] as ErrorObject, text: `${instancePath || '(root)'}: must be ${wanted}` });
    }
    for (const { error, text } of messages) {
      const path = pathOf(error);
      const isKey = error.keyword === 'additionalProperties';
      if (isKey) path.push(String(error.params['additionalProperty']));
      const where = source.locate(path, isKey);
      const key = `${where.line}:${where.column}:${text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push({ file: source.file, line: where.line, column: where.column, message: text, path });
    }
  }
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The keys the schema allows where an unknown key stands: the `properties` beside the failing `additionalProperties`. */
function allowedKeys(schema: unknown, schemaPath: string): string[] {
  if (!schemaPath.startsWith('#/')) return [];
  let node: unknown = schema;
  for (const segment of schemaPath.slice(2).split('/').slice(0, -1)) {
    node =
      typeof node === 'object' && node !== null
        ? (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
        : undefined;
  }
  const properties = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)['properties'] : undefined;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** The most keys an unknown key's message lists when none is close to it. */
const LISTED_KEYS = 16;

/** What follows an unknown key: the key likely meant (the closest, or the equally close ones), else the keys allowed there. */
function keyHint(key: string, allowed: readonly string[]): string {
  const word = key.toLowerCase();
  const near = allowed.map((name) => ({ name, distance: editDistance(word, name.toLowerCase()) }));
  const least = Math.min(...near.map((n) => n.distance));
  const best = near.filter((n) => n.distance === least && least <= Math.max(1, Math.floor(word.length / 3))).map((n) => n.name);
  if (best.length > 0) return ` (did you mean ${best.join(' or ')}?)`;
  return allowed.length > 0 && allowed.length <= LISTED_KEYS ? ` (the keys here are: ${allowed.join(', ')})` : '';
}

/** The value at a path of a document, if there is one. */
function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  return path.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
    value,
  );
}

function messageOf(error: ErrorObject, schema: unknown, value: unknown): string {
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params['additionalProperty']);
    return `unknown key '${key}' at ${error.instancePath || '(root)'}${keyHint(key, allowedKeys(schema, error.schemaPath))}`;
  }
  if (error.keyword === 'enum' && typeof value === 'string') {
    const allowed = (error.params['allowedValues'] as unknown[]).filter((v): v is string => typeof v === 'string');
    return `${formatAjvErrors([error])[0] ?? error.keyword}${didYouMean(value, allowed)}`;
  }
  if (error.keyword === 'false schema') return `${error.instancePath}: not allowed here`;
  return formatAjvErrors([error])[0] ?? error.keyword;
}

/**
 * Reads a YAML file and validates it against its schema; every problem carries the file's display name. The source comes
 * back only when the file is valid, or with `keepSource` whenever it parsed (a caller that goes on to find more problems).
 */
export async function validateYamlFile(
  file: string,
  validate: ValidateFunction,
  display: string,
  keepSource = false,
): Promise<{ source?: YamlSource; problems: FileProblem[] }> {
  const { source, problems: syntax } = await readYamlSource(file);
  const problems = syntax.map((p) => ({ ...p, file: display }));
  if (source) problems.push(...schemaProblems(source, validate, toValidationView(source.value)).map((p) => ({ ...p, file: display })));
  return source && (keepSource || problems.length === 0) ? { source, problems } : { problems };
}

/** The problems of some input files as one error: the problem itself, or a count and every problem once in its details. */
export function problemsError(code: RunErrorCode, what: string, problems: readonly FileProblem[]): RunError {
  const lines = problems.map(formatProblem);
  if (lines.length === 1) return new RunError(code, lines[0] as string);
  return new RunError(code, `${lines.length} problems in ${what}:`, lines);
}
