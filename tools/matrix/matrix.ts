/** The verdict matrix: the engine against every variant of the reference server, in process, and whether it told them apart. */
import { randomBytes } from 'node:crypto';
import { planRun } from '../../src/cli/plan.js';
import type { GivenValues } from '../../src/cli/options.js';
import type { InputFolders } from '../../src/engine/inputs.js';
import { executePlan } from '../../src/engine/run.js';
import { packagePath } from '../../src/loader/package-paths.js';
import { mapConcurrently } from '../../src/model/concurrency.js';
import type { RunReport, Verdict } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { variantServerOptions, type Variant } from '../../src/server/variants.js';

/**
 * The options of every matrix run, as a command line would give them; the CLI's planner makes the plan, as for
 * `petstore-conformance run`. One seed: the generated phases send the same requests every time. Few examples. The slowest
 * conformant variant shows a write after 300 ms, so a 600 ms consistency window is enough and keeps broken rows quick. A
 * variant that leaves a request unanswered must not hold the matrix for the default 15 s: every other answer comes in ms.
 */
const MATRIX_FLAGS = { seed: 20_261_122, 'max-examples': 10, 'consistency-window': 600, timeout: 3_000 } satisfies GivenValues;

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

/** The flags of one variant's run: its base URL (given as is, unchecked: two variants test a base URL the CLI refuses) and clock. */
function variantFlags(variant: Variant, baseUrl: string): GivenValues {
  const url = variant.basePath === undefined ? baseUrl : baseUrl.replace(/\/v1$/, variant.basePath);
  return { ...MATRIX_FLAGS, 'base-url': url, ...(variant.clock === undefined ? {} : { now: new Date(`${variant.clock}T12:00:00Z`) }) };
}

/** Runs every case against one variant and judges the outcome. */
async function runVariant(variant: Variant): Promise<MatrixRow> {
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
    const { plan } = await planRun(variantFlags(variant, server.baseUrl), { PETSTORE_API_KEY: apiKey });
    const report = await executePlan(plan, {});
    row.verdict = report.verdict;
    row.failed = idsWith(report, 'failed');
    row.warned = idsWith(report, 'warned');
  } catch (error) {
    row.stoppedWith = error instanceof Error ? error.message : String(error);
    row.problem = `the run could not be completed: ${row.stoppedWith}`;
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
  return mapConcurrently(variants, concurrency, runVariant);
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
