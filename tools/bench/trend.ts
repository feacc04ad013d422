/**
 * `npm run bench:trend [-- --runs 50 --variant-runs 1]`: the trend check against real servers, under the nightly profile
 * shortened to a 20 s stage (LOAD_VARIANT_PROFILE). First the load variants, each `variant-runs` times: the leaking one must
 * fail load.trend and pass every other threshold, the pausing one pass, the capped one pass the trend and fail its rps.
 * Then the reference server, `runs` times: how often load.trend (and the profile) fails a steady server is its false-alarm
 * rate. Every server is a process of its own, started fresh for each run; every run is the `load` command as a user runs it.
 */
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packagePath } from '../../src/loader/package-paths.js';
import { DEFAULT_TREND, type WindowMetrics } from '../../src/model/load.js';
import type { CheckOutcome } from '../../src/model/results.js';
import { LOAD_VARIANT_PROFILE, LOAD_VARIANTS, type LoadVariant } from '../../src/server/variants.js';
import { cliOnce, startProcess } from './bench-tools.js';

const KEY = 'bench-key-3d71c0';
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' },
    'variant-runs': { type: 'string', default: '1' },
    variants: { type: 'boolean', default: true },
    reference: { type: 'boolean', default: true },
    jsonl: { type: 'string', default: path.join('reports', 'bench-trend.jsonl') },
  },
  allowNegative: true,
});
const RUNS = Number(flags.runs);
const VARIANT_RUNS = Number(flags['variant-runs']);
const CLI = packagePath('dist/src/cli/main.js');

/** The shipped profile with its stage shortened (its warm-up, rate, thresholds and default trend as shipped). */
function shortenedProfile(): string {
  const shipped = readFileSync(packagePath('scenarios', 'load', `${LOAD_VARIANT_PROFILE.name}.yaml`), 'utf8');
  const text = shipped.replace(/^duration: \d+$/m, `duration: ${LOAD_VARIANT_PROFILE.duration}`);
  if (text === shipped) throw new Error(`no duration line to shorten in ${LOAD_VARIANT_PROFILE.name}.yaml`);
  const file = path.join(
    mkdtempSync(path.join(os.tmpdir(), 'bench-trend-')),
    `${LOAD_VARIANT_PROFILE.name}-${LOAD_VARIANT_PROFILE.duration}s.yaml`,
  );
  writeFileSync(file, text);
  return file;
}

/** What one run showed: the verdict, every load check's outcome, the trend's windows. */
interface RunResult {
  server: string;
  verdict: string;
  checks: Record<string, CheckOutcome['outcome']>;
  trend: string;
  windows?: { first: WindowMetrics; last: WindowMetrics };
  loadAverage: number;
}

/** One `load` run against a fresh server (a variant of the catalogue, or the reference). */
async function runOnce(profile: string, variant?: LoadVariant): Promise<RunResult> {
  const server = await startProcess([CLI, 'serve', '--port', '0', ...(variant ? ['--variant', variant.name] : [])], KEY);
  try {
    const { code, stderr, report } = await cliOnce(['load', profile, '--base-url', server.baseUrl, '-q'], KEY);
    if ((code !== 0 && code !== 1) || report?.load === undefined) throw new Error(`load exited ${String(code)}: ${stderr}`);
    const checks = report.cases.flatMap((c) => c.checks);
    const trend = checks.find((c) => c.id === 'load.trend');
    const result: RunResult = {
      server: variant?.name ?? 'reference',
      verdict: report.verdict,
      checks: Object.fromEntries(checks.map((c) => [c.id, c.outcome])),
      trend: `${trend?.outcome ?? 'absent'}: ${trend?.message ?? ''}`,
      loadAverage: os.loadavg()[0] ?? 0,
    };
    if (report.load.metrics.windows !== undefined) result.windows = report.load.metrics.windows;
    appendFileSync(flags.jsonl, `${JSON.stringify(result)}\n`);
    return result;
  } finally {
    server.child.kill();
  }
}

/** Whether a variant's run shows what the catalogue says: its caughtBy checks failed, its passes passed. */
function variantHeld(variant: LoadVariant, run: RunResult): string[] {
  const problems: string[] = [];
  const failedOnes = variant.caughtBy.filter((id) => run.checks[id] === 'failed');
  if (variant.caughtBy.length > 0 && failedOnes.length === 0) problems.push(`none of ${variant.caughtBy.join(', ')} failed`);
  for (const id of variant.passes) if (run.checks[id] !== 'passed') problems.push(`${id} ${run.checks[id] ?? 'absent'}`);
  return problems;
}

/**
 * How close a steady run came to each bound of the default trend: the last window's figure over its bound (above 1 fires);
 * p99's by the same rule, though the default compares only p50 and p90.
 */
function closeness(windows: RunResult['windows']): Record<'p50' | 'p90' | 'p99' | 'rps', number> | undefined {
  if (windows === undefined) return undefined;
  const { first, last } = windows;
  const latency = (p: 'p50' | 'p90' | 'p99'): number =>
    last.latency[p] / (first.latency[p] * (1 + DEFAULT_TREND.latency) + DEFAULT_TREND.slackMs);
  return { p50: latency('p50'), p90: latency('p90'), p99: latency('p99'), rps: (first.rps * (1 - DEFAULT_TREND.throughput)) / last.rps };
}

function windowLine(w: WindowMetrics | undefined): string {
  if (w === undefined) return 'no window';
  return `p50 ${w.latency.p50} p90 ${w.latency.p90} p99 ${w.latency.p99} ms, ${w.rps}/s`;
}

async function main(): Promise<void> {
  const profile = shortenedProfile();
  writeFileSync(flags.jsonl, '');
  console.log(
    `trend bench: ${LOAD_VARIANT_PROFILE.name} shortened to ${LOAD_VARIANT_PROFILE.duration} s; ${os.availableParallelism()} cores, node ${process.version}`,
  );
  let variantProblems = 0;
  if (flags.variants) {
    for (const variant of LOAD_VARIANTS.flatMap((v) => Array.from({ length: VARIANT_RUNS }, () => v))) {
      const run = await runOnce(profile, variant);
      const problems = variantHeld(variant, run);
      variantProblems += problems.length === 0 ? 0 : 1;
      const failed = Object.entries(run.checks)
        .filter(([, outcome]) => outcome === 'failed')
        .map(([id]) => id);
      console.log(
        `  ${variant.name}: ${run.verdict} (failed: ${failed.join(', ') || 'none'}) — ${problems.length === 0 ? 'as the catalogue says' : `NOT as the catalogue says: ${problems.join('; ')}`}`,
      );
      console.log(`    first ${windowLine(run.windows?.first)} · last ${windowLine(run.windows?.last)}`);
      console.log(`    load.trend ${run.trend}`);
    }
  }
  if (flags.reference && RUNS > 0) {
    const tally = { trendFailed: 0, trendPassed: 0, trendNotJudged: 0, profilePassed: 0 };
    const closest = { p50: 0, p90: 0, p99: 0, rps: 0 };
    let p99Fired = 0;
    for (let n = 1; n <= RUNS; n++) {
      const run = await runOnce(profile);
      const trend = run.checks['load.trend'];
      if (trend === 'failed') tally.trendFailed += 1;
      else if (trend === 'passed') tally.trendPassed += 1;
      else tally.trendNotJudged += 1;
      if (run.verdict === 'passed') tally.profilePassed += 1;
      const close = closeness(run.windows);
      for (const key of ['p50', 'p90', 'p99', 'rps'] as const) closest[key] = Math.max(closest[key], close?.[key] ?? 0);
      if ((close?.p99 ?? 0) > 1) p99Fired += 1;
      const failed = Object.entries(run.checks)
        .filter(([, outcome]) => outcome === 'failed')
        .map(([id]) => id);
      console.log(
        `  reference ${String(n).padStart(2)}/${RUNS}: ${run.verdict}${failed.length > 0 ? ` (failed: ${failed.join(', ')})` : ''}; trend ${trend ?? 'absent'}; first ${windowLine(run.windows?.first)} · last ${windowLine(run.windows?.last)}; load ${run.loadAverage.toFixed(1)}`,
      );
    }
    const shown = Object.entries(closest).map(([key, value]) => `${key} ${value.toFixed(2)}`);
    console.log(
      `closest approach to the default trend's bounds (last window / bound; above 1 fires): ${shown.join(' · ')} (p99 is compared only where a profile names it: it would have fired ${p99Fired} times)`,
    );
    console.log(
      `reference server: load.trend passed ${tally.trendPassed}/${RUNS}, failed ${tally.trendFailed}/${RUNS} (false alarms), not judged ${tally.trendNotJudged}; the whole profile passed ${tally.profilePassed}/${RUNS}`,
    );
  }
  console.log(`runs: ${flags.jsonl}`);
  if (variantProblems > 0) process.exitCode = 1;
}

await main();
