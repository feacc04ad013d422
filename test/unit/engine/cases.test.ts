/**
 * The engine's verdicts outside the check functions: how a case's checks add up, `when`, warn levels, captures,
 * read-after-write, preconditions, every skip code, disabled checks and cases, rules that could not judge,
 * transport failures, Ctrl-C and the created-pet cases. No network: a scripted client answers every request.
 */
import t from 'tap';
import { guarded, outcomeOf } from '../../../src/checks/judge.js';
import { runCases, type CaseContext } from '../../../src/engine/cases.js';
import { caseInfo, notJudgedCase } from '../../../src/engine/case-report.js';
import { CreatedPets } from '../../../src/engine/observer.js';
import { createdPetCases } from '../../../src/engine/phases/created-pets.js';
import { TransportError, type Client as HttpClient, type OutgoingRequest } from '../../../src/http/client.js';
import type { Judgement } from '../../../src/model/check.js';
import type { CaseResult, Level, Outcome } from '../../../src/model/results.js';
import type { CaseSpec, StepSpec } from '../../../src/model/scenario.js';
import { contract, exchange, pets, type ExchangeSpec } from '../../check-fixtures.js';
import { caseContext, type CaseOptions, caseSpec as spec } from '../../case-context.js';
import { virtualClock } from '../../helpers.js';

/** A scripted server: answers each request with the next response of the script (the last one repeats) and records what was sent. */
function scriptedClient(script: Array<ExchangeSpec | Error>): { client: HttpClient; sent: OutgoingRequest[] } {
  const sent: OutgoingRequest[] = [];
  const fake = {
    async send(req: OutgoingRequest) {
      sent.push(req);
      const next = script[Math.min(sent.length - 1, script.length - 1)] as ExchangeSpec | Error;
      if (next instanceof Error) throw next;
      return exchange({
        ...next,
        method: req.method,
        target: `${req.path}${req.query.length > 0 ? `?${new URLSearchParams(req.query).toString()}` : ''}`,
        operation: req.operation,
      });
    },
  };
  // The engine calls only send() at run time; a real HttpClient would need a server (and a socket), so the fake stands in for it here, and only here.
  return { client: fake as unknown as HttpClient, sent };
}

/** Options of a run at noon on 2026-11-22, one case at a time, no consistency window; override what a row needs. */
function options(client: HttpClient, extra: CaseOptions = {}): CaseContext {
  return caseContext(client, contract, { excerptBytes: 256, ...extra });
}

async function run(
  cases: CaseSpec[],
  script: Array<ExchangeSpec | Error>,
  extra: CaseOptions = {},
): Promise<{ results: CaseResult[]; sent: OutgoingRequest[] }> {
  const { client, sent } = scriptedClient(script);
  const results = await runCases(cases, options(client, extra));
  return { results, sent };
}

const list: StepSpec['request'] = { method: 'GET', path: '/pets' };
const errorBody = (status: number): string => `{"code":"x","message":"m","status":${status}}`;
const refused = (): TransportError =>
  new TransportError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9', {
    method: 'GET',
    url: 'http://127.0.0.1:9/v1/pets',
    target: '/pets',
    headers: {},
    auth: 'valid',
    operation: 'listPets',
  });

t.test('outcomeOf: a failure of a warn rule is a warning; failures and source only where they belong', async (t) => {
  const failure = { message: 'expected 200, got 500', expected: '200', actual: '500' };
  const where = { file: 'a.yaml', line: 3, column: 5 };
  const rows: Array<[string, Judgement, Level, Outcome, boolean]> = [
    ['failed at fail', { outcome: 'failed', message: 'm', failures: [failure] }, 'fail', 'failed', true],
    ['failed at warn', { outcome: 'failed', message: 'm', failures: [failure] }, 'warn', 'warned', true],
    ['passed at warn', { outcome: 'passed', message: 'ok' }, 'warn', 'passed', false],
    ['could not test at warn stays so', { outcome: 'could-not-test', message: 'could not' }, 'warn', 'could-not-test', false],
    ['an internal error at warn stays one', { outcome: 'internal-error', message: 'threw' }, 'warn', 'internal-error', false],
    ['not judged at fail', { outcome: 'not-judged', message: 'n/a' }, 'fail', 'not-judged', false],
  ];
  for (const [name, judgement, level, outcome, hasFailures] of rows) {
    const result = outcomeOf({ id: 'x.rule' }, level, 2, judgement, where);
    t.match(result, { id: 'x.rule', level, outcome, step: 2, message: judgement.message, source: where }, name);
    t.equal('failures' in result, hasFailures, `${name}: failures ${hasFailures ? 'kept' : 'absent'}`);
  }
  t.notOk('source' in outcomeOf({ id: 'x.rule' }, 'fail', 0, { outcome: 'passed', message: '' }), 'no source invented');
});

t.test('guarded: a rule that throws is an internal error (our bug), whatever it throws', async (t) => {
  const rows: Array<[string, () => Judgement, Judgement | RegExp]> = [
    [
      'a judgement passes through',
      () => ({ outcome: 'failed', message: 'no', failures: [] }),
      { outcome: 'failed', message: 'no', failures: [] },
    ],
    [
      'an Error',
      () => {
        throw new Error('boom');
      },
      { outcome: 'internal-error', message: 'the check threw: boom' },
    ],
    [
      'a string',
      () => {
        throw 'bare';
      },
      { outcome: 'internal-error', message: 'the check threw: bare' },
    ],
    [
      'a TypeError from reading a missing body',
      () => ({ outcome: 'passed', message: String((undefined as unknown as { x: number }).x) }),
      /^the check threw: .*undefined/,
    ],
  ];
  for (const [name, evaluate, expected] of rows) {
    const got = guarded(evaluate);
    if (expected instanceof RegExp) t.match(got, { outcome: 'internal-error', message: expected }, name);
    else t.same(got, expected, name);
  }
});

t.test('caseInfo and notJudgedCase: what the catalogue and a case not judged carry', async (t) => {
  const full = spec([{ request: list }], { writes: true, clock: { before: '2030-12-05' }, source: { file: 's.yaml', line: 4, column: 3 } });
  t.strictSame(caseInfo(full), {
    id: 'demo.case',
    title: 'a demo case',
    clause: 'a clause',
    suite: 'contract',
    operation: 'listPets',
    level: 'fail',
    source: { file: 's.yaml', line: 4, column: 3 },
  });
  t.notOk('source' in caseInfo(spec([])), 'no source key when none is declared');
  t.strictSame(notJudgedCase(caseInfo(full), 'clock', 'why'), {
    ...caseInfo(full),
    outcome: 'not-judged',
    skip: 'clock',
    reason: 'why',
    durationMs: 0,
    checks: [],
    exchanges: [],
    retries: 0,
  });
});

t.test('a case ends as its worst check; each check outcome names its check and the expectation line', async (t) => {
  const step: StepSpec = {
    request: list,
    expect: { status: 200, maxItems: 2 },
    sources: { 'expect.maxItems': { file: 'a.yaml', line: 9, column: 7 } },
  };
  const rows: Array<[string, ExchangeSpec, Outcome, Array<[string, Outcome]>]> = [
    [
      'all hold',
      { body: pets(2) },
      'passed',
      [
        ['expect.status', 'passed'],
        ['expect.maxItems', 'passed'],
        ['contract.response-schema', 'passed'],
      ],
    ],
    [
      'too many',
      { body: pets(3) },
      'failed',
      [
        ['expect.status', 'passed'],
        ['expect.maxItems', 'failed'],
      ],
    ],
    [
      'a 500 fails server.no-5xx as well',
      { status: 500, body: errorBody(500) },
      'failed',
      [
        ['expect.status', 'failed'],
        ['server.no-5xx', 'failed'],
      ],
    ],
    ['a body that is not JSON', { body: '[{' }, 'failed', [['wire.json-body', 'failed']]],
  ];
  for (const [name, response, outcome, checks] of rows) {
    const { results } = await run([spec([step])], [response]);
    t.equal(results[0]?.outcome, outcome, name);
    for (const [id, checkOutcome] of checks) t.equal(results[0]?.checks.find((c) => c.id === id)?.outcome, checkOutcome, `${name}: ${id}`);
    t.ok(
      results[0]?.checks.every((c) => c.step === 0),
      `${name}: every check names step 0`,
    );
  }
  const { results } = await run([spec([step])], [{ body: pets(3) }]);
  t.match(
    results[0]?.checks.find((c) => c.id === 'expect.maxItems'),
    { outcome: 'failed', source: { file: 'a.yaml', line: 9, column: 7 }, failures: [{ expected: 'at most 2 items' }] },
  );
  t.notOk(results[0]?.checks.find((c) => c.id === 'expect.status')?.source, 'no line given for status, none shown');
  t.equal(results[0]?.reason, 'expected at most 2 items, got 3');
  t.match(
    results[0]?.exchanges[0],
    { step: 0, attempts: 1, response: { status: 200 }, request: { method: 'GET' } },
    'the exchange is kept as evidence',
  );
});

t.test('`when` applies only for its status, with the nested line; warn-level expectations warn', async (t) => {
  const step: StepSpec = {
    request: list,
    expect: { status: [200, 400], when: { '400': { schema: 'Error' } } },
    warn: { headers: { 'Cache-Control': { present: true } } },
    sources: { 'expect.when.400.schema': { file: 'b.yaml', line: 12, column: 9 }, 'warn.headers': { file: 'b.yaml', line: 14, column: 7 } },
  };
  const ok = await run([spec([step])], [{ body: pets(1), headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }]);
  t.equal(ok.results[0]?.outcome, 'passed');
  t.notOk(
    ok.results[0]?.checks.some((c) => c.id === 'expect.schema'),
    'no schema check on a 200',
  );
  const bad = await run([spec([step])], [{ status: 400, body: '{"error":"x"}' }]);
  t.match(
    bad.results[0]?.checks.find((c) => c.id === 'expect.schema'),
    { outcome: 'failed', source: { file: 'b.yaml', line: 12, column: 9 } },
  );
  t.match(
    bad.results[0]?.checks.find((c) => c.id === 'expect.headers'),
    { outcome: 'warned', level: 'warn', source: { file: 'b.yaml', line: 14 } },
  );
  t.equal(bad.results[0]?.outcome, 'failed', 'a failure outweighs a warning');
  t.equal(
    bad.results[0]?.checks.filter((c) => c.outcome === 'failed' && c.id === 'errors.error-body').length,
    0,
    'the Error shape is reported once, by the case',
  );
  const good400 = await run(
    [spec([step])],
    [{ status: 400, body: errorBody(400), headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }],
  );
  t.equal(good400.results[0]?.outcome, 'passed', 'a 400 with an Error body passes');
  t.equal(good400.results[0]?.checks.find((c) => c.id === 'expect.schema')?.outcome, 'passed', 'the nested expectation judged it');
  const warnOnly = await run([spec([step])], [{ body: pets(1) }]);
  t.equal(warnOnly.results[0]?.outcome, 'warned');
  t.match(warnOnly.results[0]?.reason, /cache-control/i, 'the reason is the warning');
  const warnCase = await run([spec([{ request: list, expect: { maxItems: 0 } }], { level: 'warn' })], [{ body: pets(1) }]);
  t.equal(warnCase.results[0]?.outcome, 'warned', 'a warn-level case only warns');
  t.match(
    warnCase.results[0]?.checks.find((c) => c.id === 'expect.maxItems'),
    { level: 'warn', outcome: 'warned' },
    'its own expectations are judged at its level',
  );
});

t.test('captures feed later steps; a missing capture fails expect.capture', async (t) => {
  const steps: StepSpec[] = [
    {
      request: { method: 'POST', path: '/pets', json: { name: '{runId} Rex', categoryId: '{categoryId}' } },
      expect: { status: 201 },
      capture: { petId: '/id' },
    },
    { request: { method: 'GET', path: '/pets/{petId}' }, expect: { status: 200, body: { id: '{petId}' } } },
  ];
  const pet = '{"id":9007199254740993,"name":"pc-test Rex","categoryId":1}';
  const { results, sent } = await run([spec(steps, { writes: true })], [{ status: 201, body: pet }, { body: pet }]);
  t.equal(results[0]?.outcome, 'passed');
  t.equal(sent[1]?.path, '/pets/9007199254740993', 'the captured int64 fills the path exactly');
  t.equal(sent[1]?.operation, 'getPet', 'the filled path names its operation');
  t.strictSame(sent[0]?.json, { name: 'pc-test Rex', categoryId: 1 }, 'templates fill typed values');
  const other = await run(
    [spec(steps, { writes: true })],
    [{ status: 201, body: pet }, { body: '{"id":9007199254740992,"name":"pc-test Rex","categoryId":1}' }],
  );
  t.match(
    other.results[0]?.checks.find((c) => c.id === 'expect.body'),
    { outcome: 'failed', step: 1 },
    'the captured value is what the later expectation compares, exactly',
  );
  const text = await run(
    [spec([{ ...(steps[0] as StepSpec), capture: { petId: '/name' } }, steps[1] as StepSpec], { writes: true })],
    [
      { status: 201, body: pet },
      { status: 404, body: errorBody(404) },
    ],
  );
  t.equal(text.sent[1]?.path, '/pets/pc-test%20Rex', 'a captured string is URL-encoded in the path');
  const missing = await run([spec(steps, { writes: true })], [{ status: 201, body: '{}' }]);
  t.match(
    missing.results[0]?.checks.find((c) => c.id === 'expect.capture'),
    { outcome: 'failed', failures: [{ pointer: '/id' }] },
  );
  t.equal(missing.sent.length, 1, 'a failed step ends the case');
});

t.test('read-after-write retries within the window, then fails; other steps never retry', async (t) => {
  const step: StepSpec = { request: list, expect: { status: 200, minItems: 1 }, readAfterWrite: true };
  const late = await run([spec([step])], [{ body: '[]' }, { body: pets(1) }], { consistencyWindowMs: 2_000, waitClock: virtualClock() });
  t.equal(late.results[0]?.outcome, 'passed', 'seen on the second read');
  t.equal(late.results[0]?.retries, 1);
  t.equal(late.sent.length, 2);
  t.equal(late.results[0]?.exchanges.length, 1, 'one piece of evidence per step, the last attempt');
  t.equal(late.results[0]?.exchanges[0]?.attempts, 2);
  t.equal(late.results[0]?.checks.filter((c) => c.id === 'expect.minItems').length, 1, 'only the last attempt is judged');
  // On a virtual clock the window is exact: reads at 0, 50, 150, 350, 750, 1250 and 1750 ms; the next would come after the window.
  const clock = virtualClock();
  const never = await run([spec([step])], [{ body: '[]' }], { consistencyWindowMs: 2_000, waitClock: clock });
  t.equal(never.results[0]?.outcome, 'failed');
  t.same(clock.slept, [50, 100, 200, 400, 500, 500], 'the backoff doubles from 50 ms up to 500 ms, and stops before the window ends');
  t.equal(never.sent.length, 7, 'retried before failing, within the window');
  t.equal(never.results[0]?.retries, 6);
  t.equal(never.results[0]?.exchanges[0]?.attempts, 7);
  const noWindow = await run([spec([step])], [{ body: '[]' }, { body: pets(1) }], { consistencyWindowMs: 0 });
  t.match(noWindow, { results: [{ outcome: 'failed', retries: 0 }], sent: { length: 1 } }, 'no window, no retry');
  const plain = await run([spec([{ ...step, readAfterWrite: false }])], [{ body: '[]' }, { body: pets(1) }], {
    consistencyWindowMs: 2_000,
  });
  t.match(plain, { results: [{ outcome: 'failed', retries: 0 }], sent: { length: 1 } }, 'a step that does not read a write is judged once');
  // A 5xx is not a write not yet visible: retrying it away hides a server error (server.no-5xx: never a 5xx).
  const serverError = await run([spec([step])], [{ status: 500, body: errorBody(500) }, { body: pets(1) }], { consistencyWindowMs: 2_000 });
  t.equal(serverError.results[0]?.outcome, 'failed', 'a 5xx inside the read-after-write window is still a failure');
});

t.test('a precondition that is not met skips the case: could not be judged, not failed', async (t) => {
  const steps: StepSpec[] = [
    {
      request: { method: 'GET', path: '/pets', query: { limit: 1 } },
      precondition: true,
      expect: { status: 200, minItems: 1 },
      capture: { petId: '/0/id' },
    },
    { request: { method: 'GET', path: '/pets/{petId}' }, expect: { status: 200 } },
  ];
  const rows: Array<[string, ExchangeSpec[], Outcome, string | undefined, number]> = [
    ['an empty store', [{ body: '[]' }], 'not-judged', 'precondition', 1],
    ['a server error is still a failure', [{ status: 500, body: errorBody(500) }], 'failed', undefined, 1],
    [
      'met: the case goes on',
      [{ body: pets(1) }, { body: '{"id":1,"name":"Pet 1","categoryId":1,"status":"available"}' }],
      'passed',
      undefined,
      2,
    ],
  ];
  for (const [name, script, outcome, skip, sends] of rows) {
    const { results, sent } = await run([spec(steps)], script);
    t.equal(results[0]?.outcome, outcome, name);
    t.equal(results[0]?.skip, skip, `${name}: skip code`);
    t.equal(sent.length, sends, `${name}: requests sent`);
    t.notOk(
      outcome === 'not-judged' && results[0]?.checks.some((c) => c.outcome === 'failed'),
      `${name}: a case not judged carries no failure`,
    );
  }
  const empty = await run([spec(steps)], [{ body: '[]' }]);
  t.match(empty.results[0]?.reason, /^precondition of step 1 not met: /);
  t.equal(empty.sent[0]?.query.length, 1);
  t.strictSame(empty.sent[0]?.query, [['limit', '1']], 'query values are sent as text');
  const met = await run([spec(steps)], [{ body: pets(1) }, { body: '{"id":1,"name":"Pet 1","categoryId":1,"status":"available"}' }]);
  t.equal(met.sent[1]?.path, '/pets/1', 'the precondition captured the id the next step reads');
});

t.test('what is not run, and why: clock, read-only, disabled, interrupted', async (t) => {
  const step: StepSpec = { request: list, expect: { status: 200 } };
  const rows: Array<[string, CaseSpec, CaseOptions, string, RegExp]> = [
    [
      'before its window',
      spec([step], { clock: { from: '2030-12-05' } }),
      {},
      'clock',
      /applies only from 2030-12-05 \(the suite's clock says 2026-11-22\)/,
    ],
    ['the day after its window', spec([step], { clock: { from: '2026-11-23' } }), {}, 'clock', /applies only from 2026-11-23/],
    ['after its window', spec([step], { clock: { before: '2026-01-01' } }), {}, 'clock', /applies only before 2026-01-01/],
    ['on the day it ends', spec([step], { clock: { before: '2026-11-22' } }), {}, 'clock', /applies only before 2026-11-22/],
    ['a write in read-only mode', spec([step], { writes: true }), { readOnly: true }, 'read-only', /read-only/],
    [
      'a disabled case',
      spec([step]),
      { disabled: new Map([['demo.case', 'flaky upstream']]) },
      'disabled',
      /^disabled by the configuration: flaky upstream$/,
    ],
    [
      'disabled wins over the clock',
      spec([step], { clock: { before: '2026-01-01' } }),
      { disabled: new Map([['demo.case', 'r']]) },
      'disabled',
      /disabled/,
    ],
    ['after Ctrl-C', spec([step]), { signal: AbortSignal.abort() }, 'interrupted', /interrupted before it ran/],
  ];
  for (const [name, c, extra, skip, reason] of rows) {
    const { results, sent } = await run([c], [{ body: '[]' }], extra);
    t.match(results[0], { outcome: 'not-judged', reason }, name);
    t.equal(results[0]?.skip, skip, `${name}: skip code`);
    t.same([results[0]?.checks, results[0]?.exchanges, results[0]?.retries], [[], [], 0], `${name}: nothing judged`);
    t.equal(sent.length, 0, `${name}: nothing sent`);
  }
  const applies: Array<[string, CaseSpec, CaseOptions]> = [
    ['from today', spec([step], { clock: { from: '2026-11-22' } }), {}],
    ['before tomorrow', spec([step], { clock: { before: '2026-11-23' } }), {}],
    ['a read in read-only mode', spec([step]), { readOnly: true }],
    ['another case disabled', spec([step]), { disabled: new Map([['other.case', 'r']]) }],
  ];
  for (const [name, c, extra] of applies) {
    const { results, sent } = await run([c], [{ body: '[]' }], extra);
    t.match(results[0], { outcome: 'passed' }, `${name}: runs`);
    t.equal(results[0]?.skip, undefined, `${name}: no skip code`);
    t.equal(sent.length, 1, `${name}: sent`);
  }
});

t.test('Ctrl-C: every case not yet started is skipped as interrupted, and each still reports its end', async (t) => {
  const step: StepSpec = { request: list, expect: { status: 200 } };
  const three = ['a', 'b', 'c'].map((id) => spec([step], { id }));
  const ends: string[] = [];
  const before = await run(three, [{ body: '[]' }], {
    signal: AbortSignal.abort(),
    listener: { onCaseEnd: (r) => ends.push(`${r.id}:${r.skip ?? r.outcome}`) },
  });
  t.same(
    before.results.map((r) => [r.outcome, r.skip]),
    [
      ['not-judged', 'interrupted'],
      ['not-judged', 'interrupted'],
      ['not-judged', 'interrupted'],
    ],
  );
  t.same(ends, ['a:interrupted', 'b:interrupted', 'c:interrupted']);
  t.equal(before.sent.length, 0);
  const controller = new AbortController();
  const midway = await run(three, [{ body: '[]' }], { signal: controller.signal, listener: { onCaseEnd: () => controller.abort() } });
  t.same(
    midway.results.map((r) => r.skip ?? r.outcome),
    ['passed', 'interrupted', 'interrupted'],
    'the case under way finishes; the rest are skipped',
  );
  t.equal(midway.sent.length, 1);
});

t.test(
  'a disabled check is not evaluated; an unregistered key is an internal error, a transport failure could not be tested, and the run goes on',
  async (t) => {
    const step: StepSpec = { request: list, expect: { status: 200 } };
    const disabled = await run([spec([step])], [{ status: 401, body: '{"no":"error"}' }], {
      disabled: new Map([
        ['errors.error-body', 'r'],
        ['expect.status', 'r'],
        ['auth.www-authenticate', 'r'],
      ]),
    });
    t.same(
      disabled.results[0]?.checks.map((c) => c.id),
      ['wire.json-body', 'wire.json-content-type'],
      'only the checks not disabled judged it',
    );
    t.equal(disabled.results[0]?.outcome, 'passed', 'a 401 without an Error body passes when the rules it breaks are disabled');
    const notDisabled = await run([spec([step])], [{ status: 401, body: '{"no":"error"}' }]);
    t.equal(notDisabled.results[0]?.outcome, 'failed', 'the same 401 fails with nothing disabled');
    const maxItems: StepSpec = { request: list, expect: { status: 200, maxItems: 1 } };
    const offRule = await run([spec([maxItems])], [{ body: pets(3) }], { disabled: new Map([['expect.maxItems', 'r']]) });
    t.match(offRule.results[0], { outcome: 'passed' });
    t.notOk(
      offRule.results[0]?.checks.some((c) => c.id === 'expect.maxItems'),
      'a disabled expectation check leaves no outcome',
    );

    const bogus = {
      request: list,
      expect: { status: 200, bogus: 1 },
      sources: { 'expect.bogus': { file: 'c.yaml', line: 5, column: 3 } },
    } as unknown as StepSpec;
    const unknown = await run([spec([bogus], { id: 'bogus.case' }), spec([step], { id: 'next.case' })], [{ body: '[]' }]);
    t.match(unknown.results[0], { outcome: 'internal-error', reason: /no check is registered for the expectation 'bogus'/ });
    t.match(
      unknown.results[0]?.checks.find((c) => c.id === 'expect.bogus'),
      { outcome: 'internal-error', source: { file: 'c.yaml', line: 5 } },
      'the expectation no check judges names its line',
    );
    t.equal(
      unknown.results[0]?.checks.find((c) => c.id === 'expect.status')?.outcome,
      'passed',
      'the other expectations of the step are still judged',
    );
    t.equal(unknown.results[1]?.outcome, 'passed', 'the next case runs');
    const bogusWarn = { request: list, expect: { status: 200 }, warn: { bogus: 1 } } as unknown as StepSpec;
    t.equal(
      (await run([spec([bogusWarn])], [{ body: '[]' }])).results[0]?.outcome,
      'internal-error',
      'an unknown key under warn is an internal error too: not a mere warning',
    );

    const transport = await run([spec([step], { id: 'down.case' }), spec([step], { id: 'next.case' })], [refused(), { body: '[]' }]);
    t.match(transport.results[0], { outcome: 'could-not-test', reason: 'step 1: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)' });
    t.match(
      transport.results[0]?.checks,
      [{ id: 'server.answers', outcome: 'could-not-test', message: 'connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)' }],
      'server.answers could not test it: nothing was answered',
    );
    t.equal(transport.results[0]?.checks.length, 1);
    t.equal(transport.results[0]?.exchanges.length, 1);
    t.match(
      transport.results[0]?.exchanges,
      [{ step: 0, attempts: 1, error: { code: 'ECONNREFUSED' }, request: { url: 'http://127.0.0.1:9/v1/pets' }, reproduce: /curl/ }],
      'the evidence keeps the code and the request',
    );
    t.notOk(transport.results[0]?.exchanges[0]?.response, 'no response is invented');
    t.equal(transport.results[1]?.outcome, 'passed', 'the run goes on');
    const sent = {
      method: 'GET',
      url: 'http://127.0.0.1:9/v1/pets',
      target: '/pets',
      headers: {},
      auth: 'valid' as const,
      operation: 'listPets' as const,
    };
    const hung = new TransportError('UND_ERR_HEADERS_TIMEOUT', 'no response headers within 10000 ms', sent, {
      timedOut: true,
      answeredMeanwhile: 7,
    });
    const unanswered = await run([spec([step], { id: 'hung.case' })], [hung]);
    t.match(
      unanswered.results[0],
      { outcome: 'failed', reason: 'step 1: no response headers within 10000 ms, while the server answered 7 other requests' },
      'a request left unanswered while the server answers others: the server failed',
    );
    t.match(unanswered.results[0]?.checks, [
      {
        id: 'server.answers',
        outcome: 'failed',
        failures: [{ expected: 'a response', actual: 'no response headers within 10000 ms (UND_ERR_HEADERS_TIMEOUT)' }],
      },
    ]);
    const refusedTwice = new TransportError('ECONNRESET', 'other side closed', sent, {
      timedOut: false,
      answeredMeanwhile: 1,
      closedTwice: true,
    });
    t.match(
      (await run([spec([step], { id: 'dropped.case' })], [refusedTwice])).results[0],
      { outcome: 'failed', reason: 'step 1: other side closed, on a fresh connection too, while the server answered 1 other request' },
      'a request closed on a fresh connection too, while the server answers: the server failed',
    );
    const cut = new TransportError('UND_ERR_SOCKET', 'other side closed', sent, {
      timedOut: false,
      answeredMeanwhile: 2,
      beforeResponse: false,
    });
    t.match(
      (await run([spec([step], { id: 'cut.case' })], [cut])).results[0],
      { outcome: 'failed', reason: 'step 1: other side closed, after the answer began, while the server answered 2 other requests' },
      'an answer cut short while the server answers others: the server failed',
    );
    const alone = await run(
      [spec([step])],
      [
        new TransportError('UND_ERR_HEADERS_TIMEOUT', 'no response headers within 10000 ms', sent, {
          timedOut: true,
          answeredMeanwhile: 0,
        }),
      ],
    );
    t.match(
      alone.results[0],
      { outcome: 'could-not-test', reason: 'step 1: no response headers within 10000 ms (UND_ERR_HEADERS_TIMEOUT)' },
      'a timeout while nothing else is answered could not be tested, and says which bound it hit',
    );
    const disabledAnswers = await run([spec([step])], [hung], { disabled: new Map([['server.answers', 'flaky gateway']]) });
    t.match(
      disabledAnswers.results[0],
      { outcome: 'could-not-test', reason: 'step 1: no response headers within 10000 ms (UND_ERR_HEADERS_TIMEOUT)' },
      'with server.answers disabled the case could not be tested',
    );
    const thrown = await run([spec([step])], [new Error('socket exploded')]);
    t.match(
      thrown.results[0],
      { outcome: 'internal-error', reason: /could not be sent: socket exploded/ },
      'anything else thrown while sending: an internal error (the client throws nothing else on purpose), and the run goes on',
    );
    const rawWindow = await run([spec([{ ...step, readAfterWrite: true }])], [refused()], { consistencyWindowMs: 2_000 });
    t.match(
      rawWindow,
      { results: [{ outcome: 'could-not-test' }], sent: { length: 1 } },
      'a transport failure is not retried as a read-after-write',
    );
  },
);

t.test('cases run at once come back in order, each with its own variables', async (t) => {
  const steps: StepSpec[] = [
    {
      request: { method: 'POST', path: '/pets', json: { name: '{runId}', categoryId: '{categoryId}' } },
      expect: { status: 201 },
      capture: { petId: '/id' },
    },
    { request: { method: 'GET', path: '/pets/{petId}' }, expect: { status: 200 } },
  ];
  const ids = ['c1', 'c2', 'c3', 'c4'];
  const { results, sent } = await run(
    ids.map((id) => spec(steps, { id, writes: true })),
    [{ status: 201, body: '{"id":7,"name":"x","categoryId":1}' }],
    // The scripted server hands out id 7 every time: the store model's rule on unique ids is not what this test is about.
    { concurrency: 4, disabled: new Map([['store.unique-ids', 'one scripted id']]) },
  );
  t.same(
    results.map((r) => r.id),
    ids,
  );
  t.equal(sent.length, 8);
  t.ok(sent.filter((r) => r.method === 'GET').every((r) => r.path === '/pets/7'));
});

t.test('independent steps go --concurrency at a time, judged in their order; none starts after one failed', async (t) => {
  /** Answers each read after a number of turns its path decides (so they finish out of order); /pets/3 answers 500. */
  const paced = (): { client: HttpClient; sent: string[]; most: () => number } => {
    const sent: string[] = [];
    let inFlight = 0;
    let most = 0;
    const fake = {
      async send(req: OutgoingRequest) {
        sent.push(req.path);
        inFlight += 1;
        most = Math.max(most, inFlight);
        for (let i = 0; i < (Number(req.path.split('/')[2]) * 7) % 5; i++) await Promise.resolve();
        inFlight -= 1;
        const failing = req.path === '/pets/3';
        return exchange({
          status: failing ? 500 : 200,
          body: failing ? errorBody(500) : `{"id":${req.path.split('/')[2]},"name":"a","categoryId":1,"status":"sold"}`,
          target: req.path,
          operation: 'getPet',
        });
      },
    };
    return { client: fake as unknown as HttpClient, sent, most: () => most };
  };
  const reads = (ids: number[]): StepSpec[] =>
    ids.map((id) => ({ request: { method: 'GET', path: `/pets/${id}` }, expect: { status: 200 } }));
  const rows: Array<[string, number[], number, Outcome, number]> = [
    ['all pass, three at once', [1, 2, 4, 5, 6, 7, 8], 3, 'passed', 3],
    ['one at a time without concurrency', [1, 2, 4, 5], 1, 'passed', 1],
    ['the fourth fails', [1, 2, 4, 3, 5, 6, 7, 8, 9], 3, 'failed', 3],
  ];
  for (const [name, ids, concurrency, outcome, most] of rows) {
    const fake = paced();
    const [result] = await runCases(
      [spec(reads(ids), { operation: 'getPet', independentSteps: true })],
      options(fake.client, { concurrency }),
    );
    t.equal(result?.outcome, outcome, name);
    t.equal(fake.most(), most, `${name}: at most ${most} under way`);
    t.same(
      result?.exchanges.map((e) => e.step),
      result?.exchanges.map((_, i) => i),
      `${name}: the evidence in step order`,
    );
    t.same(
      result?.exchanges.map((e) => e.request.url.replace(/.*\/v1/, '')),
      ids.slice(0, result?.exchanges.length).map((id) => `/pets/${id}`),
      `${name}: each step's own exchange`,
    );
    if (outcome === 'failed') {
      t.ok(
        fake.sent.length < ids.length && fake.sent.length <= 4 + concurrency - 1,
        `${name}: ${fake.sent.length} sent, none after the failure`,
      );
      t.equal(result?.exchanges.length, fake.sent.length, `${name}: every read sent is kept as evidence`);
      t.match(result?.reason, /500/, `${name}: the reason is the failing step's`);
    } else t.equal(fake.sent.length, ids.length, `${name}: every step sent once`);
  }
});

t.test('the pets a run created become the read-back and listing cases', async (t) => {
  const created = new CreatedPets();
  const pet = '{"id":9007199254740993,"name":"a","categoryId":1,"status":"sold","extra":"dropped"}';
  const observed: Array<[string, ExchangeSpec, boolean]> = [
    ['a 201 to createPet with a Pet', { status: 201, method: 'POST', operation: 'createPet', body: pet }, true],
    ['a 400', { status: 400, method: 'POST', operation: 'createPet', body: errorBody(400) }, false],
    ['a 201 without an id', { status: 201, method: 'POST', operation: 'createPet', body: '{"name":"b"}' }, false],
    ['a 201 that is not createPet', { status: 201, method: 'GET', operation: 'listPets', body: '{"id":5}' }, false],
    ['a 201 with a body that is not an object', { status: 201, method: 'POST', operation: 'createPet', body: '[{"id":6}]' }, false],
  ];
  for (const [name, x, counts] of observed) {
    const before = created.count;
    created.observe(exchange(x));
    t.equal(created.count - before, counts ? 1 : 0, name);
  }
  const cases = createdPetCases(created.all(), contract);
  t.same(
    cases.map((c) => c.id),
    ['lifecycle.created.read-back', 'lifecycle.created.listed'],
  );
  t.equal(cases[0]?.steps[0]?.request.path, '/pets/9007199254740993');
  t.strictSame(
    cases[0]?.steps[0]?.expect,
    { status: 200, body: { id: 9007199254740993n, name: 'a', categoryId: 1, status: 'sold' } },
    'the known fields, the int64 exact',
  );
  t.equal(cases[0]?.clock?.before, '2030-12-05', 'getPet is removed on its sunset: so is its read-back');
  t.ok(
    cases.every((c) => c.writes === false && c.steps.every((s) => s.readAfterWrite === true)),
    'they only read, within the window',
  );
  t.strictSame(cases[1]?.steps[0]?.request.query, { status: 'sold', limit: 100 });
  t.equal(cases[0]?.source, undefined, 'no file declares them, and none is invented');
  t.same(createdPetCases([], contract), []);

  const many = new CreatedPets();
  for (let i = 1; i <= 60; i++)
    many.observe(
      exchange({
        status: 201,
        method: 'POST',
        operation: 'createPet',
        body: JSON.stringify({
          id: i,
          name: `p${i}`,
          categoryId: 1,
          ...(i % 3 === 0 ? {} : { status: i % 2 === 0 ? 'available' : 'pending' }),
        }),
      }),
    );
  const [readBack, listed] = createdPetCases(many.all(), contract);
  t.equal(readBack?.steps.length, 50, 'at most 50 read back');
  t.same(
    listed?.steps.map((s) => s.request.query?.['status']),
    ['pending', 'available'],
    'one listing per status, in order of first creation',
  );
  t.equal((listed?.steps[1]?.expect?.holdsIfNotFull as unknown[]).length, 20, 'every available pet (and none without a status)');

  const readBackCase = cases[0] as CaseSpec;
  const same = await run([readBackCase], [{ body: pet }]);
  t.equal(same.results[0]?.outcome, 'passed', 'a pet that reads back equal passes');
  const renamed = await run([readBackCase], [{ body: pet.replace('"a"', '"b"') }]);
  t.equal(renamed.results[0]?.outcome, 'failed', 'a pet that reads back changed fails');
  const after = await run([readBackCase], [{ body: pet }], { now: new Date('2030-12-05T00:00:00Z') });
  t.match(after.results[0], { outcome: 'not-judged', skip: 'clock' });
});

t.test(
  'nothing that was not judged is reported as passed: a case whose rule found nothing to judge anywhere is not judged, with the reason',
  async (t) => {
    const full = { request: { ...list, query: { limit: 2 } }, expect: { status: 200, holdsIfNotFull: { id: 9 } } };
    const unjudged = await run([spec([full])], [{ body: pets(2) }]);
    t.match(unjudged.results[0], {
      outcome: 'not-judged',
      skip: 'precondition',
      reason:
        'not judged: the page is full (2) and lacks 1 of the 1 looked for: they may lie beyond the first page (the order is the ' +
        "server's); nothing can be concluded",
    });
    t.match(
      unjudged.results[0]?.checks,
      [
        { id: 'expect.status', outcome: 'passed' },
        { id: 'expect.holdsIfNotFull', outcome: 'not-judged' },
      ],
      'the checks still say what was judged',
    );
    const judgedOnce = await run(
      [spec([full, full])],
      [{ body: pets(2) }, { body: JSON.stringify([{ id: 9, name: 'n', categoryId: 1 }]) }],
    );
    t.equal(judgedOnce.results[0]?.outcome, 'passed', 'a rule judged in one step and not in another: the case concluded something');
    // A long-lived store: a full page that lacks the pet leaves the case judged by what its other steps judged.
    const judgedBy = { ...full, expect: { status: 200, everyItem: { categoryId: 1 }, holdsIfNotFull: { id: 9 } }, fullPageJudgedBy: 'X' };
    const another = await run([spec([judgedBy])], [{ body: pets(2) }]);
    t.equal(another.results[0]?.outcome, 'passed', 'a full page judged another way: the case is judged');
    t.match(
      another.results[0]?.checks.find((c) => c.id === 'expect.holdsIfNotFull'),
      { outcome: 'not-judged', message: /the case judges the pet by X instead$/ },
      'the listing rule still says it was not judged, and by what the case judged instead',
    );
    const holding = await run(
      [spec([full])],
      [
        {
          body: JSON.stringify([
            { id: 9, name: 'n', categoryId: 1 },
            { id: 3, name: 'm', categoryId: 1 },
          ]),
        },
      ],
    );
    t.equal(holding.results[0]?.outcome, 'passed', 'a full page that holds the pet shows it listed');
    const empty = await run([spec([{ request: list, expect: { status: 200, everyItem: { status: 'sold' } } }])], [{ body: '[]' }]);
    t.match(empty.results[0], { outcome: 'not-judged', reason: 'not judged: the listing is empty: no item to judge' });
  },
);

t.test('a case that needs more pets than the store holds is skipped with the reason, before anything is sent', async (t) => {
  const store = { total: 13, byStatus: new Map([['sold', 3]]), created: 0 };
  const needy = spec([{ request: list, expect: { status: 200, maxItems: 20 } }], {
    requires: { pets: 21, because: 'limit=20 cannot show a cap' },
  });
  const result = await run([needy], [{ body: '[]' }], { store });
  t.match(result.results[0], {
    outcome: 'not-judged',
    skip: 'precondition',
    reason: 'only 13 pets (21 needed): limit=20 cannot show a cap',
  });
  t.equal(result.sent.length, 0);
  const enough = await run(
    [spec([{ request: list, expect: { status: 200 } }], { requires: { pets: 3, status: 'sold', because: 'x' } })],
    [{ body: '[]' }],
    { store },
  );
  t.equal(enough.results[0]?.outcome, 'passed');
});

t.test(
  'the evidence says when each request was sent; a transport failure is timed from its own request, not from the case start',
  async (t) => {
    const script = scriptedClient([{ body: '[]' }, refused()]);
    // The first request takes 60 ms: a duration taken from the case start would include it.
    const slow = {
      send: async (req: OutgoingRequest) =>
        script.sent.length === 0
          ? new Promise((resolve) => setTimeout(resolve, 60)).then(() => script.client.send(req))
          : script.client.send(req),
    };
    const before = Date.now();
    const [result] = await runCases(
      [spec([{ request: list, expect: { status: 200 } }, { request: list }])],
      options(slow as unknown as HttpClient),
    );
    const after = Date.now();
    const [first, second] = result?.exchanges ?? [];
    const at = (startedAt: string | undefined): number => Date.parse(startedAt ?? '');
    t.match(first, { startedAt: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, response: { status: 200 } });
    t.match(second, { error: { code: 'ECONNREFUSED' } });
    t.ok(at(first?.startedAt) >= before && at(second?.startedAt) <= after, 'both within the run');
    t.ok(at(second?.startedAt) - at(first?.startedAt) >= 50, 'the second step started after the first one took its 60 ms');
    t.ok(
      (second?.durationMs ?? Infinity) < 50,
      `the refused request took ${second?.durationMs} ms of its own, not the case's 60 ms and more`,
    );
  },
);

t.test('a case never passes for want of data: none of its checks judged anything (or none ran), it is not judged', async (t) => {
  const rows: Array<[string, StepSpec, CaseOptions, Outcome, RegExp | undefined]> = [
    [
      'no expectation and no exchange check',
      { request: list },
      { exchangeChecks: [] },
      'not-judged',
      /no check judged any of its responses/,
    ],
    [
      'its one expectation found a full page',
      { request: { ...list, query: { limit: 1 } }, expect: { holdsIfNotFull: { name: 'x' } } },
      { exchangeChecks: [] },
      'not-judged',
      /the page is full/,
    ],
    [
      'every check it had disabled',
      { request: list, expect: { status: 200 } },
      { exchangeChecks: [], disabled: new Map([['expect.status', 'off']]) },
      'not-judged',
      /no check judged any of its responses/,
    ],
    ['one check judged it', { request: list, expect: { status: 200 } }, { exchangeChecks: [] }, 'passed', undefined],
  ];
  for (const [name, step, extra, outcome, reason] of rows) {
    const { results } = await run([spec([step])], [{ body: pets(1) }], extra);
    t.equal(results[0]?.outcome, outcome, name);
    if (reason === undefined) t.equal(results[0]?.reason, undefined, `${name}: no reason`);
    else t.match(results[0]?.reason, reason, `${name}: why`);
  }
});
