/**
 * Load on several cores: a pool of worker threads, each running its share of a stage's connections, rate and request
 * budget on connections of its own; their raw runs are combined exactly into one (counts add, histograms merge).
 */
import type { SamplingSetup } from './sampler.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packagePath } from '../loader/package-paths.js';
import { RunError } from '../model/errors.js';
import type { LoadProgress, RawLoadRun } from '../model/load.js';
import { combineConcurrentRuns } from './aggregate.js';
import type { StageOptions } from './runner.js';

/** What every worker is given once: the contract's folder (the package's) and the key it sends (kept in memory, never printed). */
export interface WorkerSetup {
  schemasDir: string;
  apiKey: string;
  /** The run's other secrets, redacted like the key. */
  secrets: readonly string[];
}

/** A worker's share of a stage: plain data, with the sampling it applies instead of a sampler object. */
export type WorkerStage = Omit<StageOptions, 'apiKey' | 'sampler' | 'listener' | 'signal'> & {
  sampling?: SamplingSetup;
};

/** Messages to a worker. */
export type ToWorker = { type: 'run'; stage: WorkerStage } | { type: 'stop' };

/** Messages from a worker. */
export type ToMain =
  | { type: 'ready' }
  | { type: 'progress'; event: LoadProgress }
  | { type: 'done'; run: RawLoadRun }
  | { type: 'failed'; message: string };

/** Half the cores (the rest stay with the process and whatever else the machine runs), at most 8, at most one per connection. */
export function defaultWorkers(connections: number): number {
  return Math.max(1, Math.min(8, Math.floor(os.availableParallelism() / 2), connections));
}

/** `total` shared out over `parts` as evenly as whole numbers allow, the larger shares first. */
export function shares(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/** A pool of load workers kept for a whole load run (warm-up and every stage), so that threads start once. */
export class StageWorkers {
  private readonly workers: Worker[];

  private constructor(workers: Worker[]) {
    this.workers = workers;
  }

  /** Starts `count` workers and waits until each has compiled its contract. */
  static async start(count: number, apiKey: string, secrets: readonly string[] = []): Promise<StageWorkers> {
    const setup: WorkerSetup = { schemasDir: packagePath('schemas'), apiKey, secrets };
    // The worker's module beside this one: stage-worker.js when built, stage-worker.ts when the tests run the source.
    const entry = new URL(`./stage-worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
    const workers = Array.from({ length: count }, () => new Worker(entry, { workerData: setup }));
    const pool = new StageWorkers(workers);
    try {
      await Promise.all(workers.map((worker) => pool.next(worker, 'ready')));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** Runs one stage on every worker at once and returns their runs combined. */
  async run(options: StageOptions & { sampling?: SamplingSetup }): Promise<RawLoadRun> {
    const count = this.workers.length;
    const connections = shares(options.connections, count);
    const budgets = shares(options.maxRequests, count);
    const first = options.sampling === undefined ? [] : shares(options.sampling.first, count);
    const latest = new Map<Worker, LoadProgress>();
    const stop = (): void => {
      for (const worker of this.workers) worker.postMessage({ type: 'stop' } satisfies ToWorker);
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      const runs = await Promise.all(
        this.workers.map((worker, i) => {
          const { apiKey: _key, sampler: _sampler, listener: _listener, signal: _signal, sampling, ...shared } = options;
          const stage: WorkerStage = {
            ...shared,
            connections: connections[i] as number,
            maxRequests: budgets[i] as number,
            // Each worker keeps 1/N of the rate; shifted by i/N of an interval, their schedules interleave evenly.
            ...(options.rate === undefined ? {} : { rate: options.rate / count, scheduleOffset: i / count }),
            ...(sampling === undefined ? {} : { sampling: { ...sampling, first: first[i] as number } }),
          };
          const done = this.next(worker, 'done', (event) => {
            latest.set(worker, event);
            if (i === 0) options.listener?.onLoadProgress?.(combineProgress([...latest.values()], options.rate));
          });
          if (options.signal?.aborted === true) worker.postMessage({ type: 'stop' } satisfies ToWorker);
          worker.postMessage({ type: 'run', stage } satisfies ToWorker);
          return done;
        }),
      );
      const combined = combineConcurrentRuns(runs);
      if (options.rate !== undefined) combined.rate = options.rate;
      return combined;
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  }

  /** Ends every worker thread. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  /** The worker's next message of a kind (progress passed on meanwhile); a worker that fails or exits rejects. */
  private next<K extends 'ready' | 'done'>(
    worker: Worker,
    kind: K,
    onProgress?: (event: LoadProgress) => void,
  ): Promise<K extends 'done' ? RawLoadRun : undefined> {
    type Result = K extends 'done' ? RawLoadRun : undefined;
    return new Promise<Result>((resolve, reject) => {
      const settle = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const fail = (message: string): void => {
        settle();
        reject(new RunError('ERR_LOAD_WORKER', `a load worker failed: ${message}`));
      };
      const onMessage = (message: ToMain): void => {
        if (message.type === 'progress') onProgress?.(message.event);
        else if (message.type === 'failed') fail(message.message);
        else if (message.type === kind) {
          settle();
          resolve((message.type === 'done' ? message.run : undefined) as Result);
        }
      };
      const onError = (error: Error): void => fail(error.message);
      const onExit = (code: number): void => fail(`it exited with code ${code}`);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }
}

/** The progress of the whole stage from each worker's latest. */
function combineProgress(events: readonly LoadProgress[], rate: number | undefined): LoadProgress {
  const total = (field: 'requests' | 'responses' | 'errors' | 'rps'): number => events.reduce((sum, event) => sum + event[field], 0);
  const first = events[0] as LoadProgress;
  return {
    profile: first.profile,
    elapsedSeconds: first.elapsedSeconds,
    plannedSeconds: first.plannedSeconds,
    requests: total('requests'),
    responses: total('responses'),
    errors: total('errors'),
    rps: total('rps'),
    ...(rate === undefined ? {} : { rate }),
  };
}
