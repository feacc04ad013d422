/** Bounded concurrency: the one worker pool the engine and the matrix share. */

/** When a bounded map stops starting items: after a result that ends the work, or once `halted` says so. */
export interface StopRule<R> {
  /** A result after which no further item starts (those under way still finish). */
  ends?: (result: R) => boolean;
  /** Asked before each item starts: true stops starting any more. */
  halted?: () => boolean;
}

/**
 * Maps items through `fn`, at most `limit` at a time, starting them in the order of `items`; results keep that order.
 * With a stop rule, items stop starting once it says so: the results are those of the items started, a prefix of `items`.
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  stop: StopRule<R> = {},
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let ended = false;
  const worker = async (): Promise<void> => {
    while (!ended && next < items.length && stop.halted?.() !== true) {
      const index = next++;
      const result = await fn(items[index] as T, index);
      results[index] = result;
      if (stop.ends?.(result) === true) ended = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
