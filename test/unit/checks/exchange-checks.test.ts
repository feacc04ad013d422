/**
 * Table-driven unit tests of the checks that judge every exchange: each row is a crafted response and what its
 * step declared, whether the check applies to it, and what it concludes (with every typed failure field that matters).
 */
import t from 'tap';
import { EXCHANGE_CHECKS } from '../../../src/checks/exchange-checks.js';
import { INVARIANT_CHECKS } from '../../../src/checks/invariants.js';
import { exchangeChecks } from '../../../src/checks/registry.js';
import type { ExchangeContext, Judgement } from '../../../src/model/check.js';
import type { Expectations } from '../../../src/model/scenario.js';
import { assertFailure, contract, exchange, type ExchangeSpec as Response, type FailureWant } from '../../check-fixtures.js';

interface RowBase {
  name: string;
  response: Response;
  /** What the step declared for this response (`when` resolved). */
  declared?: Expectations;
  message?: RegExp;
  /** The behaviour believed right that the check does not have yet: its assertions are reported as TODO. */
  todo?: string;
}
type Row =
  | (RowBase & { applies: false })
  | (RowBase & { applies: true; outcome: 'passed' })
  | (RowBase & { applies: true; outcome: 'failed'; failures: FailureWant[]; count?: number });

function table(id: string, rows: Row[]): void {
  t.test(id, async (t) => {
    const check = exchangeChecks.find((c) => c.id === id);
    if (check === undefined) throw new Error(`no exchange check ${id}`);
    t.equal(check.scope, 'exchange');
    for (const row of rows) {
      const todo = row.todo === undefined ? {} : { todo: row.todo };
      const context: ExchangeContext = { exchange: exchange(row.response), contract, declared: row.declared ?? {} };
      t.equal(check.applies(context), row.applies, `${row.name}: applies`, todo);
      if (!row.applies) continue;
      const judgement: Judgement = check.evaluate(context);
      t.equal(judgement.outcome, row.outcome, `${row.name}: ${judgement.message}`, todo);
      if (row.message !== undefined) t.match(judgement.message, row.message, `${row.name}: message`, todo);
      if (row.outcome !== 'failed') continue;
      const failures = judgement.outcome === 'failed' ? judgement.failures : [];
      t.equal(failures.length, row.count ?? row.failures.length, `${row.name}: failure count`, todo);
      for (const [i, want] of row.failures.entries()) assertFailure(t, failures[i], want, `${row.name} [${i}]`, todo);
    }
  });
}

const error = (status: number | string, extra = ''): string =>
  `{"code":"x","message":"m","status":${typeof status === 'string' ? JSON.stringify(status) : status}${extra}}`;
const pet = '{"id":1,"name":"Rex","categoryId":2}';

table('server.no-5xx', [
  { name: 'a 200', response: { status: 200 }, applies: false },
  { name: 'a 499', response: { status: 499 }, applies: false },
  {
    name: 'a 500',
    response: { status: 500, body: error(500) },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'a status below 500', actual: '500', message: /^server error 500 \(\{"code":"x"/ }],
  },
  {
    name: 'a 503 without a body',
    response: { status: 503 },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'a status below 500', actual: '503', message: 'server error 503 (empty)' }],
  },
  {
    name: 'a 502 with an HTML page',
    response: { status: 502, body: '<h1>Bad gateway</h1>' },
    applies: true,
    outcome: 'failed',
    failures: [{ actual: '502', message: /^server error 502 \(not JSON: <h1>Bad gateway<\/h1>\)$/ }],
  },
  { name: 'a 599', response: { status: 599 }, applies: true, outcome: 'failed', failures: [{ actual: '599' }] },
]);

table('wire.json-body', [
  { name: 'an empty body', response: { status: 204 }, applies: false },
  { name: 'a body of white space counts as empty', response: { body: ' \n' }, applies: false },
  { name: 'a 5xx is judged by server.no-5xx alone', response: { status: 500, body: 'oops' }, applies: false },
  { name: 'a JSON array', response: { body: '[]' }, applies: true, outcome: 'passed', message: /^the body is JSON$/ },
  { name: 'JSON null is JSON', response: { body: 'null' }, applies: true, outcome: 'passed' },
  { name: 'an error body', response: { status: 404, body: error(404) }, applies: true, outcome: 'passed' },
  {
    name: 'HTML',
    response: { status: 404, body: '<h1>no</h1>' },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'JSON', actual: 'not JSON: <h1>no</h1>', message: /^the body is not JSON \(.+\)$/ }],
  },
  {
    name: 'JSON cut short',
    response: { body: '[{"id":1' },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'JSON', actual: 'not JSON: [{"id":1' }],
  },
  {
    name: 'invalid UTF-8 (replaced in the text) fails with its byte offset',
    response: { body: '[{"name":"R\uFFFDx"}]', invalidUtf8At: 11 },
    applies: true,
    outcome: 'failed',
    failures: [
      {
        expected: 'UTF-8',
        actual: 'an invalid byte at offset 11',
        message: /^the body is not valid UTF-8: byte 11 starts no valid sequence \(RFC 8259 §8\.1/,
      },
    ],
  },
  {
    name: 'a number literal too long to read is not JSON, and says its length',
    response: { body: `[${'9'.repeat(1001)}]` },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'JSON', message: /^the body is not JSON \(a number literal of 1001 characters \(at most 1000 are read\)\)$/ }],
  },
  {
    name: 'nesting deeper than 512 levels is not JSON',
    response: { body: '['.repeat(513) + ']'.repeat(513) },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'JSON', message: /nesting deeper than 512 levels/ }],
  },
  {
    name: 'over the size cap',
    response: { body: '[1,2', truncated: true },
    applies: true,
    outcome: 'failed',
    failures: [
      { expected: 'a bounded JSON body', actual: 'more than 4 bytes', message: 'the body exceeded the response size cap (4 bytes read)' },
    ],
  },
]);

table('wire.json-content-type', [
  { name: 'no body', response: { body: '' }, applies: false },
  {
    name: 'a body that is not JSON is judged by wire.json-body',
    response: { body: '<h1>', headers: { 'content-type': 'text/html' } },
    applies: false,
  },
  {
    name: 'application/json with a charset',
    response: { body: '[]', headers: { 'content-type': 'application/json; charset=utf-8' } },
    applies: true,
    outcome: 'passed',
    message: /^content type application\/json$/,
  },
  {
    name: 'problem+json',
    response: { status: 400, body: error(400), headers: { 'content-type': 'application/problem+json' } },
    applies: true,
    outcome: 'passed',
  },
  { name: 'upper case', response: { body: '[]', headers: { 'content-type': 'APPLICATION/JSON' } }, applies: true, outcome: 'passed' },
  {
    name: 'text/plain',
    response: { body: '[]', headers: { 'content-type': 'text/plain' } },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'application/json or application/*+json', actual: 'text/plain', message: 'a JSON body is labelled text/plain' }],
  },
  {
    name: 'text/json',
    response: { body: '{}', headers: { 'content-type': 'text/json' } },
    applies: true,
    outcome: 'failed',
    failures: [{ actual: 'text/json' }],
  },
  {
    name: 'no content type',
    response: { body: '[]', headers: {} },
    applies: true,
    outcome: 'failed',
    failures: [
      { expected: 'application/json or application/*+json', actual: 'none', message: 'a JSON body is labelled with no content type' },
    ],
  },
]);

table('contract.response-schema', [
  {
    name: 'a listing of Pets',
    response: { body: '[{"id":1,"name":"a","categoryId":1}]' },
    applies: true,
    outcome: 'passed',
    message: /^body is a Pets$/,
  },
  {
    name: 'a listing that is not Pets',
    response: { body: '[{"id":"x","name":"a","categoryId":1}]' },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '/0/id', schemaPath: '#/allOf/1/properties/id/type', message: '/0/id: must be integer' }],
  },
  {
    name: 'a listing that is no array',
    response: { body: '{}' },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '', schemaPath: '#/type' }],
  },
  {
    name: 'the case judges the documented schema itself: reported once, there',
    response: { body: '[{"id":"x"}]' },
    declared: { schema: 'Pets' },
    applies: false,
  },
  {
    name: 'the case declares other expectations only',
    response: { body: '[{"id":"x","name":"a","categoryId":1}]' },
    declared: { status: 200, maxItems: 5 },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '/0/id' }],
  },
  {
    name: 'the case names another schema than the documented one',
    response: { body: '[{"id":"x","name":"a","categoryId":1}]' },
    declared: { schema: 'Pet' },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '/0/id' }],
  },
  { name: 'a getPet 200 is a Pet', response: { operation: 'getPet', target: '/pets/1', body: pet }, applies: true, outcome: 'passed' },
  {
    name: 'a getPet 200 that is a listing',
    response: { operation: 'getPet', target: '/pets/1', body: `[${pet}]` },
    applies: true,
    outcome: 'failed',
    count: 1,
    failures: [{ pointer: '', schemaPath: '#/type', message: '(root): must be object' }],
  },
  {
    name: 'a getPet 200 whose case declares schema Pet',
    response: { operation: 'getPet', target: '/pets/1', body: '{}' },
    declared: { schema: 'Pet' },
    applies: false,
  },
  {
    name: 'a 201 Pet from createPet',
    response: { status: 201, method: 'POST', operation: 'createPet', body: pet },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'a 201 without a body',
    response: { status: 201, method: 'POST', operation: 'createPet' },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'a Pet', actual: 'empty', pointer: '', message: 'createPet 201 must carry a Pet (empty)' }],
  },
  {
    name: 'a 201 cut at the size cap',
    response: { status: 201, method: 'POST', operation: 'createPet', body: '{"id":1', truncated: true },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'a Pet', actual: 'the body exceeded the response size cap' }],
  },
  { name: 'an undocumented success (201 to listPets)', response: { status: 201, body: '{}' }, applies: false },
  {
    name: 'an undocumented success (200 to createPet)',
    response: { status: 200, method: 'POST', operation: 'createPet', body: '{}' },
    applies: false,
  },
  { name: 'a redirect', response: { status: 301 }, applies: false },
  { name: 'a documented error is errors.error-body’s', response: { status: 401, body: error(401) }, applies: false },
  { name: 'an undocumented error', response: { status: 404, body: error(404) }, applies: false },
]);

table('errors.error-body', [
  { name: 'a 200', response: { status: 200, body: '[]' }, applies: false },
  { name: 'a 500 is server.no-5xx’s', response: { status: 500, body: '{}' }, applies: false },
  {
    name: 'a valid Error',
    response: { status: 404, body: error(404) },
    applies: true,
    outcome: 'passed',
    message: /^Error body with status 404$/,
  },
  {
    name: 'a valid Error with more fields',
    response: { status: 400, body: error(400, ',"details":[]') },
    applies: true,
    outcome: 'passed',
  },
  { name: 'a 499 is an error too', response: { status: 499, body: error(499) }, applies: true, outcome: 'passed' },
  {
    name: 'Error.status is not the HTTP status',
    response: { status: 400, body: error(422) },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '/status', expected: '400', actual: '422', message: 'Error.status is 422 but the HTTP status is 400' }],
  },
  {
    name: 'no body',
    response: { status: 401 },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'an Error', actual: 'empty', pointer: '', message: 'error 401 has no Error body (empty)' }],
  },
  {
    name: 'an HTML page',
    response: { status: 404, body: '<h1>Not found</h1>' },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'an Error', actual: 'not JSON: <h1>Not found</h1>', pointer: '' }],
  },
  {
    name: 'not an Error: every missing field',
    response: { status: 401, body: '{"error":"no"}' },
    applies: true,
    outcome: 'failed',
    message: /^error 401 body is not a valid Error: \(root\): must have required property 'code'$/,
    failures: [
      { pointer: '', schemaPath: '#/required', message: "(root): must have required property 'code'" },
      { pointer: '', schemaPath: '#/required', message: "(root): must have required property 'message'" },
      { pointer: '', schemaPath: '#/required', message: "(root): must have required property 'status'" },
    ],
  },
  {
    name: 'a field of the wrong type, at its pointer',
    response: { status: 404, body: '{"code":1,"message":"m","status":404}' },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '/code', schemaPath: '#/properties/code/type' }],
  },
  {
    name: 'a status written as a string is no Error',
    response: { status: 404, body: error('404') },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '/status', schemaPath: '#/properties/status/type' }],
  },
  {
    name: 'the case declared schema Error: the shape is its business',
    response: { status: 401, body: '{"error":"no"}' },
    declared: { schema: 'Error' },
    applies: true,
    outcome: 'passed',
    message: /judged by the case/,
  },
  {
    name: 'the case declared schema Error: no body is its business too',
    response: { status: 401 },
    declared: { schema: 'Error' },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'the case declared schema Error: a wrong status is still found',
    response: { status: 401, body: error(403) },
    declared: { schema: 'Error' },
    applies: true,
    outcome: 'failed',
    failures: [{ pointer: '/status', expected: '401', actual: '403' }],
  },
  {
    name: 'the case declared schema Error: the right status passes',
    response: { status: 401, body: error(401) },
    declared: { schema: 'Error' },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'the case declared another schema: the shape is judged here',
    response: { status: 400, body: '{}' },
    declared: { schema: 'Pet' },
    applies: true,
    outcome: 'failed',
    count: 3,
    failures: [{ pointer: '', schemaPath: '#/required' }],
  },
]);

table('auth.www-authenticate', [
  { name: 'not a 401', response: { status: 403, body: error(403) }, applies: false },
  { name: 'a 200', response: { status: 200, headers: {} }, applies: false },
  {
    name: 'missing',
    response: { status: 401, headers: {} },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'WWW-Authenticate: Bearer ...', actual: 'nothing', message: '401 without a WWW-Authenticate header' }],
  },
  {
    name: 'Bearer',
    response: { status: 401, headers: { 'www-authenticate': 'Bearer' } },
    applies: true,
    outcome: 'passed',
    message: /^WWW-Authenticate: Bearer$/,
  },
  {
    name: 'Bearer with a realm',
    response: { status: 401, headers: { 'www-authenticate': 'Bearer realm="pets"' } },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'the scheme in any case',
    response: { status: 401, headers: { 'www-authenticate': 'bearer error="invalid_token"' } },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'Bearer as a second challenge',
    response: { status: 401, headers: { 'www-authenticate': 'Basic realm=x, Bearer' } },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'Bearer as a second challenge, quoted realm',
    response: { status: 401, headers: { 'www-authenticate': 'Basic realm="x", Bearer realm="pets"' } },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'Basic only',
    response: { status: 401, headers: { 'www-authenticate': 'Basic realm="x"' } },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'Bearer', actual: 'Basic realm="x"', message: 'WWW-Authenticate does not name Bearer: Basic realm="x"' }],
  },
  {
    name: 'a scheme that merely starts like Bearer',
    response: { status: 401, headers: { 'www-authenticate': 'BearerToken' } },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'Bearer', actual: 'BearerToken' }],
  },
  {
    name: 'an empty header',
    response: { status: 401, headers: { 'www-authenticate': '' } },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'Bearer', actual: '' }],
  },
  {
    name: 'Bearer inside a quoted parameter is no Bearer challenge',
    response: { status: 401, headers: { 'www-authenticate': 'Basic realm="a, Bearer"' } },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'Bearer' }],
  },
]);

table('contract.undeclared-deprecation', [
  {
    name: 'listPets without a Deprecation header',
    response: { status: 200, body: '[]' },
    applies: true,
    outcome: 'passed',
  },
  {
    name: 'listPets with Deprecation',
    response: { status: 200, body: '[]', headers: { 'content-type': 'application/json', deprecation: '@1924905600' } },
    applies: true,
    outcome: 'failed',
    failures: [{ expected: 'no Deprecation or Sunset header', actual: 'deprecation: @1924905600' }],
  },
  {
    name: 'createPet with a Sunset',
    response: { status: 201, body: '{}', headers: { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, method: 'POST', operation: 'createPet' },
    applies: true,
    outcome: 'failed',
    failures: [{ actual: 'sunset: Thu, 05 Dec 2030 00:00:00 GMT' }],
  },
  {
    name: 'getPet, which the contract deprecates, may say so',
    response: { status: 200, body: '{}', headers: { deprecation: 'true' }, target: '/pets/1', operation: 'getPet' },
    applies: false,
  },
]);

t.test('every exchange check is registered, and only the WWW-Authenticate and deprecation ones merely warn', async (t) => {
  t.same(
    exchangeChecks.map((c) => c.id),
    [
      'server.no-5xx',
      'wire.json-body',
      'wire.json-content-type',
      'contract.response-schema',
      'errors.error-body',
      'auth.www-authenticate',
      'contract.undeclared-deprecation',
      ...INVARIANT_CHECKS.map((c) => c.id),
    ],
  );
  t.same(
    exchangeChecks,
    [...EXCHANGE_CHECKS, ...INVARIANT_CHECKS],
    'the registry holds EXCHANGE_CHECKS, then the store invariants, in order',
  );
  t.equal(exchangeChecks.find((c) => c.id === 'auth.www-authenticate')?.level, 'warn');
  t.same(
    exchangeChecks.filter((c) => c.level === 'warn').map((c) => c.id),
    ['auth.www-authenticate', 'contract.undeclared-deprecation'],
  );
});
