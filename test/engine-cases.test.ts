import t from 'tap';
import { runCases, type CaseRunOptions } from '../dist/engine/cases.js';
import { CreatedPets, createdPetCases } from '../dist/engine/created-pets.js';
import { TransportError, type HttpClient, type OutgoingRequest } from '../dist/http/client.js';
import type { JsonValue } from '../dist/model/json.js';
import type { CaseResult } from '../dist/model/results.js';
import type { CaseSpec, StepSpec } from '../dist/model/scenario.js';
import { contract, exchange, pets, type ExchangeSpec } from './check-fixtures.js';

/** A scripted server: answers each request with the next response of the script (the last one repeats) and records what was sent. */
function scriptedClient(script: Array<ExchangeSpec | Error>): { client: HttpClient; sent: OutgoingRequest[] } {
  const sent: OutgoingRequest[] = [];
  const fake = {
    async send(req: OutgoingRequest) {
      sent.push(req);
      const next = script[Math.min(sent.length - 1, script.length - 1)] as ExchangeSpec | Error;
      if (next instanceof Error) throw next;
      const x = exchange({ ...next, method: req.method, target: `${req.path}${req.query.length > 0 ? `?${new URLSearchParams(req.query).toString()}` : ''}`, operation: req.operation });
      return x;
    },
  };
  // The engine needs only send(); a real HttpClient would need a server.
  return { client: fake as unknown as HttpClient, sent };
}

function spec(steps: StepSpec[], extra: Partial<CaseSpec> = {}): CaseSpec {
  return { id: 'demo.case', title: 'a demo case', clause: 'a clause', suite: 'contract', operation: 'listPets', level: 'fail', steps, writes: false, ...extra };
}

async function run(cases: CaseSpec[], script: Array<ExchangeSpec | Error>, options: Partial<CaseRunOptions> = {}): Promise<{ results: CaseResult[]; sent: OutgoingRequest[] }> {
  const { client, sent } = scriptedClient(script);
  const results = await runCases(cases, {
    client,
    contract,
    variables: new Map<string, JsonValue>([['runId', 'pc-test'], ['categoryId', 1], ['unknownPetId', 4503599627370497]]),
    now: new Date('2026-11-22T12:00:00Z'),
    readOnly: false,
    concurrency: 1,
    consistencyWindowMs: 0,
    excerptBytes: 256,
    disabled: new Map(),
    listener: {},
    created: new CreatedPets(),
    ...options,
  });
  return { results, sent };
}

const list: StepSpec['request'] = { method: 'GET', path: '/pets' };
const errorBody = (status: number): string => `{"code":"x","message":"m","status":${status}}`;

t.test('a case ends as its worst check; each check outcome names its check and the expectation line', async (t) => {
  const step: StepSpec = { request: list, expect: { status: 200, maxItems: 2 }, sources: { 'expect.maxItems': { file: 'a.yaml', line: 9, column: 7 } } };
  const rows: Array<[string, ExchangeSpec, CaseResult['outcome']]> = [
    ['all hold', { body: pets(2) }, 'passed'],
    ['too many', { body: pets(3) }, 'failed'],
    ['a 500 fails server.no-5xx as well', { status: 500, body: errorBody(500) }, 'failed'],
  ];
  for (const [name, response, outcome] of rows) {
    const { results } = await run([spec([step])], [response]);
    t.equal(results[0]?.outcome, outcome, name);
  }
  const { results } = await run([spec([step])], [{ body: pets(3) }]);
  t.match(results[0]?.checks.find((c) => c.id === 'expect.maxItems'), { outcome: 'failed', source: { file: 'a.yaml', line: 9, column: 7 }, failures: [{ expected: 'at most 2 items' }] });
  t.equal(results[0]?.reason, 'expected at most 2 items, got 3');
});

t.test('`when` applies only for its status, and warn-level expectations warn', async (t) => {
  const step: StepSpec = {
    request: list,
    expect: { status: [200, 400], when: { '400': { schema: 'Error' } } },
    warn: { headers: { 'Cache-Control': { present: true } } },
    sources: { 'expect.when.400.schema': { file: 'b.yaml', line: 12, column: 9 } },
  };
  const ok = await run([spec([step])], [{ body: pets(1), headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }]);
  t.equal(ok.results[0]?.outcome, 'passed');
  t.notOk(ok.results[0]?.checks.some((c) => c.id === 'expect.schema'), 'no schema check on a 200');
  const bad = await run([spec([step])], [{ status: 400, body: '{"error":"x"}' }]);
  t.match(bad.results[0]?.checks.find((c) => c.id === 'expect.schema'), { outcome: 'failed', source: { file: 'b.yaml', line: 12 } });
  t.match(bad.results[0]?.checks.find((c) => c.id === 'expect.headers'), { outcome: 'warned', level: 'warn' });
  t.equal(bad.results[0]?.checks.filter((c) => c.outcome === 'failed' && c.id === 'errors.error-body').length, 0, 'the Error shape is reported once, by the case');
  const warnOnly = await run([spec([step])], [{ body: pets(1) }]);
  t.equal(warnOnly.results[0]?.outcome, 'warned');
});

t.test('captures feed later steps; a missing capture fails expect.capture', async (t) => {
  const steps: StepSpec[] = [
    { request: { method: 'POST', path: '/pets', json: { name: '{runId} Rex', categoryId: '{categoryId}' } }, expect: { status: 201 }, capture: { petId: '/id' } },
    { request: { method: 'GET', path: '/pets/{petId}' }, expect: { status: 200, body: { id: '{petId}' } } },
  ];
  const { results, sent } = await run([spec(steps, { writes: true })], [{ status: 201, body: '{"id":9007199254740993,"name":"pc-test Rex","categoryId":1}' }, { body: '{"id":9007199254740993,"name":"pc-test Rex","categoryId":1}' }]);
  t.equal(results[0]?.outcome, 'passed');
  t.equal(sent[1]?.path, '/pets/9007199254740993', 'the captured int64 fills the path exactly');
  t.same(sent[0]?.json, { name: 'pc-test Rex', categoryId: 1 }, 'templates fill typed values');
  const missing = await run([spec(steps, { writes: true })], [{ status: 201, body: '{}' }]);
  t.match(missing.results[0]?.checks.find((c) => c.id === 'expect.capture'), { outcome: 'failed', failures: [{ pointer: '/id' }] });
  t.equal(missing.sent.length, 1, 'a failed step ends the case');
});

t.test('read-after-write retries within the window, then fails', async (t) => {
  const step: StepSpec = { request: list, expect: { status: 200, minItems: 1 }, readAfterWrite: true };
  const late = await run([spec([step])], [{ body: '[]' }, { body: '[]' }, { body: pets(1) }], { consistencyWindowMs: 2_000 });
  t.equal(late.results[0]?.outcome, 'passed', 'seen on the third read');
  t.equal(late.results[0]?.retries, 2);
  t.equal(late.results[0]?.exchanges[0]?.attempts, 3);
  const never = await run([spec([step])], [{ body: '[]' }], { consistencyWindowMs: 120 });
  t.equal(never.results[0]?.outcome, 'failed');
  t.ok(never.sent.length >= 2, 'retried before failing');
});

t.test('a precondition that is not met skips the case: could not be judged, not failed', async (t) => {
  const steps: StepSpec[] = [
    { request: { method: 'GET', path: '/pets', query: { limit: 1 } }, precondition: true, expect: { status: 200, minItems: 1 }, capture: { petId: '/0/id' } },
    { request: { method: 'GET', path: '/pets/{petId}' }, expect: { status: 200 } },
  ];
  const empty = await run([spec(steps)], [{ body: '[]' }]);
  t.match(empty.results[0], { outcome: 'skipped', skip: 'precondition' });
  t.notOk(empty.results[0]?.checks.some((c) => c.outcome === 'failed'));
  const broken = await run([spec(steps)], [{ status: 500, body: errorBody(500) }]);
  t.equal(broken.results[0]?.outcome, 'failed', 'a server error in a precondition step is still a failure');
});

t.test('what is not run, and why: clock, read-only, disabled, interrupted', async (t) => {
  const step: StepSpec = { request: list, expect: { status: 200 } };
  const rows: Array<[string, CaseSpec, Partial<CaseRunOptions>, string, RegExp]> = [
    ['before its window', spec([step], { clock: { from: '2030-12-05' } }), {}, 'clock', /applies only from 2030-12-05/],
    ['after its window', spec([step], { clock: { before: '2026-01-01' } }), {}, 'clock', /applies only before 2026-01-01/],
    ['a write in read-only mode', spec([step], { writes: true }), { readOnly: true }, 'read-only', /read-only/],
    ['a disabled case', spec([step]), { disabled: new Map([['demo.case', 'flaky upstream']]) }, 'disabled', /disabled by the configuration: flaky upstream/],
    ['after Ctrl-C', spec([step]), { signal: AbortSignal.abort() }, 'interrupted', /interrupted before it ran/],
  ];
  for (const [name, c, options, skip, reason] of rows) {
    const { results, sent } = await run([c], [{ body: '[]' }], options);
    t.match(results[0], { outcome: 'skipped', skip, reason }, name);
    t.equal(sent.length, 0, `${name}: nothing sent`);
  }
});

t.test('a disabled check is not evaluated; an unregistered key or a transport failure could not be tested', async (t) => {
  const step: StepSpec = { request: list, expect: { status: 200 } };
  const disabled = await run([spec([step])], [{ status: 401, body: '{"no":"error"}' }], { disabled: new Map([['errors.error-body', 'r'], ['expect.status', 'r'], ['auth.www-authenticate', 'r']]) });
  t.same(disabled.results[0]?.checks.map((c) => c.id), ['wire.json-body', 'wire.json-content-type'], 'only the checks not disabled judged it');
  t.equal(disabled.results[0]?.outcome, 'passed', 'a 401 without an Error body passes when the rules it breaks are disabled');
  const bogus = { request: list, expect: { bogus: 1 } } as unknown as StepSpec;
  const unknown = await run([spec([bogus])], [{ body: '[]' }]);
  t.match(unknown.results[0], { outcome: 'errored', reason: /no check is registered for the expectation 'bogus'/ });
  const refused = await run([spec([step])], [new TransportError('ECONNREFUSED', 'connect ECONNREFUSED', { method: 'GET', url: 'http://127.0.0.1:9/v1/pets', target: '/pets', headers: {}, auth: 'valid', operation: 'listPets' })]);
  t.match(refused.results[0], { outcome: 'errored', reason: /ECONNREFUSED/, exchanges: [{ error: { code: 'ECONNREFUSED' } }] });
  const thrown = await run([spec([step])], [new Error('socket exploded')]);
  t.match(thrown.results[0], { outcome: 'errored', reason: /could not be sent: socket exploded/ }, 'anything else thrown while sending: errored, and the run goes on');
});

t.test('the pets a run created become the read-back and listing cases', async (t) => {
  const created = new CreatedPets();
  created.observe(exchange({ status: 201, method: 'POST', operation: 'createPet', body: '{"id":9007199254740993,"name":"a","categoryId":1,"status":"sold"}' }));
  created.observe(exchange({ status: 400, method: 'POST', operation: 'createPet', body: errorBody(400) }));
  t.equal(created.count, 1, 'only a 201 with a Pet counts');
  const cases = createdPetCases(created, contract);
  t.same(cases.map((c) => c.id), ['lifecycle.created.read-back', 'lifecycle.created.listed']);
  t.equal(cases[0]?.steps[0]?.request.path, '/pets/9007199254740993');
  t.same(cases[1]?.steps[0]?.request.query, { status: 'sold', limit: 100 });
  t.equal(cases[0]?.source, undefined, 'no file declares them, and none is invented');
  t.same(createdPetCases(new CreatedPets(), contract), []);
});
