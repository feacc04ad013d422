/**
 * The fuzzing and stateful phases as units, over a fake sender (no server, no socket): what they send, how a failing
 * answer becomes a failed case with its evidence and its shrunk counterexample, and a seed giving the same requests.
 */
import t from 'tap';
import type { Phase } from '../../../src/engine/phase.js';
import { FUZZ_PHASE } from '../../../src/engine/phases/fuzz.js';
import { STATEFUL_PHASE } from '../../../src/engine/phases/stateful.js';
import type { OutgoingRequest } from '../../../src/http/sender.js';
import type { CaseResult } from '../../../src/model/results.js';
import { phaseContext, type CaseOptions } from '../../case-context.js';
import { contract } from '../../check-fixtures.js';
import { storeSender, tableSender, type FakeSender } from '../../fake-sender.js';

/** The results a phase reports over `fake`, with a few examples and a fixed seed unless told otherwise. */
async function run(phase: Phase, fake: FakeSender, options: CaseOptions = {}): Promise<CaseResult[]> {
  const { results } = await phase.run(phaseContext(fake.sender, contract, { seed: 7, maxExamples: 12, ...options }));
  return results;
}

/** What a request is, as a line: its method, its target and its body. */
function line(request: OutgoingRequest): string {
  const body = request.body ?? JSON.stringify(request.json ?? null);
  return `${request.method} ${request.path}?${new URLSearchParams(request.query).toString()} ${body}`;
}

/** A listing by status that shows a pet of another status: the filter is not applied. */
function ignoresStatus(): FakeSender {
  return storeSender((request, response) => {
    const status = request.query.find(([name]) => name === 'status')?.[1];
    if (request.operation !== 'listPets' || response.status !== 200 || status === undefined) return response;
    const other = status === 'sold' ? 'available' : 'sold';
    return { ...response, body: `[{"id":1,"name":"a","categoryId":1,"status":"${other}"}]` };
  });
}

t.test('fuzz: over a store that keeps the contract, each property passes, naming its examples and its seed', async (t) => {
  const fake = storeSender();
  const results = await run(FUZZ_PHASE, fake);
  t.same(
    results.map((r) => [r.id, r.outcome]),
    [
      ['fuzz.listPets.query', 'passed'],
      ['fuzz.createPet.body', 'passed'],
    ],
  );
  t.match(results[0]?.checks[0]?.message, /^\d+ generated examples kept the contract \(seed 7\)/);
  t.ok(
    fake.sent.some((r) => r.operation === 'listPets' && r.method === 'GET'),
    'it sends listings',
  );
  t.ok(
    fake.sent.some((r) => r.operation === 'createPet' && r.method === 'POST'),
    'and creates',
  );
});

t.test('fuzz: a failing answer is a failed case, its counterexample shrunk, with the exchange as evidence', async (t) => {
  const results = await run(FUZZ_PHASE, ignoresStatus());
  const listing = results.find((r) => r.id === 'fuzz.listPets.query');
  t.equal(listing?.outcome, 'failed');
  t.match(listing?.reason, /^minimal failing example after \d+ shrinks of \d+ requests \(seed 7; --seed 7 replays it\): /);
  t.equal(listing?.exchanges.length, 1, 'the minimal example, one exchange');
  t.match(listing?.exchanges[0], { request: { method: 'GET' }, response: { status: 200 } });
  t.match(listing?.exchanges[0]?.request.url, /\/v1\/pets(\?|$)/, 'the counterexample is a listing');
  t.ok(
    listing?.checks.some((c) => c.outcome === 'failed'),
    'a failed check says what was wrong',
  );
  t.equal(results.find((r) => r.id === 'fuzz.createPet.body')?.outcome, 'passed', 'the other property is judged alone');
});

t.test('fuzz: an invalid body taken is a failure that says which field made it invalid, and how', async (t) => {
  // A store that creates whatever it is sent: every invalid body is answered 201 with what was sent.
  const lenient = storeSender((request, response) =>
    request.method === 'POST' && response.status === 400
      ? { ...response, status: 201, body: JSON.stringify({ id: 99, ...(request.json as object) }) }
      : response,
  );
  const results = await run(FUZZ_PHASE, lenient, { maxExamples: 30 });
  const create = results.find((r) => r.id === 'fuzz.createPet.body');
  t.equal(create?.outcome, 'failed');
  t.match(
    create?.reason,
    /\): the body is invalid because (name|categoryId|status) (\(required\) is missing|is (a|an|null) [^;]*); /,
    'the reason names the field and what is wrong with it, before what the server answered',
  );
});

t.test('fuzz and stateful: a seed gives the same requests; another seed other ones', async (t) => {
  for (const phase of [FUZZ_PHASE, STATEFUL_PHASE]) {
    const [a, b, c] = [storeSender(), storeSender(), storeSender()];
    await run(phase, a, { seed: 11 });
    await run(phase, b, { seed: 11 });
    await run(phase, c, { seed: 12 });
    t.ok(a.sent.length > 0, `${phase.id}: it sends`);
    t.same(a.sent.map(line), b.sent.map(line), `${phase.id}: the same seed, the same requests`);
    t.not(a.sent.map(line).join('\n'), c.sent.map(line).join('\n'), `${phase.id}: another seed, other requests`);
  }
});

t.test('fuzz: read-only judges the listings and sends no write; what is disabled is not sent', async (t) => {
  const fake = storeSender();
  const results = await run(FUZZ_PHASE, fake, { readOnly: true });
  t.match(
    results.find((r) => r.id === 'fuzz.createPet.body'),
    { outcome: 'not-judged', skip: 'read-only' },
  );
  t.equal(results.find((r) => r.id === 'fuzz.listPets.query')?.outcome, 'passed');
  t.notOk(
    fake.sent.some((r) => r.method === 'POST'),
    'no POST',
  );
  const off = storeSender();
  const disabled = await run(FUZZ_PHASE, off, { disabled: new Map([['fuzz.listPets.query', 'flaky listing']]) });
  t.match(
    disabled.find((r) => r.id === 'fuzz.listPets.query'),
    { outcome: 'not-judged', skip: 'disabled' },
  );
  t.notOk(
    off.sent.some((r) => r.operation === 'listPets'),
    'no listing sent',
  );
});

t.test('stateful: sequences over a store that keeps the contract agree with the model', async (t) => {
  const fake = storeSender();
  const [result] = await run(STATEFUL_PHASE, fake);
  t.equal(result?.outcome, 'passed');
  t.match(
    result?.checks[0]?.message,
    /^4 sequences \(\d+ requests\) agreed with the model \(seed 7\)$/,
    'a third as many sequences as examples',
  );
  t.ok(
    fake.sent.some((r) => r.operation === 'createPet'),
    'it creates',
  );
});

t.test('stateful: --sequence-length bounds the requests of each sequence', async (t) => {
  for (const sequenceLength of [1, 3]) {
    const fake = storeSender();
    const [result] = await run(STATEFUL_PHASE, fake, { sequenceLength });
    t.equal(result?.outcome, 'passed', `at most ${sequenceLength}`);
    t.ok(fake.sent.length <= 4 * sequenceLength, `4 sequences of at most ${sequenceLength}: ${fake.sent.length} requests`);
  }
  t.equal(STATEFUL_PHASE.writes?.(phaseContext(storeSender().sender, contract, { sequenceLength: 5 }).plan), 20, 'its writes bound');
});

t.test('stateful: a store that forgets what it created fails, with the shortest failing sequence step by step', async (t) => {
  // Every pet read by its id is gone: a created pet no longer reads back.
  const forgets = storeSender((request, response) =>
    request.operation === 'getPet'
      ? { status: 404, headers: { 'content-type': 'application/json' }, body: '{"code":"not_found","message":"no such pet","status":404}' }
      : response,
  );
  const [result] = await run(STATEFUL_PHASE, forgets);
  t.equal(result?.outcome, 'failed');
  t.match(result?.reason, /^shortest failing sequence after \d+ shrinks \(seed 7; --seed 7 replays it\): /);
  t.ok((result?.exchanges.length ?? 0) >= 2, 'the evidence holds the create and the read that failed');
  t.match(result?.exchanges.at(-1), { request: { method: 'GET' }, response: { status: 404 } });
  t.same(
    result?.exchanges.map((e) => e.step),
    result?.exchanges.map((_, i) => i),
    'numbered in order',
  );
});

t.test('stateful: a table that answers every request 500 fails at the first step', async (t) => {
  const down = tableSender(() => ({ status: 500, body: '{"code":"x","message":"down","status":500}' }));
  const [result] = await run(STATEFUL_PHASE, down);
  t.equal(result?.outcome, 'failed');
  t.equal(result?.exchanges.length, 1, 'shrunk to one request');
  t.match(result?.exchanges[0], { response: { status: 500 } });
});

t.test('fuzz never passes for want of data: with no example drawn, each property is not judged, with why', async (t) => {
  const results = await run(FUZZ_PHASE, storeSender(), { maxExamples: 0 });
  t.ok(results.length > 0, 'its properties are reported');
  for (const result of results) {
    t.equal(result.outcome, 'not-judged', `${result.id}: not judged`);
    t.match(result.reason, /no generated example was sent \(seed 7\)/, `${result.id}: why`);
  }
});
