/**
 * `npm run bench -- --against CHECKOUT`: this build's functional run and another build's (a checkout built with
 * `npm run build`, such as main before a change), in alternating runs, compared by time per request: the runs of the two
 * may send different numbers of requests, so each run's time is divided by its own count.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { median } from './bench-tools.js';

/** Where a build's CLI lies in a checkout: dist/src/ since tools/ moved out of src/, dist/ in a build from before. */
const CLI_PATHS = [path.join('dist', 'src', 'cli', 'main.js'), path.join('dist', 'cli', 'main.js')];

/** The built CLI of a checkout; a folder without one is the user's mistake, told in one line. */
export function builtCli(checkout: string): string {
  const found = CLI_PATHS.map((file) => path.resolve(checkout, file)).find((file) => existsSync(file));
  if (found === undefined)
    throw new BenchUsageError(`--against ${checkout}: no built CLI there (${CLI_PATHS.join(' or ')}); run npm ci and npm run build in it`);
  return found;
}

/** A mistake in the bench's arguments: one line, exit 2. */
export class BenchUsageError extends Error {}

/** One functional run: its wall time (process start to exit), the checks phase's time (report durationMs) and its requests. */
export interface RunCost {
  wallMs: number;
  inRunMs: number;
  requests: number;
}

/** The two builds' runs, in the order they ran pairwise (round i holds before[i] and after[i]). */
export interface SideBySide {
  before: readonly RunCost[];
  after: readonly RunCost[];
}

/** Medians of time per request, ms, of each build, the ratio of those medians (after / before) and the median of per-round ratios. */
export interface PerRequest {
  before: number;
  after: number;
  ratio: number;
  roundRatio: number;
}

/** Time per request by one measure of a run (the whole process, or the checks phase). */
export function perRequest(runs: SideBySide, measure: (run: RunCost) => number): PerRequest {
  const each = (run: RunCost): number => measure(run) / Math.max(1, run.requests);
  const before = median(runs.before.map(each));
  const after = median(runs.after.map(each));
  const rounds = runs.after.map((run, i) => each(run) / each(runs.before[i] as RunCost));
  return { before, after, ratio: after / before, roundRatio: median(rounds) };
}

/** The comparison as the bench prints it. */
export function renderSideBySide(runs: SideBySide, names: { before: string; after: string }): string {
  const line = (label: string, cost: PerRequest): string =>
    `  ${label}: before ${cost.before.toFixed(3)} ms, this build ${cost.after.toFixed(3)} ms per request; ` +
    `ratio ${cost.ratio.toFixed(2)} (median of the per-round ratios ${cost.roundRatio.toFixed(2)}; goal at most 1.00)`;
  const requests = (list: readonly RunCost[]): string => String(median(list.map((run) => run.requests)));
  return [
    `side by side, ${runs.after.length} alternating rounds: this build (${names.after}) against ${names.before}`,
    `  requests per run (median): before ${requests(runs.before)}, this build ${requests(runs.after)}`,
    line(
      'whole process',
      perRequest(runs, (run) => run.wallMs),
    ),
    line(
      'checks phase ',
      perRequest(runs, (run) => run.inRunMs),
    ),
  ].join('\n');
}
