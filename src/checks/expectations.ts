/** The assertions a scenario's `expect` and `warn` blocks name: one pure function per key. */
import { isJsonObject, jsonEqual, showJson, type JsonValue } from '../model/json.js';
import type { Exchange } from '../model/exchange.js';
import type { Expectations, HeaderExpectation, SchemaName } from '../model/scenario.js';
import type { Contract } from '../loader/contract.js';
import { fail, pass, type Finding } from './finding.js';
import { isJsonMediaType, mediaType } from './media-type.js';

/** An assertion: a pure function of one exchange and the (already filled) expected value. */
export interface Assertion<T> {
  key: keyof Expectations;
  title: string;
  evaluate(exchange: Exchange, expected: T, contract: Contract): Finding;
}

function bodyArray(exchange: Exchange): JsonValue[] | Finding {
  const body = exchange.response.json;
  if (!Array.isArray(body)) return fail(`the body is not a JSON array (${describeBody(exchange)})`);
  return body;
}

/** A short description of a response body for messages. */
export function describeBody(exchange: Exchange): string {
  const { json, jsonError, bodyText, truncated } = exchange.response;
  if (truncated) return 'the body exceeded the response size cap';
  if (json !== undefined) return Array.isArray(json) ? `an array of ${json.length}` : showJson(json).slice(0, 120);
  if (jsonError !== undefined) return `not JSON: ${bodyText.slice(0, 60)}`;
  return 'empty';
}

function subsetMismatches(actual: JsonValue | undefined, expected: Record<string, JsonValue>): string[] {
  if (!isJsonObject(actual)) return [`expected an object, got ${showJson(actual)}`];
  return Object.entries(expected)
    .filter(([k, v]) => !jsonEqual(actual[k], v))
    .map(([k, v]) => `${k}: expected ${showJson(v)}, got ${showJson(actual[k])}`);
}

function asCount(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

function checkHeader(exchange: Exchange, name: string, expected: HeaderExpectation): string[] {
  const actual = exchange.response.headers[name.toLowerCase()];
  const problems: string[] = [];
  if (expected.present === true && actual === undefined) problems.push(`${name} is missing`);
  if (expected.present === false && actual !== undefined) problems.push(`${name} is present (${actual})`);
  if (expected.equals !== undefined && actual !== expected.equals) problems.push(`${name}: expected '${expected.equals}', got ${actual === undefined ? 'nothing' : `'${actual}'`}`);
  if (expected.date !== undefined && actual !== undefined) {
    const parsed = new Date(actual);
    if (Number.isNaN(parsed.getTime())) problems.push(`${name} is not an HTTP date: '${actual}'`);
    else if (parsed.toISOString().slice(0, 10) !== expected.date) problems.push(`${name} names ${parsed.toISOString().slice(0, 10)}, expected ${expected.date}`);
  }
  if (expected.structuredDate === true && actual !== undefined && !/^@-?\d+$/.test(actual.trim())) problems.push(`${name} is not an RFC 9745 date (@<seconds>): '${actual}'`);
  return problems;
}

const status: Assertion<number | number[]> = {
  key: 'status',
  title: 'The response status is one the scenario allows',
  evaluate(exchange, expected) {
    const allowed = Array.isArray(expected) ? expected : [expected];
    const actual = exchange.response.status;
    return allowed.includes(actual) ? pass(`status ${actual}`) : fail(`expected status ${allowed.join(' or ')}, got ${actual} (${describeBody(exchange)})`);
  },
};

const contentType: Assertion<string> = {
  key: 'contentType',
  title: 'The response has the expected media type',
  evaluate(exchange, expected) {
    const actual = mediaType(exchange.response.headers['content-type']);
    const ok = actual === expected || (expected === 'application/json' && isJsonMediaType(actual));
    return ok ? pass(`content type ${actual ?? ''}`) : fail(`expected content type ${expected}, got ${actual ?? 'none'}`);
  },
};

const schema: Assertion<SchemaName> = {
  key: 'schema',
  title: 'The body matches a schema of the contract',
  evaluate(exchange, expected, contract) {
    const body = exchange.response.json;
    if (body === undefined) return fail(`the body is not a ${expected} (${describeBody(exchange)})`);
    const errors = contract.validate(expected, body);
    return errors.length === 0 ? pass(`body is a ${expected}`) : fail(`the body is not a valid ${expected}: ${errors[0] as string}`, errors);
  },
};

const maxItems: Assertion<number | string> = {
  key: 'maxItems',
  title: 'The array body holds at most so many items',
  evaluate(exchange, expected) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const max = asCount(expected);
    return items.length <= max ? pass(`${items.length} items, at most ${max}`) : fail(`expected at most ${max} items, got ${items.length}`);
  },
};

const minItems: Assertion<number | string> = {
  key: 'minItems',
  title: 'The array body holds at least so many items',
  evaluate(exchange, expected) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const min = asCount(expected);
    return items.length >= min ? pass(`${items.length} items, at least ${min}`) : fail(`expected at least ${min} items, got ${items.length}`);
  },
};

const everyItem: Assertion<Record<string, JsonValue>> = {
  key: 'everyItem',
  title: 'Every item of the array body has the given field values',
  evaluate(exchange, expected) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const bad = items.flatMap((item, i) => subsetMismatches(item, expected).map((m) => `[${i}] ${m}`));
    return bad.length === 0 ? pass(`all ${items.length} items match`) : fail(`${bad.length} item field(s) differ: ${bad[0] as string}`, bad);
  },
};

const body: Assertion<Record<string, JsonValue>> = {
  key: 'body',
  title: 'The body object has the given field values',
  evaluate(exchange, expected) {
    const bad = subsetMismatches(exchange.response.json, expected);
    return bad.length === 0 ? pass('the fields match') : fail(`the body differs: ${bad.join('; ')}`, bad);
  },
};

const includes: Assertion<Record<string, JsonValue>> = {
  key: 'includes',
  title: 'The array body holds an item with the given field values',
  evaluate(exchange, expected) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const found = items.some((item) => subsetMismatches(item, expected).length === 0);
    return found ? pass('the item is listed') : fail(`no item of ${items.length} has ${showJson(expected)}`);
  },
};

const headers: Assertion<Record<string, HeaderExpectation>> = {
  key: 'headers',
  title: 'Response headers are present, absent or equal as stated',
  evaluate(exchange, expected) {
    const bad = Object.entries(expected).flatMap(([name, e]) => checkHeader(exchange, name, e));
    return bad.length === 0 ? pass('headers as expected') : fail(bad.join('; '), bad);
  },
};

const differs: Assertion<Record<string, JsonValue>> = {
  key: 'differs',
  title: 'The body object differs from the given values in each given field',
  evaluate(exchange, expected) {
    const actual = exchange.response.json;
    if (!isJsonObject(actual)) return fail(`expected an object, got ${describeBody(exchange)}`);
    const same = Object.entries(expected).filter(([k, v]) => jsonEqual(actual[k], v)).map(([k, v]) => `${k} is ${showJson(v)} again`);
    return same.length === 0 ? pass('the fields differ') : fail(same.join('; '), same);
  },
};

/** The page size a listing asked for: its `limit`, or the documented default. */
function requestedLimit(exchange: Exchange, contract: Contract): number | undefined {
  const values = new URL(exchange.request.url).searchParams.getAll('limit');
  if (values.length === 0) return contract.listLimit?.default;
  return values.length === 1 && /^\d+$/.test(values[0] as string) ? Number(values[0]) : undefined;
}

const holdsIfNotFull: Assertion<Record<string, JsonValue> | Array<Record<string, JsonValue>>> = {
  key: 'holdsIfNotFull',
  title: 'A listing that is not full holds the item (a page that is not full is the whole listing)',
  evaluate(exchange, expected, contract) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const limit = requestedLimit(exchange, contract);
    if (limit === undefined || items.length >= limit) return pass(`the page is full (${items.length}); nothing can be concluded`);
    const wanted = Array.isArray(expected) ? expected : [expected];
    const missing = wanted.filter((w) => !items.some((item) => subsetMismatches(item, w).length === 0)).map((w) => showJson(w));
    if (missing.length === 0) return pass(`all ${wanted.length} listed`);
    return fail(`the page holds ${items.length} of at most ${limit}, so it is the whole listing, yet it lacks ${missing[0] as string}${missing.length > 1 ? ` and ${missing.length - 1} more` : ''}`, missing);
  },
};

const basePath: Assertion<string> = {
  key: 'basePath',
  title: 'The base URL ends in the version segment',
  evaluate(exchange, expected) {
    const path = new URL(exchange.request.url).pathname;
    const target = exchange.request.target.split('?')[0] ?? '';
    const base = path.endsWith(target) ? path.slice(0, path.length - target.length) : path;
    return base.endsWith(expected) ? pass(`base path ${base}`) : fail(`the base URL's path is '${base || '/'}', which does not end in ${expected}`);
  },
};

/** Every assertion, by the scenario key that names it. `when` is structural and handled by the engine. */
export const ASSERTIONS: ReadonlyMap<string, Assertion<unknown>> = new Map(
  ([status, contentType, schema, maxItems, minItems, everyItem, body, includes, headers, differs, holdsIfNotFull, basePath] as Array<Assertion<unknown>>).map((a) => [a.key, a]),
);
