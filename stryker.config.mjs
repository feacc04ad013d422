// @ts-check
/**
 * StrykerJS: mutation testing of the reference pet store, the measure of the suite's reach (`npm run mutation`, never
 * part of `npm test`). Each mutant of src/server/reference-server.ts and src/server/store.ts is judged by one whole
 * conformance run in process against the embedded reference server (test/mutation/conformance-run.ts): killed when the
 * verdict is not passed. Surviving mutants are explained in mutation/survivors.md.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** The files Stryker mutates; its incremental mode diffs these itself. */
const MUTATED = ['src/server/reference-server.ts', 'src/server/store.ts'];

/** Everything else that decides a verdict: the suite's code, its cases and schemas, and the run Stryker starts. */
const SUITE = ['src', 'scenarios', 'suites', 'schemas', 'test/mutation'];

/** Every file under `folder`, in a stable order. */
function files(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const file = path.join(folder, entry.name);
      return entry.isDirectory() ? files(file) : [file];
    });
}

/**
 * Stryker's incremental mode knows a result is stale only when a mutated file or the test file changed, not when a check
 * or a scenario did (a new check may kill a mutant that survived). So the incremental file is named by a hash of the suite:
 * a changed suite starts from nothing (a full run), an unchanged one reruns only the mutants of changed code.
 */
function suiteHash() {
  const hash = createHash('sha256');
  for (const file of SUITE.flatMap(files)) {
    if (MUTATED.includes(file.split(path.sep).join('/'))) continue;
    hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const REPORTS = 'reports/mutation';
const incrementalFile = `${REPORTS}/incremental-${suiteHash()}.json`;
// Results of an earlier suite can never be reused: dropped, so the folder holds one.
try {
  for (const name of readdirSync(REPORTS))
    if (/^incremental-[0-9a-f]{16}\.json$/.test(name) && `${REPORTS}/${name}` !== incrementalFile && statSync(`${REPORTS}/${name}`).isFile())
      rmSync(`${REPORTS}/${name}`);
} catch {
  // No reports yet.
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  plugins: ['@stryker-mutator/tap-runner'],
  testRunner: 'tap',
  tap: {
    testFiles: ['test/mutation/conformance-run.ts'],
    // tap's own TypeScript loader (ts-node with swc, as `npm test` runs the source), then Stryker's coverage hook.
    nodeArgs: ['--import', '@tapjs/typescript/import', '-r', '{{hookFile}}', '{{testFile}}'],
  },
  mutate: MUTATED,
  coverageAnalysis: 'perTest',
  // Two cores, shared: one run at a time keeps the timings honest.
  concurrency: 2,
  timeoutMS: 5_000,
  incremental: true,
  incrementalFile,
  ignorePatterns: ['dist', 'reports', '.tap', '*.tsbuildinfo', 'docs', 'bench', 'deploy', 'ci', '.ci', 'test/fixtures', 'test/snapshots'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${REPORTS}/mutation.html` },
  jsonReporter: { fileName: `${REPORTS}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true },
};
