/**
 * `npm run bench`: the whole functional run against the embedded server (`--seed 1`) against its bare cost: node, the
 * reference server and the same requests over a keep-alive pool at concurrency 4 (dist/tools/bench/bare-run.js), both the
 * run's own requests as the server received them (recorded once, before the rounds) and as many plain listings; and the CLI's
 * start-up against `node -e 0`. Medians of interleaved rounds, as ratios. With `--against CHECKOUT` (another build, such as
 * main before a change): this build's run against that one's instead, in alternating rounds, by time per request.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packagePath } from '../../src/loader/package-paths.js';
import type { RunReport } from '../../src/model/results.js';
import { median } from './bench-tools.js';
import { recordRun } from './recorded-requests.js';
import { BenchUsageError, builtCli, renderSideBySide, type RunCost } from './side-by-side.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const cli = packagePath('dist', 'src', 'cli', 'main.js');
const bareRun = packagePath('dist', 'tools', 'bench', 'bare-run.js');
const SEED = ['--seed', '1'];

/** Wall time of one process, in ms. */
function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env: { PATH: process.env['PATH'] ?? '' }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  return performance.now() - started;
}

/** One whole functional run of a build's CLI at the seed, in a report folder of its own; a run that does not pass throws. */
function functionalRun(main: string): RunCost {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  try {
    const started = performance.now();
    const result = spawnSync(process.execPath, [main, 'run', '--quiet', '--reporter', 'json', '--report-dir', dir, ...SEED], {
      env: { PATH: process.env['PATH'] ?? '' },
      encoding: 'utf8',
    });
    const wallMs = performance.now() - started;
    if (result.status !== 0) throw new Error(`${main} run exited ${String(result.status)}: ${result.stderr}`);
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as RunReport;
    return { wallMs, inRunMs: report.durationMs, requests: report.requests };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** This build against another, the other first in even rounds and second in odd ones, so that drift touches both alike. */
function againstBuild(checkout: string): string {
  const other = builtCli(checkout);
  const runs = { before: [] as RunCost[], after: [] as RunCost[] };
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) runs.before.push(functionalRun(other));
    runs.after.push(functionalRun(cli));
    if (i % 2 === 1) runs.before.push(functionalRun(other));
  }
  return renderSideBySide(runs, { before: other, after: cli });
}

/** The run against its bare cost, and the start-up against node's. */
async function againstBareCost(): Promise<string> {
  // Start-up, side by side: a bare node, then --version and --help, in every round.
  const bare: number[] = [];
  const version: number[] = [];
  const help: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(timed(['-e', '0']));
    version.push(timed([cli, '--version']));
    help.push(timed([cli, '--help']));
  }
  const recording = path.join(mkdtempSync(path.join(tmpdir(), 'bench-requests-')), 'requests.json');
  const recorded = await recordRun(SEED);
  writeFileSync(recording, JSON.stringify(recorded));
  const runs: RunCost[] = [];
  const bareWalls: number[] = [];
  const replayWalls: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = functionalRun(cli);
    runs.push(run);
    // The bare cost right after, with the same number of requests: drift touches both alike.
    bareWalls.push(timed([bareRun, String(run.requests)]));
    replayWalls.push(timed([bareRun, recording]));
  }
  rmSync(path.dirname(recording), { recursive: true, force: true });
  const walls = runs.map((run) => run.wallMs);
  const ratio = (bare: readonly number[]): string => median(walls.map((w, i) => w / (bare[i] as number))).toFixed(2);
  return [
    `functional run against the embedded server, ${RUNS} runs:`,
    `  wall time (process start to exit): median ${median(walls).toFixed(0)} ms (min ${Math.min(...walls).toFixed(0)}, max ${Math.max(...walls).toFixed(0)})`,
    `  checks phase (report durationMs):  median ${median(runs.map((run) => run.inRunMs)).toFixed(0)} ms`,
    `  requests per run:                  median ${median(runs.map((run) => run.requests))}`,
    `  bare cost, the same ${recorded.length} requests (node, reference server, a keep-alive pool at concurrency 4): median ${median(replayWalls).toFixed(0)} ms`,
    `  bare cost, as many listings: median ${median(bareWalls).toFixed(0)} ms`,
    `  run / bare cost: ${ratio(replayWalls)} against the same requests, ${ratio(bareWalls)} against listings (medians of the per-round ratios; goal within 1.3)`,
    `start-up, ${RUNS} interleaved rounds: node -e 0 ${median(bare).toFixed(0)} ms; --version ${median(version).toFixed(0)} ms (${(median(version) / median(bare)).toFixed(2)} × node -e 0); --help ${median(help).toFixed(0)} ms (${(median(help) / median(bare)).toFixed(2)} ×; goal within 2 ×)`,
  ].join('\n');
}

let against: string | undefined;
try {
  against = parseArgs({ options: { against: { type: 'string' } } }).values.against;
  if (against !== undefined) builtCli(against);
} catch (error) {
  // node:util's parseArgs throws a TypeError with a code (ERR_PARSE_ARGS_*) for an unknown or incomplete option.
  if (!(error instanceof BenchUsageError || (error instanceof TypeError && 'code' in error))) throw error;
  process.stderr.write(`npm run bench: ${error.message} (usage: npm run bench [-- --against CHECKOUT])\n`);
  process.exitCode = 2;
}
if (process.exitCode === undefined) process.stdout.write(`${against === undefined ? await againstBareCost() : againstBuild(against)}\n`);
