/**
 * Property examples run side by side. fast-check's asyncProperty runs one example at a time; here the examples are drawn
 * up front from the seed (exactly those fast-check would draw), sent --concurrency at a time, and their results kept in
 * the order drawn. The first example that fails (in that order) is then shrunk by fast-check itself, one candidate at a
 * time, replayed from the seed and its place in the sequence (fast-check's `path`).
 */
import fc from 'fast-check';
import { mapConcurrently } from '../model/concurrency.js';

/** What to draw, how many at once, and how to judge each example. */
export interface ExampleRunOptions<T, R> {
  arbitrary: fc.Arbitrary<T>;
  seed: number;
  /** How many examples to draw. */
  numRuns: number;
  /** How many examples are under way at once. */
  concurrency: number;
  /** Sends and judges one example; it must not throw (what goes wrong is in its result). */
  run(example: T): Promise<R>;
  /** Whether a result breaks the property: no further example starts, and the first such one is shrunk. */
  fails(result: R): boolean;
  /** Asked before each example starts: true starts no more (besides TIME_LIMIT_MS). */
  halted?(): boolean;
  /**
   * The shrinking takes the failing example's result as it stands instead of sending it again (an example whose
   * arbitrary needs it run to shrink, as fast-check's commands do, is sent again).
   */
  reuseFailure?: boolean;
}

/** The examples' results, in the order drawn, and the failure shrunk when one failed. */
export interface ExampleRunResult<T, R> {
  /** The results of the examples that started, in the order drawn: a prefix of the examples. */
  results: R[];
  /** The examples drawn, in order (as many as numRuns). */
  examples: T[];
  /**
   * The first failing example (its place in the order drawn), and the smallest failing one shrinking found from it;
   * `replays`: the examples the shrinking ran.
   */
  failure?: { index: number; first: R; minimal: R; minimalExample: T; shrinks: number; replays: number };
}

/**
 * How long a property may run: no example starts after it, and the shrinking stops there (fast-check's
 * interruptAfterTimeLimit), so that a slow server still ends the phase.
 */
const TIME_LIMIT_MS = 120_000;

/** The examples fast-check draws for `arbitrary` from `seed`, in its order (the same as `fc.check` would run). */
export function drawExamples<T>(arbitrary: fc.Arbitrary<T>, seed: number, numRuns: number): T[] {
  return fc.sample(arbitrary, { seed, numRuns });
}

/** Runs a property's examples side by side, then shrinks its first failure one candidate at a time. */
export async function runExamples<T, R>(options: ExampleRunOptions<T, R>): Promise<ExampleRunResult<T, R>> {
  const started = performance.now();
  const examples = drawExamples(options.arbitrary, options.seed, options.numRuns);
  const results = await mapConcurrently(examples, options.concurrency, (example) => options.run(example), {
    ends: (result) => options.fails(result),
    halted: () => options.halted?.() === true || performance.now() - started > TIME_LIMIT_MS,
  });
  const index = results.findIndex((result) => options.fails(result));
  if (index < 0) return { results, examples };
  const first = results[index] as R;
  let minimal = first;
  let minimalExample = examples[index] as T;
  let replayed = false;
  let replays = 0;
  const details = await fc.check(
    fc.asyncProperty(options.arbitrary, async (example) => {
      // The replay begins with the failing example itself.
      const same = !replayed && options.reuseFailure === true && fc.stringify(example) === fc.stringify(examples[index]);
      if (!same) replays += 1;
      const result = same ? first : await options.run(example);
      replayed = true;
      if (!options.fails(result)) return true;
      // fast-check ends on the smallest example that still fails: the last failure seen is that one.
      minimal = result;
      minimalExample = example;
      return false;
    }),
    {
      seed: options.seed,
      numRuns: options.numRuns,
      path: String(index),
      endOnFailure: false,
      interruptAfterTimeLimit: TIME_LIMIT_MS,
      markInterruptAsFailure: false,
    },
  );
  return { results, examples, failure: { index, first, minimal, minimalExample, shrinks: details.numShrinks, replays } };
}
