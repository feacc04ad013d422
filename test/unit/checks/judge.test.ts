/**
 * The one judge: an exchange against the store model as it was before it, a request that got no answer, blame once as a
 * step of judging, a ramp's stage by the profile; and the model's view before an exchange, table-driven.
 */
import t from 'tap';
import { BlameLedger, decided, judgeExchange, judgeTransport } from '../../../src/checks/judge.js';
import type { CheckOutcome } from '../../../src/model/results.js';
import { StoreModel } from '../../../src/model/store-model.js';
import { contract, exchange } from '../../check-fixtures.js';

const pet = (id: number, name = `Pet ${id}`) => `{"id":${id},"name":${JSON.stringify(name)},"categoryId":1,"status":"sold"}`;
const noExpectations = { step: {}, index: 0, level: 'fail' as const, vars: new Map() };

t.test('the model before an exchange: what it was told before, never the exchange itself', (t) => {
  let now = 0;
  const model = new StoreModel({ windowMs: 0, now: () => now, runId: 'pc-run' });
  const first = exchange({ target: '/pets/1', operation: 'getPet', body: pet(1) });
  const changed = exchange({ target: '/pets/1', operation: 'getPet', body: pet(1, 'other') });
  const created = exchange({ method: 'POST', target: '/pets', operation: 'createPet', status: 201, body: pet(2, 'pc-run a') });
  const failedRead = exchange({ target: '/pets/3', operation: 'getPet', status: 500, body: '{}' });
  for (const seen of [first, changed, created, failedRead]) {
    now += 1000;
    model.observe(seen, 'earlier');
  }
  const rows: Array<[string, () => unknown, unknown]> = [
    ['a pet is unknown before the exchange that first showed it', () => model.before(first).pet('1'), undefined],
    ['and known after it', () => model.before(changed).pet('1')?.where, 'GET /pets/1 (earlier)'],
    [
      'a change is not reported before the exchange that showed it',
      () => model.before(changed).changeReported('1', { id: 1, name: 'other', categoryId: 1, status: 'sold' }),
      false,
    ],
    ['and is after it', () => model.before(created).changeReported('1', { id: 1, name: 'other', categoryId: 1, status: 'sold' }), true],
    ['a created pet is unclaimed before its create', () => model.before(created).unclaimedPets([{ id: 2, name: 'pc-run a' }]).length, 1],
    ['and claimed after it', () => model.before(failedRead).unclaimedPets([{ id: 2, name: 'pc-run a' }]).length, 0],
    ['reads have not failed before the first failed read', () => model.before(failedRead).readsFailedAfter(), undefined],
    ['they have after it', () => model.readsFailedAfter()?.read.where, 'GET /pets/3 (earlier), answered 500'],
    ['an exchange never told of sees the whole model', () => [...model.before(exchange()).pets()].length, 2],
  ];
  for (const [name, value, expected] of rows) t.same(value(), expected, name);
  model.unanswered({ ...created.request });
  t.equal(model.before(failedRead).unansweredWrites, 0, 'a create unanswered after an exchange is not before it');
  t.equal(model.unansweredWrites, 1);
  t.end();
});

t.test('an exchange is judged against the model before it: a pet it shows first is no change of itself', (t) => {
  let now = 0;
  const model = new StoreModel({ windowMs: 0, now: () => now });
  const read = exchange({ target: '/pets/1', operation: 'getPet', body: pet(1) });
  const other = exchange({ target: '/pets/1', operation: 'getPet', body: pet(1, 'other') });
  now += 1000;
  model.observe(read);
  now += 1000;
  model.observe(other);
  const outcome = (judged: CheckOutcome[], id: string) => judged.find((c) => c.id === id)?.outcome;
  const judging = { contract, disabled: new Map<string, string>(), model };
  t.equal(
    outcome(judgeExchange(read, noExpectations, judging).checks, 'store.reads-back-same'),
    undefined,
    'the first read has nothing to read back',
  );
  t.equal(
    outcome(judgeExchange(other, noExpectations, judging).checks, 'store.reads-back-same'),
    'failed',
    'the second is held to the first',
  );
  const disabled = { ...judging, disabled: new Map([['store.reads-back-same', 'test']]) };
  t.equal(
    outcome(judgeExchange(other, noExpectations, disabled).checks, 'store.reads-back-same'),
    undefined,
    'a disabled check judges nothing',
  );
  const declared = judgeExchange(other, { ...noExpectations, step: { expect: { status: 404 } } }, judging);
  t.same(decided(declared.checks).outcome, 'failed', "the step's own expectation judges it too");
  t.end();
});

t.test('a request without an answer: a failure when the server answered others meanwhile, else it could not be tested', (t) => {
  const failure = {
    message: 'no answer',
    code: 'UND_ERR_HEADERS_TIMEOUT',
    timedOut: true,
    answeredMeanwhile: 0,
    closedTwice: false,
    beforeResponse: true,
  };
  const rows: Array<[string, typeof failure, ReadonlyMap<string, string>, string[]]> = [
    ['timed out, nothing else answered', failure, new Map(), ['could-not-test']],
    ['timed out while others were answered', { ...failure, answeredMeanwhile: 2 }, new Map(), ['failed']],
    [
      'cut short after the answer began, others answered',
      { ...failure, timedOut: false, beforeResponse: false, answeredMeanwhile: 1 },
      new Map(),
      ['failed'],
    ],
    ['the check disabled', { ...failure, answeredMeanwhile: 2 }, new Map([['server.answers', 'test']]), []],
  ];
  for (const [name, given, disabled, expected] of rows)
    t.same(
      judgeTransport(given, 3, disabled).map((c) => c.outcome),
      expected,
      name,
    );
  t.end();
});

t.test('blame once: a pet with a wrong value fails the first response that shows it, by the schema; later ones refer to it', (t) => {
  const ledger = new BlameLedger();
  const bad = '{"id":7,"name":"Rex","categoryId":9223372036854775808,"status":"sold"}';
  const failing = (pointer: string): CheckOutcome => ({
    id: 'contract.response-schema',
    level: 'fail',
    outcome: 'failed',
    step: 0,
    message: 'the body is not a valid Pets',
    failures: [{ message: 'must be <= 9223372036854775807', pointer, schemaPath: '#/properties/categoryId/maximum' }],
  });
  const first = exchange({ target: '/pets?limit=5', body: `[${pet(1)},${bad}]` });
  t.same(
    ledger.blameOnce(first, [failing('/1/categoryId')], 'case listPets.ok').map((c) => c.outcome),
    ['failed'],
    'the first fails',
  );
  const again = exchange({ target: '/pets?status=sold', body: `[${bad}]` });
  const [referred] = ledger.blameOnce(again, [failing('/0/categoryId')], 'case filters');
  t.equal(referred?.outcome, 'passed', 'a later listing holding the same wrong value refers to it');
  t.equal(referred?.message, 'the same wrong value of pet 7 was reported at GET /pets?limit=5 (case listPets.ok)');
  t.notOk(referred?.failures);
  const read = exchange({ target: '/pets/7', operation: 'getPet', body: bad });
  t.equal(ledger.blameOnce(read, [failing('/categoryId')], 'case read')[0]?.outcome, 'passed', 'and so does a read of it');
  const other = exchange({ target: '/pets/7', operation: 'getPet', body: bad.replace('Rex', 'Max') });
  t.equal(ledger.blameOnce(other, [failing('/categoryId')], 'case read')[0]?.outcome, 'failed', 'another value is blamed anew');
  const noPointer: CheckOutcome = { ...failing(''), failures: [{ message: 'must be array', pointer: '', schemaPath: '#/type' }] };
  t.equal(ledger.blameOnce(again, [noPointer], 'x')[0]?.outcome, 'failed', 'a failure outside the pets is its own');
  const notSchema: CheckOutcome = { ...failing('/0/categoryId'), failures: [{ message: 'expected 1', pointer: '/0/categoryId' }] };
  t.equal(ledger.blameOnce(again, [notSchema], 'x')[0]?.outcome, 'failed', 'only what the schema found is blamed once');
  t.end();
});
