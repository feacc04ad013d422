/**
 * The checks a case's `expect` and `warn` blocks name: one registered check per key, `expect.<key>`, each a pure function
 * of one exchange.
 */
import { failed, notJudged, passed, type ExpectationCheck, type Judgement } from '../model/check.js';
import type { Contract } from '../model/contract.js';
import type { Exchange } from '../model/exchange.js';
import { isJsonObject, jsonEqual, resolvePointer, showJson, type JsonValue } from '../model/json.js';
import type { Failure } from '../model/results.js';
import { type Moment, petsShown, type ReadsFailed } from '../model/store-model.js';
import { safeUrl } from '../model/safe-url.js';
import type { HeaderExpectation } from '../model/scenario.js';
import type { SchemaName } from '../model/contract-names.js';
import { isJsonMediaType, mediaType } from './media-type.js';

const CLAUSE = 'the clause of the case that declares it';

/** A short description of a response body for messages. */
export function describeBody(exchange: Exchange): string {
  const { json, jsonError, bodyText, truncated, status, headers } = exchange.response;
  const location = headers['location'];
  if (status >= 300 && status < 400 && location !== undefined) {
    // A redirect is never followed (the key would go with it): where it pointed is what a user needs to know.
    return `a redirect to ${safeUrl(location, exchange.request.url)}, not followed`;
  }
  if (truncated) return 'the body exceeded the response size cap';
  if (json !== undefined) return Array.isArray(json) ? `an array of ${json.length}` : showJson(json).slice(0, 120);
  if (jsonError !== undefined) return `not JSON: ${bodyText.slice(0, 60)}`;
  return 'empty';
}

/** The body as an array, or the failure that it is not one. */
function bodyArray(exchange: Exchange): JsonValue[] | Judgement {
  const body = exchange.response.json;
  if (Array.isArray(body)) return body;
  return failed({
    message: `the body is not a JSON array (${describeBody(exchange)})`,
    expected: 'a JSON array',
    actual: describeBody(exchange),
    pointer: '',
  });
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The fields of `actual` that differ from `expected`, each as a failure at its pointer under `base`. */
function fieldMismatches(actual: JsonValue | undefined, expected: Record<string, JsonValue>, base = ''): Failure[] {
  if (!isJsonObject(actual))
    return [{ message: `expected an object, got ${showJson(actual)}`, expected: 'an object', actual: showJson(actual), pointer: base }];
  return Object.entries(expected)
    .filter(([k, v]) => !jsonEqual(actual[k], v))
    .map(([k, v]) => ({
      message: `${k}: expected ${showJson(v)}, got ${showJson(actual[k])}`,
      expected: showJson(v),
      actual: showJson(actual[k]),
      pointer: `${base}/${escapePointer(k)}`,
    }));
}

function asCount(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';

/** RFC 9110 §5.6.7: IMF-fixdate, and the two obsolete forms a recipient must still accept. */
const HTTP_DATE: readonly RegExp[] = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^${DAY} ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4}$`),
];

function headerProblems(exchange: Exchange, name: string, expected: HeaderExpectation): Failure[] {
  const actual = exchange.response.headers[name.toLowerCase()];
  const shown = actual === undefined ? 'nothing' : `'${actual}'`;
  const problems: Failure[] = [];
  const problem = (message: string, want: string): void => {
    problems.push({ message, expected: want, actual: shown });
  };
  if (expected.present === true && actual === undefined) problem(`${name} is missing`, `a ${name} header`);
  if (expected.present === false && actual !== undefined) problem(`${name} is present (${actual})`, `no ${name} header`);
  if (expected.equals !== undefined && actual !== expected.equals)
    problem(`${name}: expected '${expected.equals}', got ${shown}`, `'${expected.equals}'`);
  if (expected.date !== undefined && actual !== undefined) {
    const parsed = new Date(actual);
    if (!HTTP_DATE.some((form) => form.test(actual.trim())) || Number.isNaN(parsed.getTime()))
      problem(`${name} is not an HTTP date: '${actual}'`, `an HTTP date on ${expected.date}`);
    else if (parsed.toISOString().slice(0, 10) !== expected.date)
      problem(`${name} names ${parsed.toISOString().slice(0, 10)}, expected ${expected.date}`, `an HTTP date on ${expected.date}`);
  }
  if (expected.structuredDate === true && actual !== undefined && !/^@-?\d+$/.test(actual.trim()))
    problem(`${name} is not an RFC 9745 date (@<seconds>): '${actual}'`, '@<seconds since the epoch>');
  return problems;
}

/** Validates the body against a schema of the contract: every schema error a failure at its pointer. */
export function schemaJudgement(exchange: Exchange, schema: SchemaName, contract: Contract): Judgement {
  const body = exchange.response.json;
  if (body === undefined)
    return failed({
      message: `the body is not a ${schema} (${describeBody(exchange)})`,
      expected: `a ${schema}`,
      actual: describeBody(exchange),
      pointer: '',
    });
  const failures = contract.validate(schema, body);
  return failures.length === 0
    ? passed(`body is a ${schema}`)
    : failed(failures, `the body is not a valid ${schema}: ${failures[0]?.message ?? ''}`);
}

const status: ExpectationCheck<number | number[]> = {
  id: 'expect.status',
  key: 'status',
  title: 'The response status is one the case allows',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `status`',
  evaluate({ exchange, expected }) {
    const allowed = Array.isArray(expected) ? expected : [expected];
    const actual = exchange.response.status;
    if (allowed.includes(actual)) return passed(`status ${actual}`);
    return failed({
      message: `expected status ${allowed.join(' or ')}, got ${actual} (${describeBody(exchange)})`,
      expected: allowed.join(' or '),
      actual: String(actual),
    });
  },
};

const contentType: ExpectationCheck<string> = {
  id: 'expect.contentType',
  key: 'contentType',
  title: 'The response has the expected media type',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `contentType`',
  evaluate({ exchange, expected }) {
    const actual = mediaType(exchange.response.headers['content-type']);
    const ok = actual === expected || (expected === 'application/json' && isJsonMediaType(actual));
    return ok
      ? passed(`content type ${actual ?? ''}`)
      : failed({ message: `expected content type ${expected}, got ${actual ?? 'none'}`, expected, actual: actual ?? 'none' });
  },
};

const schema: ExpectationCheck<SchemaName> = {
  id: 'expect.schema',
  key: 'schema',
  title: 'The body matches a schema of the contract',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `schema`',
  evaluate: ({ exchange, expected, contract }) => schemaJudgement(exchange, expected, contract),
};

const maxItems: ExpectationCheck<number | string> = {
  id: 'expect.maxItems',
  key: 'maxItems',
  title: 'The array body holds at most so many items',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `maxItems`',
  evaluate({ exchange, expected }) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const max = asCount(expected);
    if (items.length <= max) return passed(`${items.length} items, at most ${max}`);
    return failed({
      message: `expected at most ${max} items, got ${items.length}`,
      expected: `at most ${max} items`,
      actual: `${items.length} items`,
      pointer: '',
    });
  },
};

const minItems: ExpectationCheck<number | string> = {
  id: 'expect.minItems',
  key: 'minItems',
  title: 'The array body holds at least so many items',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `minItems`',
  evaluate({ exchange, expected }) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const min = asCount(expected);
    if (items.length >= min) return passed(`${items.length} items, at least ${min}`);
    return failed({
      message: `expected at least ${min} items, got ${items.length}`,
      expected: `at least ${min} items`,
      actual: `${items.length} items`,
      pointer: '',
    });
  },
};

const everyItem: ExpectationCheck<Record<string, JsonValue>> = {
  id: 'expect.everyItem',
  key: 'everyItem',
  title: 'Every item of the array body has the given field values',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `everyItem`',
  evaluate({ exchange, expected }) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    if (items.length === 0) return notJudged('the listing is empty: no item to judge');
    const bad = items.flatMap((item, i) => fieldMismatches(item, expected, `/${i}`).map((f) => ({ ...f, message: `[${i}] ${f.message}` })));
    return bad.length === 0
      ? passed(`all ${items.length} items match`)
      : failed(bad, `${bad.length} item field(s) differ: ${bad[0]?.message ?? ''}`);
  },
};

const body: ExpectationCheck<Record<string, JsonValue>> = {
  id: 'expect.body',
  key: 'body',
  title: 'The body object has the given field values',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `body`',
  evaluate({ exchange, expected }) {
    const bad = fieldMismatches(exchange.response.json, expected);
    return bad.length === 0 ? passed('the fields match') : failed(bad, `the body differs: ${bad.map((f) => f.message).join('; ')}`);
  },
};

const includes: ExpectationCheck<Record<string, JsonValue>> = {
  id: 'expect.includes',
  key: 'includes',
  title: 'The array body holds an item with the given field values',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `includes`',
  evaluate({ exchange, expected }) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    if (items.some((item) => fieldMismatches(item, expected).length === 0)) return passed('the item is listed');
    return failed({
      message: `no item of ${items.length} has ${showJson(expected)}`,
      expected: `an item with ${showJson(expected)}`,
      actual: `${items.length} items without it`,
      pointer: '',
    });
  },
};

const headers: ExpectationCheck<Record<string, HeaderExpectation>> = {
  id: 'expect.headers',
  key: 'headers',
  title: 'Response headers are present, absent or equal as stated',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `headers`',
  evaluate({ exchange, expected }) {
    const bad = Object.entries(expected).flatMap(([name, e]) => headerProblems(exchange, name, e));
    return bad.length === 0 ? passed('headers as expected') : failed(bad, bad.map((f) => f.message).join('; '));
  },
};

const differs: ExpectationCheck<Record<string, JsonValue>> = {
  id: 'expect.differs',
  key: 'differs',
  title: 'The body object differs from the given values in each given field',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `differs`',
  evaluate({ exchange, expected }) {
    const actual = exchange.response.json;
    if (!isJsonObject(actual))
      return failed({
        message: `expected an object, got ${describeBody(exchange)}`,
        expected: 'an object',
        actual: describeBody(exchange),
        pointer: '',
      });
    const same = Object.entries(expected)
      .filter(([k, v]) => jsonEqual(actual[k], v))
      .map(
        ([k, v]): Failure => ({
          message: `${k} is ${showJson(v)} again`,
          expected: `not ${showJson(v)}`,
          actual: showJson(v),
          pointer: `/${escapePointer(k)}`,
        }),
      );
    return same.length === 0 ? passed('the fields differ') : failed(same, same.map((f) => f.message).join('; '));
  },
};

/** The page size a listing asked for: its `limit`, or the documented default. */
function requestedLimit(exchange: Exchange, contract: Contract): number | undefined {
  const values = new URL(exchange.request.url).searchParams.getAll('limit');
  if (values.length === 0) return contract.listLimit?.default;
  return values.length === 1 && /^\d+$/.test(values[0] as string) ? Number(values[0]) : undefined;
}

const holdsIfNotFull: ExpectationCheck<Record<string, JsonValue> | Array<Record<string, JsonValue>>> = {
  id: 'expect.holdsIfNotFull',
  key: 'holdsIfNotFull',
  title: 'A listing that is not full holds the item (a page that is not full is the whole listing)',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `holdsIfNotFull`',
  evaluate({ exchange, expected, contract }) {
    const items = bodyArray(exchange);
    if (!Array.isArray(items)) return items;
    const limit = requestedLimit(exchange, contract);
    if (limit === undefined) return notJudged('the page size asked for is unknown; nothing can be concluded');
    const wanted = Array.isArray(expected) ? expected : [expected];
    const missing = wanted.filter((w) => !items.some((item) => fieldMismatches(item, w).length === 0));
    if (items.length >= limit) {
      // A full page is no whole listing: what it holds is judged, what it lacks may lie beyond it (a long-lived store).
      if (missing.length === 0) return passed(`all ${wanted.length} listed, on a full page (${items.length})`);
      return notJudged(
        `the page is full (${items.length}) and lacks ${missing.length} of the ${wanted.length} looked for: they may lie beyond ` +
          "the first page (the order is the server's); nothing can be concluded",
      );
    }
    if (missing.length === 0) return passed(`all ${wanted.length} listed`);
    const failures = missing.map(
      (w): Failure => ({
        message: `the page holds ${items.length} of at most ${limit}, so it is the whole listing, yet it lacks ${showJson(w)}`,
        expected: `an item with ${showJson(w)}`,
        actual: `${items.length} items without it`,
        pointer: '',
      }),
    );
    return failed(failures, `${failures[0]?.message ?? ''}${missing.length > 1 ? ` and ${missing.length - 1} more` : ''}`);
  },
};

const basePath: ExpectationCheck<string> = {
  id: 'expect.basePath',
  key: 'basePath',
  title: 'The base URL ends in the version segment',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `basePath`',
  evaluate({ exchange, expected }) {
    const path = new URL(exchange.request.url).pathname;
    const target = exchange.request.target.split('?')[0] ?? '';
    const base = path.endsWith(target) ? path.slice(0, path.length - target.length) : path;
    if (base.endsWith(expected)) return passed(`base path ${base}`);
    return failed({
      message: `the base URL's path is '${base || '/'}', which does not end in ${expected}`,
      expected: `a path ending in ${expected}`,
      actual: base || '/',
    });
  },
};

const capture: ExpectationCheck<Record<string, string>> = {
  id: 'expect.capture',
  key: 'capture',
  title: 'The body holds a value at each pointer a step captures for later steps',
  clause: CLAUSE,
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `capture`',
  evaluate({ exchange, expected }) {
    const missing = Object.entries(expected)
      .filter(([, pointer]) => resolvePointer(exchange.response.json, pointer) === undefined)
      .map(
        ([name, pointer]): Failure => ({
          message: `nothing at ${pointer} in the response body to capture as {${name}}`,
          expected: `a value at ${pointer}`,
          actual: describeBody(exchange),
          pointer,
        }),
      );
    return missing.length === 0 ? passed(`captured ${Object.keys(expected).join(', ')}`) : failed(missing);
  },
};

/** An earlier exchange with when it was sent (the model's clock). */
function at(moment: Moment): string {
  return `${moment.where} (sent at ${(moment.sentAt / 1000).toFixed(3)} s)`;
}

/** When reads of the store began failing, in words: the write after which they did, and the reads around it. */
function readsFailedSince(since: ReadsFailed): string {
  const failedRead = `the first read to fail was ${at(since.read)}`;
  const good = since.lastGood === undefined ? 'the run began' : `the last good read of that target, ${at(since.lastGood)}`;
  if (since.write === undefined) return `${failedRead}, with no write sent since ${good}`;
  // A write answered with a 5xx may still have been kept: of the writes in the window, it is the one to look at first.
  const cause = since.failedWrite ?? since.write;
  const which = since.failedWrite === undefined ? `the first of ${since.writes}` : `itself answered with a 5xx, one of ${since.writes}`;
  return `reads began failing after the write ${at(cause)} (${which} sent since ${good}); ${failedRead}`;
}

const answersAfterWrites: ExpectationCheck<boolean> = {
  id: 'expect.answersAfterWrites',
  key: 'answersAfterWrites',
  title: "A read after the run's writes answers without a 5xx; a failure names the write after which reads began failing",
  clause: "reading-the-contract: never a 5xx, and never a store whose reads fail afterwards (a lone surrogate's pet included)",
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `answersAfterWrites` (the store-health reads after the phases that write)',
  evaluate({ exchange, expected, model }) {
    const status = exchange.response.status;
    if (expected !== true || status < 500) return passed(`status ${status}`);
    const since = model?.readsFailedAfter();
    return failed({
      message:
        `the store no longer answers this read (${status}, ${describeBody(exchange)}); ` +
        `${since === undefined ? 'no earlier read of the store failed' : readsFailedSince(since)}`,
      expected: 'an answer without a 5xx',
      actual: String(status),
    });
  },
};
/** At most this many pets are named in one failure. */
const NAMED_PETS = 5;

const refusalsLeftNoPet: ExpectationCheck<boolean> = {
  id: 'expect.refusalsLeftNoPet',
  key: 'refusalsLeftNoPet',
  title: "Every pet named with the run's id that the store shows was handed out by one of the run's creates (a 201)",
  clause: 'reading-the-contract: never a store changed by a refused request (a create answered 400, or one that failed)',
  level: 'fail',
  scope: 'case',
  appliesWhen: 'a step declares `refusalsLeftNoPet` (the store-health listing, over every pet the run saw)',
  evaluate({ exchange, expected, model }) {
    if (expected !== true || model === undefined) return passed('no model of the store to judge by');
    const unclaimed = model.unclaimedPets(petsShown(exchange));
    if (unclaimed.length === 0) return passed("every pet named with the run's id was handed out by a create of the run");
    if (model.unansweredWrites > 0)
      return notJudged(
        `${unclaimed.length} pet(s) named with the run's id were never handed out, but ${model.unansweredWrites} create(s) got ` +
          `no answer: one of them may have made it`,
      );
    return failed(
      unclaimed.slice(0, NAMED_PETS).map(({ pet, refusedWith }) => ({
        message:
          `pet ${pet.id} ${showJson(pet.fields, 200)}, shown by ${pet.where}, was never handed out by a create of the run; ` +
          (refusedWith.length === 0
            ? 'no refused create named it'
            : `creates refused or failed with its name: ${refusedWith.slice(0, 3).join('; ')}`),
        expected: 'no pet a refused request would have made',
        actual: `pet ${pet.id}`,
      })),
      `${unclaimed.length} pet(s) named with the run's id that no create of the run handed out: a refused or failed request ` +
        `changed the store`,
    );
  },
};

/** Every expectation check, one per scenario key. `when` is structural: the engine resolves it. */
export const EXPECTATION_CHECKS: readonly ExpectationCheck[] = [
  status,
  contentType,
  schema,
  maxItems,
  minItems,
  everyItem,
  body,
  includes,
  headers,
  differs,
  holdsIfNotFull,
  basePath,
  capture,
  answersAfterWrites,
  refusalsLeftNoPet,
] as ExpectationCheck[];
