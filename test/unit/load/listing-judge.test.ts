import t from 'tap';
import path from 'node:path';
import {
  addListingJudgements,
  excerptOf,
  type HeldPet,
  JUDGED_FIRST,
  JUDGED_FIRST_BYTES,
  JUDGING_SHARE,
  ListingJudge,
} from '../../../src/load/listing-judge.js';
import { ResponseSampler } from '../../../src/load/sampler.js';
import { loadContract } from '../../../src/loader/contract.js';
import type { ListingInvariant, QueryMix } from '../../../src/model/load.js';
import { root } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));

/** A pet as the store answers it. */
function pet(id: number | string, status = 'available'): string {
  return `{"id":${id},"name":"P${id}","status":"${status}"}`;
}

/** A listing body of these pets. */
function page(...pets: string[]): Buffer {
  return Buffer.from(`[${pets.join(',')}]`);
}

/** Pets 1-3 available and 4 sold, seen before the load and settled at once; pet 5 (pending) settles 500 ms into the load. */
const KNOWN: HeldPet[] = [
  { id: '1', status: 'available', where: 'GET /pets', settlesInMs: 0 },
  { id: '2', status: 'available', where: 'GET /pets', settlesInMs: 0 },
  { id: '3', status: 'available', where: 'POST /pets (case lifecycle.create)', settlesInMs: 0 },
  { id: '4', status: 'sold', where: 'GET /pets', settlesInMs: 0 },
  { id: '5', status: 'pending', where: 'POST /pets (case lifecycle.create)', settlesInMs: 500 },
];
const ALL = [pet(1), pet(2), pet(3), pet(4, 'sold'), pet(5, 'pending')];

interface Row {
  name: string;
  query: QueryMix;
  body: Buffer;
  status?: number;
  /** When the request was sent, ms after the judge was made. */
  sentAt?: number;
  known?: HeldPet[];
  judged: number;
  /** Whether the page was held to some known pet past its window (listing-complete judged). */
  held?: boolean;
  /** Whether it was shorter than its limit. */
  short?: boolean;
  contradictions: Partial<Record<ListingInvariant, number>>;
  message?: RegExp;
}

const ROWS: Row[] = [
  {
    name: 'a short page holding every known pet',
    query: { weight: 1 },
    body: page(...ALL),
    sentAt: 600,
    judged: 1,
    held: true,
    contradictions: {},
  },
  {
    name: 'an empty page while pets are known: the shedding server',
    query: { weight: 1 },
    body: page(),
    sentAt: 600,
    judged: 1,
    contradictions: { complete: 1 },
    message:
      /^a page of 0 for limit 20 lacks 5 pets of any status the run saw before the load: pet 1 \(shown by GET \/pets\), .* and 2 more$/,
  },
  {
    name: 'a status filter need not hold pets of another status',
    query: { weight: 1, status: 'sold', limit: 10 },
    body: page(pet(4, 'sold')),
    judged: 1,
    contradictions: {},
  },
  {
    name: 'a status filter that leaves out a matching pet',
    query: { weight: 1, status: 'available', limit: 10 },
    body: page(pet(1), pet(3)),
    judged: 1,
    contradictions: { complete: 1 },
    message: /lacks 1 pet of status "available" the run saw before the load: pet 2 \(shown by GET \/pets\)$/,
  },
  {
    name: 'a full page may leave out known pets (they may come later)',
    query: { weight: 1, limit: 2 },
    body: page(pet(7), pet(8)),
    judged: 1,
    short: false,
    held: false,
    contradictions: {},
  },
  {
    name: 'a pet still within its consistency window need not show',
    query: { weight: 1, status: 'pending' },
    body: page(),
    sentAt: 499,
    judged: 1,
    short: true,
    held: false,
    contradictions: {},
  },
  {
    name: 'once past its window it must',
    query: { weight: 1, status: 'pending' },
    body: page(),
    sentAt: 500,
    judged: 1,
    held: true,
    contradictions: { complete: 1 },
  },
  {
    name: 'more pets than the limit',
    query: { weight: 1, limit: 2 },
    body: page(pet(1), pet(2), pet(3)),
    judged: 1,
    contradictions: { limit: 1 },
    message: /^3 pets for limit=2: at most 2$/,
  },
  {
    name: 'more than the default without a limit',
    query: { weight: 1 },
    body: page(...Array.from({ length: 21 }, (_, i) => pet(i + 1))),
    judged: 1,
    contradictions: { limit: 1 },
  },
  {
    name: 'a pet of another status under a filter',
    query: { weight: 1, status: 'available', limit: 100 },
    body: page(pet(1), pet(2), pet(3), pet(4, 'sold')),
    judged: 1,
    contradictions: { status: 1 },
    message: /^status="available" answered 1 pet of another status \(first: "sold"\)$/,
  },
  {
    name: 'an id past 2^53 read exactly: present',
    query: { weight: 1 },
    known: [{ id: '9007199254740993', status: 'available', where: 'GET /pets', settlesInMs: 0 }],
    body: page(pet('9007199254740993')),
    judged: 1,
    contradictions: {},
  },
  {
    name: 'an id past 2^53 read exactly: its neighbour is not it',
    query: { weight: 1 },
    known: [{ id: '9007199254740993', status: 'available', where: 'GET /pets', settlesInMs: 0 }],
    body: page(pet('9007199254740992')),
    judged: 1,
    contradictions: { complete: 1 },
  },
  { name: 'no pet known: a short page holds to nothing', query: { weight: 1 }, known: [], body: page(), judged: 1, contradictions: {} },
  { name: 'not JSON: the sample judges it', query: { weight: 1 }, body: Buffer.from('oops'), judged: 0, contradictions: {} },
  { name: 'an object, not an array: the sample judges it', query: { weight: 1 }, body: Buffer.from('{}'), judged: 0, contradictions: {} },
  { name: 'a non-200 answer is not a listing', query: { weight: 1 }, body: page(), status: 503, judged: 0, contradictions: {} },
];

t.test('each listing is held to the store invariants against the pets known before the load', async (t) => {
  for (const row of ROWS) {
    let clock = 10_000;
    const judge = new ListingJudge(
      row.known ?? KNOWN,
      contract,
      (x) => x,
      () => clock,
    );
    clock += row.sentAt ?? 1_000;
    judge.judge('GET /pets', row.query, row.status ?? 200, clock, row.body);
    const result = judge.result();
    t.equal(result.judged, row.judged, `${row.name}: judged`);
    t.same(result.contradictions, { complete: 0, limit: 0, status: 0, ...row.contradictions }, `${row.name}: contradictions`);
    if (row.message !== undefined) t.match(result.evidence[0]?.message, row.message, `${row.name}: message`);
    if (row.held !== undefined) t.equal(result.heldToKnown, row.held ? 1 : 0, `${row.name}: held to a known pet`);
    if (row.short !== undefined) t.equal(result.shortPages, row.short ? 1 : 0, `${row.name}: a short page`);
    const count = Object.values(row.contradictions).reduce((a, b) => a + b, 0);
    t.equal(result.evidence.length, count, `${row.name}: evidence kept for each`);
  }
});

t.test('evidence names the request, status and body, the key redacted; the counts go on past the evidence kept', async (t) => {
  const judge = new ListingJudge(
    KNOWN,
    contract,
    (text) => text.split('s3cr3t').join('[REDACTED]'),
    () => 0,
  );
  for (let i = 0; i < 25; i++) judge.judge('GET /pets?tag=s3cr3t', { weight: 1 }, 200, 1, page(pet(9, 's3cr3t')));
  const result = judge.result();
  t.equal(result.contradictions.complete, 25);
  t.equal(result.evidence.length, 10, 'the first 10 kept');
  t.same(result.evidence[0], {
    invariant: 'complete',
    request: 'GET /pets?tag=[REDACTED]',
    status: 200,
    message: result.evidence[0]?.message,
    bodyExcerpt: '[{"id":9,"name":"P9","status":"[REDACTED]"}]',
  });
  t.notMatch(JSON.stringify(result), /s3cr3t/);
});

/** A clock a test sets (`at`) that moves on by `cost` each time it is read: a judgement that reads it twice costs `cost`. */
class SteppingClock {
  at = 0;
  cost = 0;
  readonly now = (): number => {
    const value = this.at;
    this.at += this.cost;
    return value;
  };
}

t.test('judging keeps to its budget of the stage time (injected clock)', async (t) => {
  const clock = new SteppingClock();
  const judge = new ListingJudge(KNOWN, contract, (x) => x, clock.now);
  for (let i = 1; i < JUDGED_FIRST; i++) judge.wants(200);
  t.ok(judge.wants(200), `the first ${JUDGED_FIRST} listings are judged whatever the budget`);
  clock.cost = 1;
  judge.judge('GET /pets', { weight: 1 }, 200, clock.at, page(...ALL));
  clock.cost = 0;
  t.equal(clock.at, 2, 'the judgement took 1 ms (two reads)');
  t.notOk(judge.wants(200), 'right after it, 1 ms of 2 is over the budget');
  clock.at = 1 / JUDGING_SHARE - 0.001;
  t.notOk(judge.wants(200), 'just short of the time that restores it');
  clock.at = 1 / JUDGING_SHARE;
  t.ok(judge.wants(200), 'once the stage has run 1 / share as long, judged again');
  t.notOk(judge.wants(404), 'a non-200 answer is never kept');
  t.equal(judge.result().answered, JUDGED_FIRST + 3, 'every listing answered 200 counted, judged or not');
  t.equal(judge.result().judged, 1, 'judged: those whose body was judged');

  const free = new ListingJudge(
    KNOWN,
    contract,
    (x) => x,
    () => clock.at,
  );
  let wanted = 0;
  for (let i = 0; i < 3 * JUDGED_FIRST; i++) if (free.wants(200)) wanted += 1;
  t.equal(wanted, 3 * JUDGED_FIRST, 'judging that costs nothing judges every listing');
});

t.test('the first listings are judged whatever the budget only within their bytes: large bodies go to the budget at once', async (t) => {
  const clock = new SteppingClock();
  const judge = new ListingJudge(KNOWN, contract, (x) => x, clock.now);
  // Bodies of 4 MiB, each judgement 10 ms: the first four fill the bytes the first listings may take.
  const large = Buffer.from(`[${pet(1)}${' '.repeat(4 * 1024 * 1024)}]`);
  let judged = 0;
  for (let i = 0; i < 10; i++) {
    if (!judge.wants(200)) continue;
    clock.cost = 5;
    judge.judge('GET /pets', { weight: 1 }, 200, clock.at, large);
    clock.cost = 0;
    judged += 1;
  }
  t.equal(judged, Math.ceil(JUDGED_FIRST_BYTES / large.length), `${judged} of 10 judged: ${JUDGED_FIRST_BYTES} bytes, then the budget`);
  t.ok(judged < JUDGED_FIRST, 'well short of the first hundred');
});

t.test('an excerpt is 600 characters of its own, not a view of the whole body', async (t) => {
  const body = `[${'x'.repeat(1_000_000)}]`;
  const excerpt = excerptOf(body);
  t.equal(excerpt.length, 600);
  t.equal(excerpt, body.slice(0, 600));
  t.equal(excerptOf('[]'), '[]', 'a short body whole');
});

t.test('the judgements of workers and stages add up', async (t) => {
  const a = new ListingJudge(
    KNOWN,
    contract,
    (x) => x,
    () => 0,
  );
  const b = new ListingJudge(
    KNOWN.slice(0, 2),
    contract,
    (x) => x,
    () => 0,
  );
  a.wants(200);
  a.judge('GET /pets', { weight: 1 }, 200, 1, page());
  b.wants(200);
  b.wants(200);
  b.judge('GET /pets', { weight: 1, limit: 1 }, 200, 1, page(pet(1), pet(2)));
  const sum = addListingJudgements([a.result(), undefined, b.result()]);
  t.match(sum, {
    knownPets: 5,
    answered: 3,
    judged: 2,
    shortPages: 1,
    heldToKnown: 1,
    contradictions: { complete: 1, limit: 1, status: 0 },
  });
  t.equal(sum?.evidence.length, 2);
  t.equal(addListingJudgements([undefined]), undefined, 'nothing judged: no judgement');
});

t.test('the sampler holds listings to the known pets with their status and window, unless switched off', async (t) => {
  let clock = 0;
  const known = [
    ['1', { fields: pet(1), where: 'GET /pets', status: 'available' }],
    ['5', { fields: pet(5, 'pending'), where: 'GET /pets', status: 'pending', settlesInMs: 100 }],
  ] as const;
  const sampler = new ResponseSampler(
    { first: 0, every: 0, known },
    contract,
    (x) => x,
    () => clock,
  );
  clock = 50;
  sampler.listings?.judge('GET /pets', { weight: 1, status: 'pending' }, 200, clock, page());
  clock = 150;
  sampler.listings?.judge('GET /pets', { weight: 1, status: 'pending' }, 200, clock, page());
  sampler.listings?.judge('GET /pets', { weight: 1, status: 'available' }, 200, clock, page(pet(1)));
  t.match(
    sampler.listingJudgement(),
    { knownPets: 2, judged: 3, heldToKnown: 2, contradictions: { complete: 1 } },
    'pet 5 missed only once settled: the first page was held to no pet',
  );
  const off = new ResponseSampler({ first: 0, every: 0, known, judgeListings: false }, contract, (x) => x);
  t.equal(off.listings, undefined);
  t.equal(off.listingJudgement(), undefined);
});
