/**
 * `npm run bench`: the whole functional run against the embedded server against its bare cost (node, the reference server
 * and as many requests over a keep-alive pool: dist/bench/bare-run.js), and the CLI's start-up against `node -e 0`;
 * medians of interleaved rounds, as ratios.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packagePath } from '../loader/package-paths.js';
import type { RunReport } from '../model/results.js';
import { median } from './bench-tools.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const cli = packagePath('dist', 'cli', 'main.js');

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

const walls: number[] = [];
const bareWalls: number[] = [];
const inRun: number[] = [];
const requests: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'run', '--quiet', '--reporter', 'json', '--report-dir', dir], {
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
  bareWalls.push(timed([packagePath('dist', 'bench', 'bare-run.js'), String(report.requests)]));
}
process.stdout.write(
  `${[
    `functional run against the embedded server, ${RUNS} runs:`,
    `  wall time (process start to exit): median ${median(walls).toFixed(0)} ms (min ${Math.min(...walls).toFixed(0)}, max ${Math.max(...walls).toFixed(0)})`,
    `  checks phase (report durationMs):  median ${median(inRun).toFixed(0)} ms`,
    `  requests per run:                  median ${median(requests)}`,
    `  bare cost (node, reference server, as many requests at concurrency 4): median ${median(bareWalls).toFixed(0)} ms`,
    `  run / bare cost: ${median(walls.map((w, i) => w / (bareWalls[i] as number))).toFixed(2)} (median of the per-round ratios; goal within 1.3)`,
    `start-up, ${RUNS} interleaved rounds: node -e 0 ${median(bare).toFixed(0)} ms; --version ${median(version).toFixed(0)} ms (${(median(version) / median(bare)).toFixed(2)} × node -e 0); --help ${median(help).toFixed(0)} ms (${(median(help) / median(bare)).toFixed(2)} ×; goal within 2 ×)`,
  ].join('\n')}\n`,
);
