import t from 'tap';
import { expectationCheck } from '../dist/checks/registry.js';
import type { Judgement } from '../dist/model/check.js';
import type { Failure } from '../dist/model/results.js';
import { contract, exchange, pets, type ExchangeSpec } from './check-fixtures.js';

/** One row: a response, the value the case expects, and what the check must conclude. */
interface Row {
  name: string;
  response: ExchangeSpec;
  expected: unknown;
  outcome: Judgement['outcome'];
  /** Fields the first failure must have (message as a pattern). */
  failure?: { [K in keyof Omit<Failure, 'message'>]?: string | RegExp } & { message?: RegExp };
  failures?: number;
}

function table(key: string, rows: Row[]): void {
  t.test(`expect.${key}`, async (t) => {
    const check = expectationCheck(key);
    if (check === undefined) throw new Error(`no check for ${key}`);
    t.equal(check.id, `expect.${key}`);
    for (const row of rows) {
      const judgement = check.evaluate({ exchange: exchange(row.response), contract, expected: row.expected });
      t.equal(judgement.outcome, row.outcome, `${row.name}: ${judgement.message}`);
      if (judgement.outcome !== 'failed') continue;
      if (row.failures !== undefined) t.equal(judgement.failures.length, row.failures, `${row.name}: failure count`);
      const { message, ...fields } = row.failure ?? {};
      if (message !== undefined) t.match(judgement.failures[0]?.message, message, `${row.name}: message`);
      t.match(judgement.failures[0], fields, `${row.name}: failure fields`);
    }
  });
}

table('status', [
  { name: 'the status allowed', response: { status: 200 }, expected: 200, outcome: 'passed' },
  { name: 'one of several', response: { status: 400, body: '{}' }, expected: [200, 400], outcome: 'passed' },
  { name: 'another status', response: { status: 500, body: 'oops' }, expected: [200, 400], outcome: 'failed', failure: { expected: '200 or 400', actual: '500', message: /expected status 200 or 400, got 500/ } },
]);

table('contentType', [
  { name: 'exact', response: { headers: { 'content-type': 'application/json' } }, expected: 'application/json', outcome: 'passed' },
  { name: 'parameters and case', response: { headers: { 'content-type': 'Application/JSON; charset=utf-8' } }, expected: 'application/json', outcome: 'passed' },
  { name: 'a +json type counts as JSON', response: { headers: { 'content-type': 'application/problem+json' } }, expected: 'application/json', outcome: 'passed' },
  { name: 'text/plain', response: { headers: { 'content-type': 'text/plain' } }, expected: 'application/json', outcome: 'failed', failure: { expected: 'application/json', actual: 'text/plain' } },
  { name: 'none', response: { headers: {} }, expected: 'application/json', outcome: 'failed', failure: { actual: 'none' } },
]);

table('schema', [
  { name: 'a valid Pet', response: { body: '{"id":1,"name":"Rex","categoryId":2,"status":"sold"}' }, expected: 'Pet', outcome: 'passed' },
  { name: 'an id above 2^53 is a valid int64', response: { body: '{"id":9223372036854775807,"name":"Rex","categoryId":2}' }, expected: 'Pet', outcome: 'passed' },
  { name: 'an id beyond int64', response: { body: '{"id":9223372036854775808,"name":"Rex","categoryId":2}' }, expected: 'Pet', outcome: 'failed', failure: { pointer: '/id', schemaPath: /format/ } },
  { name: 'an id of the wrong type, at its pointer', response: { body: '{"id":"x","name":"Rex","categoryId":2}' }, expected: 'Pet', outcome: 'failed', failure: { pointer: '/id', schemaPath: /type/ } },
  { name: 'a status outside the enum', response: { body: '{"id":1,"name":"Rex","categoryId":2,"status":"lost"}' }, expected: 'Pet', outcome: 'failed', failure: { pointer: '/status', message: /allowed values/ } },
  { name: 'every error of a list item', response: { body: '[{"id":1},{"name":"x"}]' }, expected: 'Pets', outcome: 'failed', failure: { pointer: '/0' } },
  { name: 'no JSON body', response: { body: '<html>' }, expected: 'Error', outcome: 'failed', failure: { pointer: '', expected: 'a Error' } },
]);

table('maxItems', [
  { name: 'under', response: { body: pets(3) }, expected: 5, outcome: 'passed' },
  { name: 'exactly', response: { body: pets(5) }, expected: '5', outcome: 'passed' },
  { name: 'over', response: { body: pets(6) }, expected: 5, outcome: 'failed', failure: { expected: 'at most 5 items', actual: '6 items' } },
  { name: 'not an array', response: { body: '{}' }, expected: 5, outcome: 'failed', failure: { expected: 'a JSON array', pointer: '' } },
]);

table('minItems', [
  { name: 'enough', response: { body: pets(1) }, expected: 1, outcome: 'passed' },
  { name: 'empty', response: { body: '[]' }, expected: 1, outcome: 'failed', failure: { expected: 'at least 1 items', actual: '0 items' } },
]);

table('everyItem', [
  { name: 'all match', response: { body: pets(4, 'sold') }, expected: { status: 'sold' }, outcome: 'passed' },
  { name: 'an empty page holds no mismatch', response: { body: '[]' }, expected: { status: 'sold' }, outcome: 'passed' },
  {
    name: 'one differs, at its pointer',
    response: { body: JSON.stringify([{ id: 1, status: 'sold' }, { id: 2, status: 'sold' }, { id: 3, status: 'sold' }, { id: 4, status: 'pending' }]) },
    expected: { status: 'sold' },
    outcome: 'failed',
    failures: 1,
    failure: { pointer: '/3/status', expected: '"sold"', actual: '"pending"', message: /^\[3\] status/ },
  },
]);

table('body', [
  { name: 'the fields match, extra fields allowed', response: { body: '{"id":7,"name":"Rex","extra":true}' }, expected: { name: 'Rex' }, outcome: 'passed' },
  { name: 'int64 beyond 2^53 compared exactly', response: { body: '{"id":9007199254740993}' }, expected: { id: 9007199254740993n }, outcome: 'passed' },
  { name: 'one off beyond 2^53 is not equal', response: { body: '{"id":9007199254740992}' }, expected: { id: 9007199254740993n }, outcome: 'failed', failure: { pointer: '/id' } },
  { name: 'a missing field', response: { body: '{"id":7}' }, expected: { name: 'Rex' }, outcome: 'failed', failure: { pointer: '/name', expected: '"Rex"', actual: 'nothing' } },
  { name: 'not an object', response: { body: '[]' }, expected: { name: 'Rex' }, outcome: 'failed', failure: { expected: 'an object', pointer: '' } },
]);

table('includes', [
  { name: 'listed', response: { body: pets(3) }, expected: { id: 2 }, outcome: 'passed' },
  { name: 'not listed', response: { body: pets(3) }, expected: { id: 9 }, outcome: 'failed', failure: { actual: '3 items without it' } },
]);

table('headers', [
  { name: 'present', response: { headers: { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' } }, expected: { Sunset: { present: true, date: '2030-12-05' } }, outcome: 'passed' },
  { name: 'missing', response: { headers: {} }, expected: { Sunset: { present: true } }, outcome: 'failed', failure: { actual: 'nothing', message: /Sunset is missing/ } },
  { name: 'present but must not be', response: { headers: { 'x-a': '1' } }, expected: { 'X-A': { present: false } }, outcome: 'failed', failure: { message: /X-A is present/ } },
  { name: 'equals', response: { headers: { 'x-a': '2' } }, expected: { 'X-A': { equals: '1' } }, outcome: 'failed', failure: { expected: "'1'", actual: "'2'" } },
  { name: 'another day', response: { headers: { sunset: 'Fri, 06 Dec 2030 00:00:00 GMT' } }, expected: { Sunset: { date: '2030-12-05' } }, outcome: 'failed', failure: { message: /names 2030-12-06, expected 2030-12-05/ } },
  { name: 'not a date', response: { headers: { sunset: 'soon' } }, expected: { Sunset: { date: '2030-12-05' } }, outcome: 'failed', failure: { message: /not an HTTP date/ } },
  { name: 'an RFC 9745 date', response: { headers: { deprecation: '@1700000000' } }, expected: { Deprecation: { structuredDate: true } }, outcome: 'passed' },
  { name: 'Deprecation: true is no structured date', response: { headers: { deprecation: 'true' } }, expected: { Deprecation: { structuredDate: true } }, outcome: 'failed', failure: { expected: '@<seconds since the epoch>' } },
]);

table('differs', [
  { name: 'a new id', response: { body: '{"id":8}' }, expected: { id: 7 }, outcome: 'passed' },
  { name: 'the same id again', response: { body: '{"id":7}' }, expected: { id: 7 }, outcome: 'failed', failure: { pointer: '/id', message: /id is 7 again/ } },
  { name: 'not an object', response: { body: 'null' }, expected: { id: 7 }, outcome: 'failed', failure: { expected: 'an object' } },
]);

table('holdsIfNotFull', [
  { name: 'a page that is not full holds the pet', response: { body: pets(3), target: '/pets?limit=10' }, expected: { id: 2 }, outcome: 'passed' },
  { name: 'a page that is not full lacks it', response: { body: pets(3), target: '/pets?limit=10' }, expected: [{ id: 2 }, { id: 99 }], outcome: 'failed', failures: 1, failure: { expected: 'an item with {"id":99}', message: /holds 3 of at most 10/ } },
  { name: 'without limit the default page is 20', response: { body: pets(19) }, expected: { id: 99 }, outcome: 'failed' },
  { name: 'a full page proves nothing: not judged', response: { body: pets(20) }, expected: { id: 99 }, outcome: 'skipped' },
  { name: 'a limit that is no number: not judged', response: { body: pets(3), target: '/pets?limit=abc' }, expected: { id: 99 }, outcome: 'skipped' },
]);

table('basePath', [
  { name: 'ends in /v1', response: { target: '/pets' }, expected: '/v1', outcome: 'passed' },
]);

table('capture', [
  { name: 'a value at the pointer', response: { body: '{"id":5}' }, expected: { petId: '/id' }, outcome: 'passed' },
  { name: 'inside an array', response: { body: pets(2) }, expected: { petId: '/1/id' }, outcome: 'passed' },
  { name: 'nothing there', response: { body: '[]' }, expected: { petId: '/0/id' }, outcome: 'failed', failure: { pointer: '/0/id', message: /to capture as \{petId\}/ } },
]);

t.test('expect.basePath: a base URL without the version segment', async (t) => {
  const check = expectationCheck('basePath');
  const x = exchange();
  x.request.url = 'http://127.0.0.1:9/api/pets';
  const judgement = check?.evaluate({ exchange: x, contract, expected: '/v1' });
  t.equal(judgement?.outcome, 'failed');
  t.match(judgement, { failures: [{ actual: '/api', expected: 'a path ending in /v1' }] });
});
