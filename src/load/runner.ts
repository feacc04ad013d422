/** Runs one bounded stage of listPets load on autocannon's programmatic API and returns its raw, plain-JSON result. */
import autocannon from 'autocannon';
import { build, initWebAssemblySync } from 'hdr-histogram-js';
import type { LoadListener, QueryMix, RawLoadRun } from '../model/load.js';
import type { ResponseSampler } from './sampler.js';

/** What one stage sends, and how long and how much at most. */
export interface StageOptions {
  baseUrl: string;
  apiKey: string;
  profileName: string;
  queries: readonly QueryMix[];
  connections: number;
  /** Target requests per second; absent: as fast as the service answers. */
  rate?: number;
  durationSeconds: number;
  maxRequests: number;
  timeoutSeconds: number;
  /** Judges a sample of responses; absent: nothing is parsed (warm-up, or sampling off). */
  sampler?: ResponseSampler;
  listener?: LoadListener;
  signal?: AbortSignal;
}

/** Extra seconds past the planned end before the runner stops a stage on its own. */
const CEILING_GRACE_SECONDS = 2;
/** How often autocannon checks whether to stop, in ms (its default of 1 s would overrun short stages). */
const STOP_CHECK_MS = 100;

/** The query string of one mix entry, e.g. `?limit=5&status=sold`. */
export function queryString(query: QueryMix): string {
  const search = new URLSearchParams();
  if (query.limit !== undefined) search.set('limit', String(query.limit));
  if (query.status !== undefined) search.set('status', query.status);
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The mix expanded to a sequence in which each query appears `weight` times, spread out (smooth weighted round robin). */
export function weightedSequence<T extends { weight: number }>(items: readonly T[]): T[] {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  const current = items.map(() => 0);
  const sequence: T[] = [];
  for (let n = 0; n < total; n++) {
    let best = 0;
    items.forEach((item, i) => {
      current[i] = (current[i] as number) + item.weight;
      if ((current[i] as number) > (current[best] as number)) best = i;
    });
    current[best] = (current[best] as number) - total;
    sequence.push(items[best] as T);
  }
  return sequence;
}

/** A latency histogram with autocannon's own settings, so its encoding merges with autocannon's aggregation. */
function latencyHistogram(): ReturnType<typeof build> {
  initWebAssemblySync();
  return build({ useWebAssembly: true, bitBucketSize: 64, autoResize: true, lowestDiscernibleValue: 1, highestTrackableValue: 10_000, numberOfSignificantValueDigits: 5 });
}

/** Runs one stage to its end (duration, request budget, abort or hard ceiling, whichever comes first). */
export async function runStage(options: StageOptions): Promise<RawLoadRun> {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  const headers = { accept: 'application/json', authorization: `Bearer ${options.apiKey}` };
  const sampler = options.sampler;
  const requests = weightedSequence(options.queries).map((query) => {
    const target = `/pets${queryString(query)}`;
    const request: autocannon.Request = { method: 'GET', path: `${prefix}${target}`, headers };
    if (sampler) request.onResponse = (status, body) => sampler.observe(target, query, status, body);
    return request;
  });
  // autocannon sends no more connections than the rate, and a connection given no requests would run unbounded.
  const connections = Math.max(1, Math.min(options.connections, options.maxRequests, options.rate ?? Infinity));
  // Coordinated omission: a connection meant to send every `interval` ms that waited longer for an answer
  // never sent the requests in between; their latencies are back-filled (HdrHistogram's expected-interval correction).
  const interval = options.rate === undefined ? undefined : (1000 * connections) / options.rate;
  const latencies = latencyHistogram();
  const opts: autocannon.Options & { histograms: { latencies: typeof latencies } } = {
    // Only the origin of the base URL: the key goes nowhere else, and autocannon follows no redirects.
    url: base.origin,
    connections,
    duration: options.durationSeconds,
    maxOverallRequests: options.maxRequests,
    timeout: options.timeoutSeconds,
    requests,
    sampleInt: STOP_CHECK_MS,
    skipAggregateResult: true,
    histograms: { latencies },
  };
  if (options.rate !== undefined) {
    opts.overallRate = options.rate;
    // autocannon's own correction assumes a 1 ms interval whatever the rate; the runner corrects below instead.
    opts.ignoreCoordinatedOmission = true;
  }
  let responses = 0;
  const throughput: Array<{ t: number; rps: number }> = [];
  let stopped = false;
  const started = performance.now();
  const raw = await new Promise<Record<string, unknown>>((resolve, reject) => {
    let ceiling: NodeJS.Timeout | undefined;
    const stop = (): void => {
      stopped = true;
      // An instance that failed autocannon's own validation never started and has nothing to stop.
      (instance as Partial<autocannon.Instance>).stop?.();
    };
    const instance = autocannon(opts, (error: Error | null, result: unknown) => {
      clearTimeout(ceiling);
      options.signal?.removeEventListener('abort', stop);
      if (error) reject(error);
      else resolve(result as Record<string, unknown>);
    });
    ceiling = setTimeout(stop, (options.durationSeconds + options.timeoutSeconds + CEILING_GRACE_SECONDS) * 1000);
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    instance.on('response', (_client, _status, _bytes, time) => {
      responses += 1;
      if (interval !== undefined) for (let missed = time - interval; missed >= interval; missed -= interval) latencies.recordValue(missed);
    });
    let previous = 0;
    instance.on('tick', () => {
      throughput.push({ t: Math.round((performance.now() - started) / 1000), rps: responses - previous });
      options.listener?.onLoadProgress?.({
        profile: options.profileName,
        elapsedSeconds: (performance.now() - started) / 1000,
        plannedSeconds: options.durationSeconds,
        responses,
        rps: responses - previous,
        ...(options.rate === undefined ? {} : { rate: options.rate }),
      });
      previous = responses;
    });
  });
  const run: RawLoadRun = {
    // A JSON round trip turns autocannon's Dates into text: the raw result is plain JSON from here on.
    autocannon: JSON.parse(JSON.stringify(raw)) as Record<string, unknown>,
    sampled: sampler?.sampled ?? 0,
    mismatches: sampler?.mismatches ?? 0,
    violations: sampler ? [...sampler.violations] : [],
    interrupted: stopped && options.signal?.aborted === true,
    throughput,
  };
  if (options.rate !== undefined) run.rate = options.rate;
  return run;
}
