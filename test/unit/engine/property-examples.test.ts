/**
 * The concurrent example runner (fuzzing and stateful phases) and the bounded map under it: results in the order drawn
 * whatever order they finish in, the seed's examples exactly those fast-check draws, no example started after a
 * failure, and the first failure shrunk one candidate at a time. Fake judges, no network, no timers.
 */
import fc from 'fast-check';
import t from 'tap';
import { drawExamples, type ExampleRunOptions, type ExampleRunResult, runExamples } from '../../../src/engine/property-examples.js';
import { mapConcurrently } from '../../../src/model/concurrency.js';

/** Lets `n` turns of the microtask queue pass: examples finish out of the order they started in. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

/** A judge that records how many examples are under way at once, each finishing after a number of turns its value decides. */
function judge<T>(fails: (example: T) => boolean, delay: (example: T) => number) {
  const state = { inFlight: 0, most: 0, ran: [] as T[], finished: [] as T[] };
  const run = async (example: T): Promise<{ example: T; failed: boolean }> => {
    state.inFlight += 1;
    state.most = Math.max(state.most, state.inFlight);
    state.ran.push(example);
    await turns(delay(example));
    state.inFlight -= 1;
    state.finished.push(example);
    return { example, failed: fails(example) };
  };
  return { state, run };
}

const integers = fc.integer({ min: 0, max: 10_000 });

/** Runs integer examples drawn from `seed` through `run`, a result failing when its `failed` says so. */
function runIntegers<R extends { failed: boolean }>(
  seed: number,
  numRuns: number,
  concurrency: number,
  run: (n: number) => Promise<R>,
  extra: Partial<ExampleRunOptions<number, R>> = {},
): Promise<ExampleRunResult<number, R>> {
  return runExamples({ arbitrary: integers, seed, numRuns, concurrency, run, fails: (r) => r.failed, ...extra });
}

t.test('the examples drawn are those fast-check runs for the seed, the same each time', async (t) => {
  for (const seed of [1, 42, -7]) {
    const checked: number[] = [];
    fc.check(
      fc.property(integers, (n) => {
        checked.push(n);
        return true;
      }),
      { seed, numRuns: 25 },
    );
    t.same(drawExamples(integers, seed, 25), checked, `seed ${seed}: fast-check's own examples`);
    t.same(drawExamples(integers, seed, 25), drawExamples(integers, seed, 25), `seed ${seed}: replayed`);
  }
  t.not(JSON.stringify(drawExamples(integers, 1, 25)), JSON.stringify(drawExamples(integers, 2, 25)), 'another seed, other examples');
});

t.test('results come back in the order drawn, at most `concurrency` under way, whatever order they finish in', async (t) => {
  for (const concurrency of [1, 3, 8]) {
    const { state, run } = judge<number>(
      () => false,
      (n) => n % 7,
    );
    const result = await runIntegers(5, 30, concurrency, run);
    t.same(
      result.results.map((r) => r.example),
      drawExamples(integers, 5, 30),
      `concurrency ${concurrency}: in the order drawn`,
    );
    t.equal(state.most, concurrency, `concurrency ${concurrency}: never more under way`);
    t.equal(result.failure, undefined);
    if (concurrency > 1) t.not(JSON.stringify(state.finished), JSON.stringify(state.ran), 'they did finish out of order');
  }
});

t.test('the first failure in the order drawn is shrunk one candidate at a time to the smallest; none starts after it', async (t) => {
  const fails = (n: number): boolean => n >= 1000;
  const examples = drawExamples(integers, 9, 40);
  const firstFailing = examples.findIndex(fails);
  t.ok(firstFailing > 0, 'the seed draws passing examples before the first failing one');
  const { state, run } = judge(fails, (n) => (fails(n) ? 9 : n % 3));
  let shrinking = false;
  let mostWhileShrinking = 0;
  const result = await runIntegers(
    9,
    40,
    4,
    async (n) => {
      if (shrinking) mostWhileShrinking = Math.max(mostWhileShrinking, state.inFlight + 1);
      return run(n);
    },
    {
      fails: (r) => {
        // The runner asks about results only once the examples side by side are over: then the shrinking begins.
        if (r.failed && state.inFlight === 0) shrinking = true;
        return r.failed;
      },
    },
  );
  t.equal(result.failure?.index, firstFailing, 'the first failing example in the order drawn');
  t.equal(result.failure?.first.example, examples[firstFailing]);
  t.equal(result.failure?.minimal.example, 1000, 'shrunk to the smallest failing value');
  t.equal(result.failure?.minimalExample, 1000);
  t.ok((result.failure?.shrinks ?? 0) > 0, 'by fast-check shrinks');
  t.ok(result.results.length < 40, 'the examples after the failure did not start');
  t.ok(result.results.length <= firstFailing + 4, 'only those already under way finished');
  t.same(
    result.results.map((r) => r.example),
    examples.slice(0, result.results.length),
    'a prefix of the examples, in order',
  );
  t.equal(mostWhileShrinking, 1, 'the shrinking runs one candidate at a time');
  const again = await runIntegers(9, 40, 2, run);
  t.same(
    [again.failure?.index, again.failure?.minimal.example, again.failure?.shrinks],
    [result.failure?.index, 1000, result.failure?.shrinks],
    'the seed replays the same failure and the same shrinking, at another concurrency too',
  );
});

t.test('reuseFailure: the shrinking takes the failing result as it stands instead of sending the example again', async (t) => {
  for (const reuseFailure of [true, false]) {
    const { state, run } = judge<number>(
      (n) => n >= 1000,
      () => 0,
    );
    const result = await runIntegers(9, 40, 4, run, { reuseFailure });
    const first = result.failure?.first.example;
    const sent = state.ran.filter((n) => n === first).length;
    t.equal(sent, reuseFailure ? 1 : 2, `reuseFailure ${reuseFailure}: the failing example sent ${reuseFailure ? 'once' : 'twice'}`);
    t.equal(result.failure?.replays, state.ran.length - result.results.length, 'replays count what the shrinking sent');
  }
});

t.test('halted: no example starts once it says so', async (t) => {
  const { run } = judge<number>(
    () => false,
    () => 1,
  );
  let asked = 0;
  const result = await runIntegers(3, 30, 2, run, { halted: () => ++asked > 5 });
  t.equal(result.results.length, 5, 'the five examples started before it halted');
  t.same(
    result.results.map((r) => r.example),
    drawExamples(integers, 3, 5),
  );
});

t.test('mapConcurrently: results in order; a stop rule leaves the prefix of items started', async (t) => {
  const items = Array.from({ length: 12 }, (_, i) => i);
  const slow = async (i: number): Promise<number> => {
    await turns((i * 5) % 4);
    return i * 10;
  };
  t.same(
    await mapConcurrently(items, 3, slow),
    items.map((i) => i * 10),
    'every item, in order',
  );
  t.same(await mapConcurrently([], 3, slow), [], 'nothing to map');
  const ended = await mapConcurrently(items, 3, slow, { ends: (r) => r === 40 });
  t.same(
    ended,
    items.slice(0, ended.length).map((i) => i * 10),
    'a prefix, in order',
  );
  t.ok(ended.length >= 5 && ended.length <= 7, `no item starts once 40 came back (${ended.length} started)`);
});
