/** The verdict matrix: the real CLI against every variant of the reference server, and whether it told them apart. */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packagePath } from '../loader/package-paths.js';
import { mapConcurrently } from '../model/concurrency.js';
import type { RunReport } from '../model/results.js';
import { startReferenceServer } from '../server/reference-server.js';
import { variantServerOptions, type Variant } from '../server/variants.js';

/** One row of the matrix. */
export interface MatrixRow {
  variant: string;
  description: string;
  clause: string;
  expected: Variant['verdict'];
  exitCode: number | null;
  /** Ids of failed checks and of failed assertions, sorted. */
  failed: string[];
  /** Ids of warned checks and of warned assertions, sorted. */
  warned: string[];
  /** The variant was told apart: broken → exit 1 with a named check failing; conformant → exit 0. */
  correct: boolean;
  /** Why the row is not correct, when it is not. */
  problem?: string;
  durationMs: number;
}

/** The CLI entry point the matrix runs. */
const CLI = packagePath('dist', 'cli', 'main.js');

function runCli(args: string[], env: Record<string, string>, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env }, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

function idsWith(report: RunReport, outcome: 'failed' | 'warned'): string[] {
  const ids = new Set<string>();
  for (const check of report.checks) {
    if (check.outcome === outcome) ids.add(check.id);
    for (const assertion of check.assertions) if (assertion.outcome === outcome) ids.add(assertion.id);
  }
  return [...ids].sort();
}

/** Runs the CLI against one variant and judges the outcome. */
async function runVariant(variant: Variant, timeoutMs = 60_000): Promise<MatrixRow> {
  const apiKey = `matrix-${randomBytes(12).toString('hex')}`;
  const server = await startReferenceServer({ apiKey, ...variantServerOptions(variant) });
  const reportDir = await mkdtemp(path.join(tmpdir(), `matrix-${variant.name}-`));
  const started = performance.now();
  try {
    // The slowest conformant variant shows a write after 300 ms, so a 600 ms window is enough and keeps broken rows quick.
    const baseUrl = variant.basePath === undefined ? server.baseUrl : server.baseUrl.replace(/\/v1$/, variant.basePath);
    const exitCode = await runCli(['run', '--base-url', baseUrl, '--report-dir', reportDir, '--reporter', 'json', '--quiet', '--consistency-window', '600', ...(variant.args ?? [])], { PETSTORE_API_KEY: apiKey }, timeoutMs);
    let failed: string[] = [];
    let warned: string[] = [];
    try {
      const report = JSON.parse(await readFile(path.join(reportDir, 'report.json'), 'utf8')) as RunReport;
      failed = idsWith(report, 'failed');
      warned = idsWith(report, 'warned');
    } catch {
      // No report: the exit code says what happened.
    }
    const row: MatrixRow = { variant: variant.name, description: variant.description, clause: variant.clause, expected: variant.verdict, exitCode, failed, warned, correct: false, durationMs: Math.round(performance.now() - started) };
    if (variant.verdict === 'conformant') {
      const unwarned = (variant.warnedBy ?? []).filter((id) => !warned.includes(id));
      row.correct = exitCode === 0 && unwarned.length === 0;
      if (exitCode !== 0) row.problem = `a conformant variant was failed (exit ${String(exitCode)}: ${failed.join(', ')})`;
      else if (unwarned.length > 0) row.problem = `expected warnings missing: ${unwarned.join(', ')}`;
    } else {
      const named = variant.caughtBy.some((id) => failed.includes(id));
      row.correct = exitCode === 1 && named;
      if (!row.correct) row.problem = exitCode !== 1 ? `a broken variant exited ${String(exitCode)}` : `none of ${variant.caughtBy.join(', ')} failed`;
    }
    return row;
  } finally {
    await server.close();
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** Runs every variant, a few at once; rows come back in the order of `variants`. */
export async function runMatrix(variants: readonly Variant[], concurrency = 4): Promise<MatrixRow[]> {
  return mapConcurrently(variants, concurrency, (variant) => runVariant(variant));
}

/** Catch rate over broken variants and pass rate over conformant ones. */
export function matrixRates(rows: readonly MatrixRow[]): { caught: number; broken: number; passed: number; conformant: number } {
  const broken = rows.filter((r) => r.expected === 'broken');
  const conformant = rows.filter((r) => r.expected === 'conformant');
  return { caught: broken.filter((r) => r.correct).length, broken: broken.length, passed: conformant.filter((r) => r.correct).length, conformant: conformant.length };
}

/** The matrix as a Markdown table (for the terminal and the README). */
export function renderMatrix(rows: readonly MatrixRow[]): string {
  const lines = ['| variant | expected | exit | failed (or warned) checks | told apart |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const named = r.expected === 'broken' ? r.failed : r.warned.map((id) => `${id} (warn)`);
    const shown = named.slice(0, 4).join(', ') + (named.length > 4 ? `, +${named.length - 4}` : '');
    lines.push(`| ${r.variant} | ${r.expected} | ${String(r.exitCode)} | ${shown || '—'} | ${r.correct ? 'yes' : `**NO**: ${r.problem ?? ''}`} |`);
  }
  const rates = matrixRates(rows);
  const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)}%`);
  lines.push('', `caught ${rates.caught}/${rates.broken} broken variants (${pct(rates.caught, rates.broken)}); passed ${rates.passed}/${rates.conformant} conformant variants (${pct(rates.passed, rates.conformant)})`);
  return lines.join('\n');
}
