/**
 * The verdict matrix (npm run matrix): every variant of the reference server judged by a whole run, and every case and check
 * made to fail by some variant. Of the slow tier (npm run test:slow), a process of its own beside test/slow-load.test.ts,
 * test/slow.test.ts and the CI templates: tap runs the four at once (jobs 4).
 */
import t from 'tap';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { exchangeChecks, expectationCheck, transportChecks } from '../src/checks/registry.js';
import { phaseCases } from '../src/engine/phases/index.js';
import { loadCaseInputs } from '../src/engine/inputs.js';
import { PACKAGE_FOLDERS, type MatrixRow } from '../tools/matrix/matrix.js';
import type { Expectations } from '../src/model/scenario.js';
import { VARIANTS } from '../src/server/variants.js';
import { root, spawnNode } from './helpers.js';

/**
 * The matrix's rows, made as npm run matrix makes them: by a Node process of its own, from the build (dist/, which tap's
 * before script makes from this source). It is 11 s of CPU there, and 15 s in a test process, under tap's async hooks, its
 * process-info loader and the TypeScript loader.
 */
async function matrixRows(): Promise<MatrixRow[]> {
  const built = (file: string): string => JSON.stringify(pathToFileURL(path.join(root, 'dist', file)).href);
  const script = `const { runMatrix } = await import(${built('tools/matrix/matrix.js')}); const { VARIANTS } = await import(${built('src/server/variants.js')}); process.stdout.write(JSON.stringify(await runMatrix(VARIANTS)));`;
  // Bounded by what it runs (one run per variant), not by the clock: the limit is a safety net under tap's 300 s for the file,
  // where 180 s ran out on a machine with a load average of 15.
  const made = await spawnNode(['--input-type=module', '-e', script], {}, 280_000);
  if (made.code !== 0) throw new Error(`the matrix did not run (exit ${String(made.code)}): ${made.stderr}`);
  return JSON.parse(made.stdout) as MatrixRow[];
}

/** The expectation keys a block uses, `when` branches included. */
function keysOf(expectations: Expectations | undefined): string[] {
  return Object.entries(expectations ?? {}).flatMap(([key, value]) =>
    key === 'when' ? Object.values(value as Record<string, Expectations>).flatMap(keysOf) : [key],
  );
}

t.test('the suite tells every broken variant from every conformant one', async (t) => {
  const broken = VARIANTS.filter((v) => v.verdict === 'broken');
  const conformant = VARIANTS.filter((v) => v.verdict === 'conformant');
  t.ok(broken.length >= 40, `${broken.length} broken variants`);
  t.ok(conformant.length >= 10, `${conformant.length} conformant variants`);
  t.equal(new Set(VARIANTS.map((v) => v.name)).size, VARIANTS.length, 'variant names are unique');

  const unrunnable = VARIANTS.filter((v) => v.verdict === 'unrunnable');
  t.ok(unrunnable.length >= 3, `${unrunnable.length} variants no run can complete`);

  const rows = await matrixRows();
  t.same(
    rows.map((r) => r.variant),
    VARIANTS.map((v) => v.name),
    'a row for every variant, in order',
  );
  const verdicts = { broken: 'failed', conformant: 'passed', unrunnable: undefined } as const;
  for (const row of rows) {
    t.equal(
      row.verdict,
      verdicts[row.expected],
      `${row.variant} is judged ${verdicts[row.expected] ?? 'not at all: the run stops with exit 2'}`,
    );
    t.ok(row.correct, `${row.variant}: ${row.problem ?? 'told apart'}`);
  }

  // The run checks (load.*) are no rows here: a functional run sends no load. The threshold checks are made to fail by
  // test/slow/load-command.test.ts; load.trend, which needs a stage of 20 s, by npm run bench:trend over LOAD_VARIANTS (held
  // to the registry by test/unit/checks/load-trend.test.ts) and on synthetic windows by the same test file.
  // Every case, every exchange check and every expectation check the shipped cases judge by must be made to fail or warn by some variant
  // (a precondition step only gathers what its case needs: when it fails, the case is not judged, so it cannot fail there).
  const { contract, cases } = await loadCaseInputs(PACKAGE_FOLDERS, []);
  const provoked = new Set(rows.flatMap((r) => [...(r.expected === 'broken' ? r.failed : []), ...r.warned]));
  const usedKeys = new Set(
    cases.flatMap((c) =>
      c.steps
        .filter((s) => s.precondition !== true)
        .flatMap((s) => [...keysOf(s.expect), ...keysOf(s.warn), ...(s.capture === undefined ? [] : ['capture'])]),
    ),
  );
  const catalogue = [
    // Every case of every phase: the declared ones, the created-pet ones, the fuzzing properties and the stateful sequences.
    ...phaseCases({ contract, cases }).map((c) => c.id),
    ...exchangeChecks.map((c) => c.id),
    ...transportChecks.map((c) => c.id),
    ...[...usedKeys].map((key) => expectationCheck(key)?.id ?? `unregistered key ${key}`),
  ];
  for (const id of catalogue) t.ok(provoked.has(id), `some variant makes ${id} fail or warn`);
  for (const variant of VARIANTS)
    for (const id of [...variant.caughtBy, ...(variant.warnedBy ?? [])])
      t.ok(catalogue.includes(id), `${variant.name} names a real case or check: ${id}`);
});
