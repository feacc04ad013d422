import t from 'tap';
import { exchangeChecks } from '../dist/checks/registry.js';
import type { Judgement } from '../dist/model/check.js';
import type { Failure } from '../dist/model/results.js';
import type { Expectations } from '../dist/model/scenario.js';
import { contract, exchange, pets, type ExchangeSpec } from './check-fixtures.js';

/** One row: a response (and what its step declared), whether the check applies, and what it concludes. */
interface Row {
  name: string;
  response: ExchangeSpec;
  declared?: Expectations;
  applies: boolean;
  outcome?: Judgement['outcome'];
  failure?: { [K in keyof Omit<Failure, 'message'>]?: string | RegExp } & { message?: RegExp };
}

function table(id: string, rows: Row[]): void {
  t.test(id, async (t) => {
    const check = exchangeChecks.find((c) => c.id === id);
    if (check === undefined) throw new Error(`no exchange check ${id}`);
    for (const row of rows) {
      const context = { exchange: exchange(row.response), contract, declared: row.declared ?? {} };
      t.equal(check.applies(context), row.applies, `${row.name}: applies`);
      if (!row.applies) continue;
      const judgement = check.evaluate(context);
      t.equal(judgement.outcome, row.outcome, `${row.name}: ${judgement.message}`);
      if (judgement.outcome !== 'failed') continue;
      const { message, ...fields } = row.failure ?? {};
      if (message !== undefined) t.match(judgement.failures[0]?.message, message, `${row.name}: message`);
      t.match(judgement.failures[0], fields, `${row.name}: failure fields`);
    }
  });
}

const error = (status: number, extra = ''): string => `{"code":"x","message":"m","status":${status}${extra}}`;

table('server.no-5xx', [
  { name: 'a 200', response: { status: 200 }, applies: false },
  { name: 'a 499', response: { status: 499 }, applies: false },
  { name: 'a 500', response: { status: 500, body: error(500) }, applies: true, outcome: 'failed', failure: { actual: '500', expected: 'a status below 500' } },
  { name: 'a 503', response: { status: 503 }, applies: true, outcome: 'failed' },
]);

table('wire.json-body', [
  { name: 'an empty body', response: { status: 204 }, applies: false },
  { name: 'a 5xx is judged by server.no-5xx alone', response: { status: 500, body: 'oops' }, applies: false },
  { name: 'JSON', response: { body: '[]' }, applies: true, outcome: 'passed' },
  { name: 'HTML', response: { status: 404, body: '<h1>no</h1>' }, applies: true, outcome: 'failed', failure: { expected: 'JSON', message: /not JSON/ } },
  { name: 'over the size cap', response: { body: '[1,2', truncated: true }, applies: true, outcome: 'failed', failure: { message: /response size cap/ } },
]);

table('wire.json-content-type', [
  { name: 'no JSON body', response: { body: '' }, applies: false },
  { name: 'application/json', response: { body: '[]', headers: { 'content-type': 'application/json; charset=utf-8' } }, applies: true, outcome: 'passed' },
  { name: 'problem+json', response: { status: 400, body: error(400), headers: { 'content-type': 'application/problem+json' } }, applies: true, outcome: 'passed' },
  { name: 'text/plain', response: { body: '[]', headers: { 'content-type': 'text/plain' } }, applies: true, outcome: 'failed', failure: { actual: 'text/plain' } },
  { name: 'no content type', response: { body: '[]', headers: {} }, applies: true, outcome: 'failed', failure: { actual: 'none' } },
]);

table('contract.response-schema', [
  { name: 'a listing of Pets', response: { body: pets(2) }, applies: true, outcome: 'passed' },
  { name: 'a listing that is not Pets', response: { body: '[{"id":"x","name":"a","categoryId":1}]' }, applies: true, outcome: 'failed', failure: { pointer: '/0/id' } },
  { name: 'the case judges the same schema itself: reported once, there', response: { body: '[{"id":"x"}]' }, declared: { schema: 'Pets' }, applies: false },
  { name: 'the case names another schema', response: { body: '[{"id":"x"}]' }, declared: { schema: 'Error' }, applies: true, outcome: 'failed' },
  { name: 'a 201 Pet from createPet', response: { status: 201, method: 'POST', operation: 'createPet', body: '{"id":1,"name":"a","categoryId":1}' }, applies: true, outcome: 'passed' },
  { name: 'a 201 without a body', response: { status: 201, method: 'POST', operation: 'createPet' }, applies: true, outcome: 'failed', failure: { expected: 'a Pet' } },
  { name: 'an undocumented success (201 to listPets)', response: { status: 201, body: '{}' }, applies: false },
  { name: 'an error', response: { status: 404, body: error(404) }, applies: false },
]);

table('errors.error-body', [
  { name: 'a 200', response: { status: 200, body: '[]' }, applies: false },
  { name: 'a valid Error', response: { status: 404, body: error(404) }, applies: true, outcome: 'passed' },
  { name: 'Error.status is not the HTTP status', response: { status: 400, body: error(422) }, applies: true, outcome: 'failed', failure: { pointer: '/status', expected: '400', actual: '422' } },
  { name: 'no body', response: { status: 401 }, applies: true, outcome: 'failed', failure: { expected: 'an Error' } },
  { name: 'not an Error', response: { status: 401, body: '{"error":"no"}' }, applies: true, outcome: 'failed', failure: { pointer: '' } },
  { name: 'the case declared schema Error: only the status is judged here', response: { status: 401, body: '{"error":"no"}' }, declared: { schema: 'Error' }, applies: true, outcome: 'passed' },
  { name: 'the case declared schema Error: a wrong status is still found', response: { status: 401, body: error(403) }, declared: { schema: 'Error' }, applies: true, outcome: 'failed', failure: { pointer: '/status' } },
]);

table('auth.www-authenticate', [
  { name: 'not a 401', response: { status: 403, body: error(403) }, applies: false },
  { name: 'Bearer', response: { status: 401, headers: { 'www-authenticate': 'Bearer realm="pets"' } }, applies: true, outcome: 'passed' },
  { name: 'Bearer as a second challenge', response: { status: 401, headers: { 'www-authenticate': 'Basic realm="x", Bearer' } }, applies: true, outcome: 'passed' },
  { name: 'Basic only', response: { status: 401, headers: { 'www-authenticate': 'Basic realm="x"' } }, applies: true, outcome: 'failed', failure: { expected: 'Bearer' } },
  { name: 'missing', response: { status: 401, headers: {} }, applies: true, outcome: 'failed', failure: { actual: 'nothing' } },
]);

t.test('auth.www-authenticate only warns: its level is warn', async (t) => {
  t.equal(exchangeChecks.find((c) => c.id === 'auth.www-authenticate')?.level, 'warn');
  t.ok(exchangeChecks.filter((c) => c.id !== 'auth.www-authenticate').every((c) => c.level === 'fail'));
});
