/**
 * `npm run bench:load [-- --threads 1,4,8]`: the load runner against wrk, side by side in one run (medians of interleaved
 * rounds, as ratios). Compiled into dist and free of development dependencies, so that it runs on a many-core machine:
 * - multi-core: the runner with N worker threads against `wrk -tN`, at each thread count, against a fixed-body server of
 *   several processes (faster than either client), sampling on;
 * - one core: the runner against wrk on the reference server (the server is the limit), and the reference server's listPets
 *   against a bare node:http server answering the same 20 pets;
 * - rate accuracy at 200/s and 50,000/s;
 * - what judging the listings against the store invariants costs: the runner with and without it, alternating, against the
 *   fixed server whose 20 pets it knows (`--judging-only` runs this part alone, without wrk).
 * Every server runs in processes of its own, so that clients and servers do not share a thread.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { parseArgs, promisify } from 'node:util';
import { loadContract } from '../../src/loader/contract.js';
import { packagePath } from '../../src/loader/package-paths.js';
import type { QueryMix, RawLoadRun } from '../../src/model/load.js';
import { runStage, type StageOptions } from '../../src/load/runner.js';
import { type KnownPet, ResponseSampler, type SamplingSetup } from '../../src/load/sampler.js';
import { StageWorkers } from '../../src/load/stage-workers.js';
import { fixedServerFile, median, startProcess } from './bench-tools.js';

const KEY = 'bench-key-0f3a9c';
const { values: flags } = parseArgs({
  options: {
    threads: { type: 'string' },
    seconds: { type: 'string', default: process.env['BENCH_SECONDS'] ?? '2' },
    runs: { type: 'string', default: process.env['BENCH_RUNS'] ?? '3' },
    connections: { type: 'string', default: '64' },
    'server-processes': { type: 'string' },
    'judging-only': { type: 'boolean', default: false },
  },
});
const CORES = os.availableParallelism();
/** Thread counts to compare: those given, else 1, 4 and 8 where the machine has twice as many cores, else 1. */
const THREADS = (flags.threads ?? [1, 4, 8].filter((n) => n === 1 || n * 2 <= CORES).join(',')).split(',').map(Number);
/** Whole seconds: wrk takes no fractions. */
const SECONDS = Math.max(1, Math.round(Number(flags.seconds)));
const RUNS = Math.max(1, Number(flags.runs));
const CONNECTIONS = Number(flags.connections);
/** The fixed-body server's processes: enough to outrun both clients, without taking the clients' cores. */
const SERVER_PROCESSES = Number(flags['server-processes'] ?? Math.max(1, Math.min(8, Math.floor(CORES / 2))));
/** Connections of the one-core comparison (the reference server is a single process). */
const SINGLE_CONNECTIONS = 10;
const RATE_TARGETS = [200, 50_000];
const RATE_RUNS = 3;
/** The sampling of the smoke profile: the first 20 responses, then 1 in 50. */
const SAMPLING: SamplingSetup = { first: 20, every: 50 };
/** The fixed server's 20 pets (ids 1..20, all available), as a run that had seen them holds its listings to them. */
const FIXED_PETS: Array<[string, KnownPet]> = Array.from({ length: 20 }, (_, i) => [
  String(i + 1),
  {
    fields: JSON.stringify({ id: i + 1, name: `Pet ${i + 1}`, categoryId: (i % 5) + 1, status: 'available' }),
    where: 'bench',
    status: 'available',
  },
]);
/** The judging bench's mix: a full page (count and limit), and short pages by status and without (every invariant, ids too). */
const JUDGED_QUERIES: QueryMix[] = [{ weight: 1 }, { limit: 100, weight: 1 }, { status: 'available', limit: 50, weight: 1 }];
/** Sampling on, with the listings judged against the fixed server's pets (within the budget); and with the judging off. */
const JUDGING_ON: SamplingSetup = { ...SAMPLING, known: FIXED_PETS };
const JUDGING_OFF: SamplingSetup = { ...SAMPLING, judgeListings: false };

async function wrk(url: string, threads: number, connections: number): Promise<number> {
  const args = [`-t${threads}`, `-c${Math.max(connections, threads)}`, `-d${SECONDS}s`, '-H', `Authorization: Bearer ${KEY}`, url];
  const { stdout } = await promisify(execFile)('wrk', args);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  if (!match) throw new Error(`wrk printed no rate:\n${stdout}`);
  return Number(match[1]);
}

/** Runs one stage as `load` does: in this thread for one worker, on the pool for more. */
async function stage(
  baseUrl: string,
  workers: StageWorkers | undefined,
  options: Partial<StageOptions> & { sampled: boolean; sampling?: SamplingSetup },
): Promise<RawLoadRun> {
  const { sampled, sampling = SAMPLING, ...rest } = options;
  const base: StageOptions = {
    baseUrl,
    apiKey: KEY,
    profileName: 'bench',
    listPath: '/pets',
    queries: [{ weight: 1 }],
    connections: SINGLE_CONNECTIONS,
    durationSeconds: SECONDS,
    maxRequests: 100_000_000,
    timeoutSeconds: SECONDS,
    maxBodyBytes: 4 * 1024 * 1024,
    ...rest,
  };
  if (workers !== undefined) return workers.run({ ...base, ...(sampled ? { sampling } : {}) });
  const sampler = sampled ? new ResponseSampler(sampling, await loadContract(packagePath('schemas')), (x) => x) : undefined;
  return runStage({ ...base, ...(sampler ? { sampler } : {}) });
}

/** Responses per second of a stage, after checking that the sample found nothing wrong. */
function responseRate(run: RawLoadRun): number {
  if (run.mismatches > 0) throw new Error('a server broke the contract under load');
  return run.responses / run.durationSeconds;
}

/** One measured variant: its name and how to measure it once. */
interface Variant {
  name: string;
  measure: () => Promise<number>;
}

/** Runs every variant once per round, rounds interleaved (drift touches each round's variants alike); the first round warms up. */
async function interleaved(title: string, variants: Variant[]): Promise<Map<string, number[]>> {
  const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let n = 0; n <= RUNS; n++) {
    for (const variant of variants) {
      const value = await variant.measure();
      if (n > 0) results.get(variant.name)?.push(value);
    }
    process.stderr.write(`${title}: ${n === 0 ? 'warm-up' : `round ${n}/${RUNS}`} done\n`);
  }
  return results;
}

/** The median of the per-round ratios a / b. */
function pairedRatio(results: Map<string, number[]>, a: string, b: string): number {
  const as = results.get(a) ?? [];
  const bs = results.get(b) ?? [];
  return median(as.map((value, i) => value / (bs[i] as number)));
}

function printTable(results: Map<string, number[]>): void {
  for (const [name, values] of results)
    console.log(`  ${name.padEnd(44)} ${median(values).toFixed(0).padStart(8)}   (runs: ${values.map((v) => v.toFixed(0)).join(', ')})`);
}

async function multiCore(fixedUrl: string, pools: Map<number, StageWorkers | undefined>): Promise<void> {
  const variants: Variant[] = THREADS.flatMap((threads) => [
    { name: `wrk -t${threads} -c${CONNECTIONS}`, measure: () => wrk(`${fixedUrl}/pets`, threads, CONNECTIONS) },
    {
      name: `runner, ${threads} worker${threads === 1 ? '' : 's'}, -c${CONNECTIONS}, sampling on`,
      measure: async () =>
        responseRate(await stage(fixedUrl, pools.get(threads), { connections: Math.max(CONNECTIONS, threads), sampled: true })),
    },
  ]);
  const results = await interleaved('multi-core', variants);
  console.log(
    `multi-core: fixed 20-pet server in ${SERVER_PROCESSES} process${SERVER_PROCESSES === 1 ? '' : 'es'}, ${RUNS} rounds of ${SECONDS} s; medians in responses/s`,
  );
  printTable(results);
  for (const threads of THREADS) {
    const ratio = pairedRatio(
      results,
      `runner, ${threads} worker${threads === 1 ? '' : 's'}, -c${CONNECTIONS}, sampling on`,
      `wrk -t${threads} -c${CONNECTIONS}`,
    );
    console.log(
      `  runner / wrk at ${String(threads).padStart(2)} thread${threads === 1 ? ' ' : 's'}                 ${ratio.toFixed(2)}   (goal >= 0.80)`,
    );
  }
}

async function oneCore(referenceUrl: string, singleUrl: string): Promise<void> {
  const results = await interleaved('one core', [
    { name: 'wrk -t1 → reference', measure: () => wrk(`${referenceUrl}/pets`, 1, SINGLE_CONNECTIONS) },
    {
      name: 'runner, sampling off → reference',
      measure: async () => responseRate(await stage(referenceUrl, undefined, { sampled: false })),
    },
    { name: 'runner, sampling on → reference', measure: async () => responseRate(await stage(referenceUrl, undefined, { sampled: true })) },
    { name: 'wrk -t1 → bare 20-pet server', measure: () => wrk(`${singleUrl}/pets`, 1, SINGLE_CONNECTIONS) },
  ]);
  console.log(`one core: one server process, ${SINGLE_CONNECTIONS} connections, ${RUNS} rounds of ${SECONDS} s; medians in responses/s`);
  printTable(results);
  console.log(
    `  runner / wrk → reference, sampling off       ${pairedRatio(results, 'runner, sampling off → reference', 'wrk -t1 → reference').toFixed(2)}`,
  );
  console.log(
    `  runner / wrk → reference, sampling on        ${pairedRatio(results, 'runner, sampling on → reference', 'wrk -t1 → reference').toFixed(2)}   (goal >= 0.80)`,
  );
  console.log(
    `  reference listPets / bare 20-pet server      ${pairedRatio(results, 'wrk -t1 → reference', 'wrk -t1 → bare 20-pet server').toFixed(2)}   (goal >= 0.90)`,
  );
}

/** The share of listings judged in each judged run, by setup: what the budget let through. */
const judgedShares = new Map<string, number[]>();

/** Responses per second of a judged stage, after checking that the judge counted every listing and found nothing wrong. */
function judgedRate(run: RawLoadRun, label: string): number {
  const listings = run.listings;
  if (listings === undefined || listings.answered !== run.statusCodes['200'])
    throw new Error(`the judge saw ${listings?.answered ?? 'no'} listings of ${run.statusCodes['200'] ?? 0} answered 200`);
  judgedShares.set(label, [...(judgedShares.get(label) ?? []), listings.judged / Math.max(1, listings.answered)]);
  if (Object.values(listings.contradictions).some((n) => n > 0)) throw new Error('the fixed server contradicted an invariant');
  return responseRate(run);
}

/**
 * What judging the listings costs the generator: the runner with the judging and without it (sampling on in both), in
 * alternating rounds, in this thread and on the largest pool, against the fixed server; the goal is at most a tenth.
 */
async function judgingCost(singleUrl: string, fixedUrl: string, pools: Map<number, StageWorkers | undefined>): Promise<void> {
  const most = Math.max(...THREADS);
  const setups = [
    { label: '1 worker → one-process fixed server, -c10', url: singleUrl, workers: undefined, connections: SINGLE_CONNECTIONS },
    ...(most > 1
      ? [{ label: `${most} workers → fixed server, -c${CONNECTIONS}`, url: fixedUrl, workers: pools.get(most), connections: CONNECTIONS }]
      : []),
  ];
  const variants: Variant[] = setups.flatMap((setup) =>
    [
      ['judging off', JUDGING_OFF],
      ['judging on', JUDGING_ON],
    ].map(([name, sampling]) => ({
      name: `${setup.label}, ${name as string}`,
      measure: async () => {
        const options = { queries: JUDGED_QUERIES, connections: setup.connections, sampled: true, sampling: sampling as SamplingSetup };
        const run = await stage(setup.url, setup.workers, options);
        return sampling === JUDGING_ON ? judgedRate(run, setup.label) : responseRate(run);
      },
    })),
  );
  const results = await interleaved('judging', variants);
  console.log(
    `judging cost: sampling on in both (first ${SAMPLING.first}, then 1 in ${SAMPLING.every}); the judged runs hold the listings ` +
      "the budget lets through to the fixed server's 20 pets (a third full pages, two thirds short: ids compared); " +
      `${RUNS} rounds of ${SECONDS} s; ` +
      'medians in responses/s',
  );
  printTable(results);
  for (const setup of setups) {
    const ratio = pairedRatio(results, `${setup.label}, judging on`, `${setup.label}, judging off`);
    const medians = median(results.get(`${setup.label}, judging on`) ?? []) / median(results.get(`${setup.label}, judging off`) ?? []);
    const share = median(judgedShares.get(setup.label) ?? [0]);
    console.log(
      `  judged / off, ${setup.label.padEnd(40)} ${ratio.toFixed(3)}   (median of the per-round ratios: cost ` +
        `${((1 - ratio) * 100).toFixed(1)} %; ratio of the medians ${medians.toFixed(3)}; goal <= 10 %; ` +
        `${(share * 100).toFixed(1)} % of listings judged)`,
    );
  }
}

/** How close the achieved rate (requests sent / stage duration) comes to each target, in runs one after another. */
async function rateAccuracy(fixedUrl: string, workers: StageWorkers | undefined, threads: number): Promise<void> {
  console.log(`rate accuracy (runner with ${threads} worker${threads === 1 ? '' : 's'} → the fixed server, ${CONNECTIONS} connections):`);
  for (const rate of RATE_TARGETS) {
    const errors: number[] = [];
    const behind: number[] = [];
    for (let n = 0; n < RATE_RUNS; n++) {
      const run = await stage(fixedUrl, workers, { connections: Math.max(CONNECTIONS, threads), rate, sampled: true });
      errors.push((run.requests / run.durationSeconds / rate - 1) * 100);
      behind.push(run.behindSchedule);
    }
    const signed = (e: number): string => `${e >= 0 ? '+' : ''}${e.toFixed(2)} %`;
    console.log(
      `  ${String(rate).padStart(6)}/s → ${signed(median(errors))} (runs ${errors.map(signed).join(', ')}; behind schedule ${behind.join(', ')})   (goal within ±2 %)`,
    );
  }
}

async function main(): Promise<void> {
  const reference = await startProcess([packagePath('dist/src/cli/main.js'), 'serve', '--port', '0'], KEY);
  const single = await startProcess([fixedServerFile(1)], KEY);
  const fixed = await startProcess([fixedServerFile(SERVER_PROCESSES)], KEY);
  const pools = new Map<number, StageWorkers | undefined>();
  try {
    for (const threads of THREADS) pools.set(threads, threads > 1 ? await StageWorkers.start(threads, KEY) : undefined);
    console.log(`load bench on ${CORES} cores (${os.cpus()[0]?.model ?? 'unknown cpu'}), node ${process.version}`);
    if (!flags['judging-only']) {
      await multiCore(fixed.baseUrl, pools);
      await oneCore(reference.baseUrl, single.baseUrl);
      const most = Math.max(...THREADS);
      await rateAccuracy(fixed.baseUrl, pools.get(most), most);
    }
    await judgingCost(single.baseUrl, fixed.baseUrl, pools);
  } finally {
    for (const pool of pools.values()) await pool?.close();
    for (const server of [reference, single, fixed]) server.child.kill();
  }
  console.log(
    `(load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
}

await main();
