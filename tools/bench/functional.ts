/**
 * `npm run bench`: the whole functional run against the embedded server (`--seed 1`) against its bare cost: node, the
 * reference server and the same requests over a keep-alive pool at concurrency 4 (dist/tools/bench/bare-run.js), both the run's
 * own requests as the server received them (recorded once, before the rounds) and as many plain listings; and the CLI's
 * start-up against `node -e 0`. Medians of interleaved rounds, as ratios.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packagePath } from '../../src/loader/package-paths.js';
import type { RunReport } from '../../src/model/results.js';
import { median } from './bench-tools.js';
import { recordRun } from './recorded-requests.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const cli = packagePath('dist', 'src', 'cli', 'main.js');

/** Wall time of one process, in ms. */
function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env: { PATH: process.env['PATH'] ?? '' }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  return performance.now() - started;
}

// Start-up, side by side: a bare node, then --version and --help, in every round.
const bare: number[] = [];
const version: number[] = [];
const help: number[] = [];
for (let i = 0; i < RUNS; i++) {
  bare.push(timed(['-e', '0']));
  version.push(timed([cli, '--version']));
  help.push(timed([cli, '--help']));
}

const SEED = ['--seed', '1'];
const recording = path.join(mkdtempSync(path.join(tmpdir(), 'bench-requests-')), 'requests.json');
const recorded = await recordRun(SEED);
writeFileSync(recording, JSON.stringify(recorded));

const walls: number[] = [];
const bareWalls: number[] = [];
const replayWalls: number[] = [];
const inRun: number[] = [];
const requests: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'run', '--quiet', '--reporter', 'json', '--report-dir', dir, ...SEED], {
    env: { PATH: process.env['PATH'] ?? '' },
    encoding: 'utf8',
  });
  walls.push(performance.now() - started);
  if (result.status !== 0) throw new Error(`run ${i + 1} exited ${String(result.status)}: ${result.stderr}`);
  const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as RunReport;
  inRun.push(report.durationMs);
  requests.push(report.requests);
  rmSync(dir, { recursive: true, force: true });
  // The bare cost right after, with the same number of requests: drift touches both alike.
  bareWalls.push(timed([packagePath('dist', 'tools', 'bench', 'bare-run.js'), String(report.requests)]));
  replayWalls.push(timed([packagePath('dist', 'tools', 'bench', 'bare-run.js'), recording]));
}
rmSync(path.dirname(recording), { recursive: true, force: true });
const ratio = (bare: readonly number[]): string => median(walls.map((w, i) => w / (bare[i] as number))).toFixed(2);
process.stdout.write(
  `${[
    `functional run against the embedded server, ${RUNS} runs:`,
    `  wall time (process start to exit): median ${median(walls).toFixed(0)} ms (min ${Math.min(...walls).toFixed(0)}, max ${Math.max(...walls).toFixed(0)})`,
    `  checks phase (report durationMs):  median ${median(inRun).toFixed(0)} ms`,
    `  requests per run:                  median ${median(requests)}`,
    `  bare cost, the same ${recorded.length} requests (node, reference server, a keep-alive pool at concurrency 4): median ${median(replayWalls).toFixed(0)} ms`,
    `  bare cost, as many listings: median ${median(bareWalls).toFixed(0)} ms`,
    `  run / bare cost: ${ratio(replayWalls)} against the same requests, ${ratio(bareWalls)} against listings (medians of the per-round ratios; goal within 1.3)`,
    `start-up, ${RUNS} interleaved rounds: node -e 0 ${median(bare).toFixed(0)} ms; --version ${median(version).toFixed(0)} ms (${(median(version) / median(bare)).toFixed(2)} × node -e 0); --help ${median(help).toFixed(0)} ms (${(median(help) / median(bare)).toFixed(2)} ×; goal within 2 ×)`,
  ].join('\n')}\n`,
);
