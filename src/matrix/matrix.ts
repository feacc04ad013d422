/** The verdict matrix: the engine against every variant of the reference server, in process, and whether it told them apart. */
import { randomBytes } from 'node:crypto';
import { loadCaseInputs, selectEverything, type CaseInputs, type InputFolders } from '../engine/inputs.js';
import { executePlan } from '../engine/run.js';
import { DEFAULT_HTTP_OPTIONS } from '../http/client.js';
import { DEFAULT_PACING } from '../http/pacer.js';
import { packagePath } from '../loader/package-paths.js';
import { mapConcurrently } from '../model/concurrency.js';
import type { RunReport, Verdict } from '../model/results.js';
import { startReferenceServer } from '../server/reference-server.js';
import { variantServerOptions, type Variant } from '../server/variants.js';

/** The fuzzing and stateful phases of every matrix run: one seed (the same requests every time), few examples and sequences. */
const MATRIX_GENERATED = { seed: 20_261_122, maxExamples: 10 };

/** One row of the matrix. */
export interface MatrixRow {
  variant: string;
  description: string;
  clause: string;
  expected: Variant['verdict'];
  /** The run's verdict; undefined when the run could not start (a RunError). */
  verdict?: Verdict;
  /** Ids of failed cases and of failed checks, sorted. */
  failed: string[];
  /** Ids of warned cases and of warned checks, sorted. */
  warned: string[];
  /** The variant was told apart: broken → verdict failed with a named case or check failing; conformant → verdict passed. */
  correct: boolean;
  /** The one line that stopped the run (exit 2), when it could not be completed. */
  stoppedWith?: string;
  /** Why the row is not correct, when it is not. */
  problem?: string;
  durationMs: number;
}

/** The package's own input folders. */
export const PACKAGE_FOLDERS: InputFolders = {
  schemasDir: packagePath('schemas'),
  scenarioDirs: [packagePath('scenarios')],
  suitesDir: packagePath('suites'),
  displayRoot: packagePath(),
};

function idsWith(report: RunReport, outcome: 'failed' | 'warned'): string[] {
  const ids = new Set<string>();
  for (const result of report.cases) {
    if (result.outcome === outcome) ids.add(result.id);
    for (const check of result.checks) if (check.outcome === outcome) ids.add(check.id);
  }
  // A run finding is a warning of the run, by its check id.
  if (outcome === 'warned') for (const finding of report.findings) ids.add(finding.id);
  return [...ids].sort();
}

/** Runs every case against one variant and judges the outcome. */
async function runVariant(variant: Variant, inputs: CaseInputs): Promise<MatrixRow> {
  const apiKey = `matrix-${randomBytes(12).toString('hex')}`;
  const server = await startReferenceServer({ apiKey, ...variantServerOptions(variant) });
  const started = performance.now();
  const row: MatrixRow = {
    variant: variant.name,
    description: variant.description,
    clause: variant.clause,
    expected: variant.verdict,
    failed: [],
    warned: [],
    correct: false,
    durationMs: 0,
  };
  try {
    const baseUrl = variant.basePath === undefined ? server.baseUrl : server.baseUrl.replace(/\/v1$/, variant.basePath);
    const report = await executePlan(
      {
        contract: inputs.contract,
        target: { baseUrl, apiKey },
        // The slowest conformant variant shows a write after 300 ms, so a 600 ms window is enough and keeps broken rows quick.
        // The fuzzing phase runs with a fixed seed, so that the matrix judges the same requests every time.
        selection: selectEverything(inputs),
        settings: {
          ...MATRIX_GENERATED,
          readOnly: false,
          concurrency: 4,
          consistencyWindowMs: 600,
          categoryId: 1,
          pacing: DEFAULT_PACING,
          maxWrites: 500,
          now: variant.clock === undefined ? new Date() : new Date(`${variant.clock}T12:00:00Z`),
          strict: false,
          // A variant that leaves a request unanswered must not hold the matrix for the default 15 s; every other answer comes in milliseconds.
          requestTimeoutMs: 3_000,
          maxResponseBytes: DEFAULT_HTTP_OPTIONS.maxResponseBytes,
          excerptBytes: 512,
        },
        disabled: [],
        recordedOptions: {},
      },
      {},
    );
    row.verdict = report.verdict;
    row.failed = idsWith(report, 'failed');
    row.warned = idsWith(report, 'warned');
  } catch (error) {
    row.stoppedWith = error instanceof Error ? error.message : String(error);
    row.problem = `the run could not be completed: ${row.stoppedWith}`;
    row.stoppedWith = error instanceof Error ? error.message : String(error);
  } finally {
    await server.close();
    row.durationMs = Math.round(performance.now() - started);
  }
  if (variant.verdict === 'unrunnable') {
    const stopped = row.stoppedWith;
    row.correct = stopped?.includes(variant.stopsWith ?? '') === true && !stopped.includes('\n');
    if (row.correct) delete row.problem;
    else if (stopped === undefined) row.problem = `a run that cannot be completed was judged ${row.verdict ?? ''}`;
    return row;
  }
  if (row.verdict === undefined) return row;
  if (variant.verdict === 'conformant') {
    const unwarned = (variant.warnedBy ?? []).filter((id) => !row.warned.includes(id));
    row.correct = row.verdict === 'passed' && unwarned.length === 0;
    if (row.verdict !== 'passed') row.problem = `a conformant variant was judged ${row.verdict} (${row.failed.join(', ')})`;
    else if (unwarned.length > 0) row.problem = `expected warnings missing: ${unwarned.join(', ')}`;
  } else {
    const named = variant.caughtBy.some((id) => row.failed.includes(id));
    row.correct = row.verdict === 'failed' && named;
    if (!row.correct)
      row.problem =
        row.verdict !== 'failed' ? `a broken variant was judged ${row.verdict}` : `none of ${variant.caughtBy.join(', ')} failed`;
  }
  return row;
}

/** Runs every variant, a few at once; rows come back in the order of `variants`. */
export async function runMatrix(variants: readonly Variant[], concurrency = 6): Promise<MatrixRow[]> {
  const inputs = await loadCaseInputs(PACKAGE_FOLDERS, []);
  return mapConcurrently(variants, concurrency, (variant) => runVariant(variant, inputs));
}

/** Catch rate over broken variants and pass rate over conformant ones. */
export function matrixRates(rows: readonly MatrixRow[]): {
  caught: number;
  broken: number;
  passed: number;
  conformant: number;
  stopped: number;
  unrunnable: number;
} {
  const of = (expected: Variant['verdict']): { correct: number; all: number } => {
    const some = rows.filter((r) => r.expected === expected);
    return { correct: some.filter((r) => r.correct).length, all: some.length };
  };
  const [broken, conformant, unrunnable] = [of('broken'), of('conformant'), of('unrunnable')];
  return {
    caught: broken.correct,
    broken: broken.all,
    passed: conformant.correct,
    conformant: conformant.all,
    stopped: unrunnable.correct,
    unrunnable: unrunnable.all,
  };
}

/** The matrix as a Markdown table (for the terminal and docs/checks-explained.md). */
export function renderMatrix(rows: readonly MatrixRow[]): string {
  const lines = ['| variant | expected | verdict | failed (or warned) cases and checks | told apart |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const named =
      r.expected === 'broken'
        ? r.failed
        : r.expected === 'unrunnable'
          ? [`stopped: ${r.stoppedWith ?? ''}`]
          : r.warned.map((id) => `${id} (warn)`);
    const shown = named.slice(0, 4).join(', ') + (named.length > 4 ? `, +${named.length - 4}` : '');
    lines.push(
      `| ${r.variant} | ${r.expected} | ${r.verdict ?? 'could not run'} | ${shown || '—'} | ${r.correct ? 'yes' : `**NO**: ${r.problem ?? ''}`} |`,
    );
  }
  const rates = matrixRates(rows);
  const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)}%`);
  lines.push(
    '',
    `caught ${rates.caught}/${rates.broken} broken variants (${pct(rates.caught, rates.broken)}); passed ${rates.passed}/${rates.conformant} conformant variants (${pct(rates.passed, rates.conformant)}); stopped ${rates.stopped}/${rates.unrunnable} runs that cannot be completed with exit 2 and one line`,
  );
  return lines.join('\n');
}
