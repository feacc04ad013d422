/** The store invariants, each judged on exchanges against a model of what the run has seen: table-driven, in milliseconds. */
import t from 'tap';
import { INVARIANT_CHECKS, requestedId } from '../../../src/checks/invariants.js';
import type { ExchangeCheck } from '../../../src/model/check.js';
import type { Exchange } from '../../../src/model/exchange.js';
import { StoreModel } from '../../../src/model/store-model.js';
import { contract, exchange, type ExchangeSpec } from '../../check-fixtures.js';

function check(id: string): ExchangeCheck {
  const found = INVARIANT_CHECKS.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no invariant ${id}`);
  return found;
}

const pet = (id: number | string, status = 'available', name = `Pet ${id}`) =>
  `{"id":${id},"name":${JSON.stringify(name)},"categoryId":1,"status":${JSON.stringify(status)}}`;
const list = (...items: string[]) => `[${items.join(',')}]`;

/** A model on a clock the test moves: each exchange observed one second after the one before, judged after the window. */
function modelOf(seen: ExchangeSpec[], windowMs = 2000): { model: StoreModel; tick: () => void } {
  let now = 0;
  const model = new StoreModel({ windowMs, now: () => now });
  for (const spec of seen) {
    now += 1000;
    model.observe(exchange(spec), 'earlier');
  }
  // Past the consistency window: every pet seen must show.
  now += windowMs + 1000;
  return { model, tick: () => (now += 1000) };
}

/** The outcome a check gives an exchange: 'n/a' when it does not apply. */
function judge(id: string, spec: ExchangeSpec, model?: StoreModel): { outcome: string; message: string } {
  const c = check(id);
  const context = { exchange: exchange(spec) as Exchange, contract, declared: {}, ...(model === undefined ? {} : { model }) };
  if (!c.applies(context)) return { outcome: 'n/a', message: '' };
  const judgement = c.evaluate(context);
  return { outcome: judgement.outcome, message: judgement.message };
}

const seeded: ExchangeSpec[] = [
  { target: '/pets?limit=100', body: list(pet(1), pet(2, 'sold'), pet(3, 'pending')) },
  { method: 'POST', target: '/pets', operation: 'createPet', status: 201, body: pet(10, 'sold', 'made') },
];

const cases: Array<{ name: string; check: string; spec: ExchangeSpec; seen?: ExchangeSpec[]; want: string; message?: RegExp }> = [
  // Exact status filters.
  {
    name: 'status exact',
    check: 'store.listing-status',
    spec: { target: '/pets?status=sold', body: list(pet(2, 'sold')) },
    want: 'passed',
  },
  {
    name: 'status by prefix',
    check: 'store.listing-status',
    spec: { target: '/pets?status=avail', body: list(pet(1)) },
    want: 'failed',
    message: /status="avail" answered 1 pet of another status/,
  },
  {
    name: 'status in another case',
    check: 'store.listing-status',
    spec: { target: '/pets?status=Sold', body: list(pet(2, 'sold')) },
    want: 'failed',
  },
  { name: 'unknown status, empty page', check: 'store.listing-status', spec: { target: '/pets?status=avail', body: '[]' }, want: 'passed' },
  {
    name: 'repeated status: silent',
    check: 'store.listing-status',
    spec: { target: '/pets?status=sold&status=pending', body: list(pet(1)) },
    want: 'n/a',
  },
  { name: 'no status', check: 'store.listing-status', spec: { target: '/pets', body: list(pet(1)) }, want: 'n/a' },
  // The reading: an empty query value may be read as the parameter's absence, or as a value that matches no pet.
  {
    name: 'empty status read as no filter',
    check: 'store.listing-status',
    spec: { target: '/pets?status=', body: list(pet(1), pet(2, 'sold')) },
    want: 'passed',
    message: /read as no filter or as a status no pet has/,
  },
  { name: 'empty status, empty page', check: 'store.listing-status', spec: { target: '/pets?status=', body: '[]' }, want: 'passed' },
  // Page sizes.
  {
    name: 'default page of 21',
    check: 'store.listing-limit',
    spec: { target: '/pets', body: list(...Array.from({ length: 21 }, (_, i) => pet(i + 1))) },
    want: 'failed',
  },
  {
    name: 'limit=1 holding 2',
    check: 'store.listing-limit',
    spec: { target: '/pets?limit=1', body: list(pet(1), pet(2)) },
    want: 'failed',
  },
  {
    name: 'limit=2 holding 2',
    check: 'store.listing-limit',
    spec: { target: '/pets?limit=2', body: list(pet(1), pet(2)) },
    want: 'passed',
  },
  {
    name: 'limit=500 accepted with 101',
    check: 'store.listing-limit',
    spec: { target: '/pets?limit=500', body: list(...Array.from({ length: 101 }, (_, i) => pet(i + 1))) },
    want: 'failed',
    message: /101 pets for limit=500 \(accepted: at most 100\)/,
  },
  // A page that is not full holds every matching pet seen.
  {
    name: 'limit=1 answered []',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?limit=1', body: '[]' },
    want: 'failed',
    message: /lacks 4 matching pets/,
  },
  {
    name: 'a full page is not judged',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?limit=1', body: list(pet(3, 'pending')) },
    want: 'n/a',
  },
  {
    name: 'sold page complete',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?status=sold', body: list(pet(2, 'sold'), pet(10, 'sold', 'made')) },
    want: 'passed',
  },
  {
    name: 'sold page lacking a listed pet',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?status=sold', body: list(pet(10, 'sold', 'made')) },
    want: 'failed',
    message: /first: pet 2, shown by GET \/pets\?limit=100 \(earlier\)/,
  },
  {
    name: 'empty status read as no filter: every pet seen',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?status=', body: list(pet(1), pet(2, 'sold'), pet(3, 'pending'), pet(10, 'sold', 'made')) },
    want: 'passed',
  },
  {
    name: 'empty status read as no filter: a pet seen is missing',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?status=', body: list(pet(1), pet(2, 'sold')) },
    want: 'failed',
    message: /lacks 2 matching pets/,
  },
  {
    name: 'empty status read as a status no pet has',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?status=', body: '[]' },
    want: 'passed',
  },
  {
    name: 'unknown status matches no pet',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?status=avail', body: '[]' },
    want: 'passed',
  },
  {
    name: 'an out-of-range limit is not judged',
    check: 'store.listing-complete',
    seen: seeded,
    spec: { target: '/pets?limit=0', body: '[]' },
    want: 'n/a',
  },
  // getPet carries the pet asked for.
  { name: 'getPet 1', check: 'store.get-requested-pet', spec: { target: '/pets/1', operation: 'getPet', body: pet(1) }, want: 'passed' },
  {
    name: 'getPet 01 names pet 1',
    check: 'store.get-requested-pet',
    spec: { target: '/pets/01', operation: 'getPet', body: pet(1) },
    want: 'passed',
  },
  {
    name: 'getPet 1.0 names pet 1',
    check: 'store.get-requested-pet',
    spec: { target: '/pets/1.0', operation: 'getPet', body: pet(1) },
    want: 'passed',
  },
  {
    name: 'getPet 2 answered pet 1',
    check: 'store.get-requested-pet',
    spec: { target: '/pets/2', operation: 'getPet', body: pet(1) },
    want: 'failed',
    message: /GET of pet 2 answered pet 1/,
  },
  ...['1abc', '1.5', '1_0', '0x1', '%D9%A3', '%EF%BC%91', '18446744073709551617'].map((id) => ({
    name: `getPet ${id} answered with a pet`,
    check: 'store.get-requested-pet',
    spec: { target: `/pets/${id}`, operation: 'getPet' as const, body: pet(1) },
    want: 'failed',
    message: /is no int64, and was answered 200/,
  })),
  {
    name: 'getPet above 2^53, exact',
    check: 'store.get-requested-pet',
    spec: { target: '/pets/9007199254740993', operation: 'getPet', body: pet('9007199254740993') },
    want: 'passed',
  },
  {
    name: 'getPet above 2^53, rounded',
    check: 'store.get-requested-pet',
    spec: { target: '/pets/9007199254740993', operation: 'getPet', body: pet('9007199254740992') },
    want: 'failed',
  },
  // Ids handed out once.
  {
    name: 'a new id',
    check: 'store.unique-ids',
    seen: seeded,
    spec: { method: 'POST', operation: 'createPet', status: 201, body: pet(11, 'sold', 'made') },
    want: 'n/a',
  },
  {
    name: 'a second create given the same id',
    check: 'store.unique-ids',
    seen: seeded,
    spec: { method: 'POST', operation: 'createPet', status: 201, body: pet(10, 'sold', 'made') },
    want: 'failed',
    message: /already showed/,
  },
  {
    name: 'a create given the id of a listed pet',
    check: 'store.unique-ids',
    seen: seeded,
    spec: { method: 'POST', operation: 'createPet', status: 201, body: pet(1, 'sold', 'new') },
    want: 'failed',
  },
  // Pets read back the same.
  {
    name: 'same pet read',
    check: 'store.reads-back-same',
    seen: seeded,
    spec: { target: '/pets/1', operation: 'getPet', body: pet(1) },
    want: 'passed',
  },
  {
    name: 'a pet replaced',
    check: 'store.reads-back-same',
    seen: seeded,
    spec: { target: '/pets/1', operation: 'getPet', body: pet(1, 'available', 'other') },
    want: 'failed',
    message: /pet 1 was .*Pet 1.* in GET \/pets\?limit=100 \(earlier\); here it is .*other/,
  },
  {
    name: 'a listing of changed pets',
    check: 'store.reads-back-same',
    seen: seeded,
    spec: { target: '/pets', body: list(pet(2, 'pending')) },
    want: 'failed',
  },
  {
    name: 'a pet never seen',
    check: 'store.reads-back-same',
    seen: seeded,
    spec: { target: '/pets/99', operation: 'getPet', body: pet(99) },
    want: 'n/a',
  },
];

for (const c of cases) {
  t.test(`${c.check}: ${c.name}`, (t) => {
    const model = modelOf(c.seen ?? []).model;
    const { outcome, message } = judge(c.check, c.spec, model);
    t.equal(outcome, c.want, message);
    if (c.message !== undefined) t.match(message, c.message);
    t.end();
  });
}

t.test('a pet need not show before the consistency window has passed since it was first seen, created or listed', (t) => {
  const created: ExchangeSpec = { method: 'POST', target: '/pets', operation: 'createPet', status: 201, body: pet(10, 'sold', 'made') };
  let now = 0;
  const model = new StoreModel({ windowMs: 2000, now: () => now });
  now = 1000;
  model.observe(exchange(created));
  now = 2500;
  const page = { target: '/pets?status=sold', body: '[]' };
  t.equal(judge('store.listing-complete', page, model).outcome, 'passed', 'within the consistency window');
  now = 3500;
  t.equal(judge('store.listing-complete', page, model).outcome, 'failed', 'after it');
  now = 3600;
  model.observe(exchange({ target: '/pets?limit=100', body: list(pet(2, 'sold')) }));
  now = 3610;
  t.match(judge('store.listing-complete', page, model).message, /lacks 1 matching pet /, 'a pet another client may just have created');
  now = 5610;
  t.match(judge('store.listing-complete', page, model).message, /lacks 2 matching pets/, 'past the window, a listed pet counts too');
  t.end();
});

t.test('blame once: a changed pet fails the first response that shows it; later ones with the same value refer to it', (t) => {
  const { model } = modelOf(seeded);
  const changed = { target: '/pets/1', operation: 'getPet' as const, body: pet(1, 'available', 'other') };
  t.equal(judge('store.reads-back-same', changed, model).outcome, 'failed');
  model.observe(exchange(changed));
  t.equal(judge('store.reads-back-same', changed, model).outcome, 'passed', 'the same change again');
  t.equal(judge('store.reads-back-same', { ...changed, body: pet(1, 'sold') }, model).outcome, 'failed', 'another change');
  t.end();
});

t.test('requestedId: decimal int64 only', (t) => {
  const table: Array<[string, string | undefined]> = [
    ['/pets/1', '1'],
    ['/pets/+1', '1'],
    ['/pets/%2B1', '1'],
    ['/pets/01', '1'],
    ['/pets/1.0', '1'],
    ['/pets/-5', '-5'],
    ['/pets/9223372036854775807', '9223372036854775807'],
    ['/pets/-9223372036854775808', '-9223372036854775808'],
    ['/pets/9223372036854775808', undefined],
    ['/pets/1e3', undefined],
    ['/pets/%E0%A5%A7', undefined],
    ['/pets/%ZZ', undefined],
    ['/pets/', undefined],
    ['/pets/7?x=1', '7'],
    // The path's structure (the request space): dot segments resolved, a trailing slash read as the same path.
    ['/pets/1/', '1'],
    ['/pets/./1', '1'],
    ['/pets/x/../1', '1'],
    ['/pets/%2E/1', '1'],
    ['/pets//1', '1'],
    ['/pets/1.json', undefined],
    ['/pets/1;v=1', undefined],
  ];
  for (const [target, want] of table) t.equal(requestedId(target), want, target);
  t.end();
});

/** A create of the run, its body naming `name`, answered `status` (and a pet with `id` when it is 201). */
function createExchange(name: string, status: number, id?: number): Exchange {
  const made = exchange({
    method: 'POST',
    target: '/pets',
    operation: 'createPet',
    status,
    body: id === undefined ? '{}' : pet(id, 'sold', name),
  });
  made.request.json = { name, categoryId: 1, status: 'sold' };
  return made;
}

t.test('store.refused-create-stored-nothing: a pet only a refused create could have made', (t) => {
  const shown = (name: string) => ({ target: '/pets?status=sold&limit=100', body: list(pet(40, 'sold', name)) });
  const rows: Array<{ name: string; seen: Exchange[]; underWay?: string; spec: ExchangeSpec; want: string }> = [
    { name: 'no create refused: nothing to judge', seen: [], spec: shown('x refused'), want: 'n/a' },
    { name: 'refused with 401, then listed', seen: [createExchange('x refused', 401)], spec: shown('x refused'), want: 'failed' },
    { name: 'refused with 400, then listed', seen: [createExchange('x refused', 400)], spec: shown('x refused'), want: 'failed' },
    {
      name: 'a page that is not full and shows none',
      seen: [createExchange('x refused', 401)],
      spec: { target: '/pets?status=sold&limit=100', body: list(pet(41, 'sold', 'other')) },
      want: 'passed',
    },
    {
      name: 'a full page that shows none: nothing to judge',
      seen: [createExchange('x refused', 401)],
      spec: { target: '/pets?status=sold&limit=1', body: list(pet(41, 'sold', 'other')) },
      want: 'n/a',
    },
    {
      name: 'the same name was also created with 201',
      seen: [createExchange('x both', 401), createExchange('x both', 201, 39)],
      spec: shown('x both'),
      want: 'passed',
    },
    {
      name: 'a create with the same name is still under way',
      seen: [createExchange('x busy', 401)],
      underWay: 'x busy',
      spec: shown('x busy'),
      want: 'passed',
    },
    {
      name: 'the pet a 201 handed out',
      seen: [createExchange('x kept', 401), createExchange('y', 201, 40)],
      spec: shown('x kept'),
      want: 'passed',
    },
  ];
  for (const row of rows) {
    const model = new StoreModel({ windowMs: 0, now: () => 0 });
    for (const seen of row.seen) model.observe(seen);
    if (row.underWay !== undefined) model.sending({ operation: 'createPet', json: { name: row.underWay } });
    t.equal(judge('store.refused-create-stored-nothing', row.spec, model).outcome, row.want, row.name);
  }
  t.end();
});
