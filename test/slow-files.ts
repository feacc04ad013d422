/**
 * Which process of the test tiers runs each test file: every file of test/unit/ in the fast tier's, every file of test/e2e/
 * in the whole runs' one, and every file of test/slow/ in exactly one of the slow tier's, so a new file is never left out.
 */
import { readdir } from 'node:fs/promises';

/**
 * The slow files tap runs as they are, each a process of its own beside the others: the CI templates', which build this
 * repository twice from a checkout and run the suite seven times, a budget of their own.
 */
export const OWN_PROCESS = ['ci-templates.test.ts'];

/** The URLs of the *.test.ts files under a folder of test/ (its subfolders too), in the order of their paths. */
async function testFiles(name: string, recursive = false): Promise<string[]> {
  const folder = new URL(`./${name}/`, import.meta.url);
  return (await readdir(folder, { recursive }))
    .filter((file) => file.endsWith('.test.ts'))
    .sort()
    .map((file) => new URL(file, folder).href);
}

/** The URLs of the fast tier's files: every *.test.ts under test/unit/. */
export function unitFiles(): Promise<string[]> {
  return testFiles('unit', true);
}

/**
 * Seconds each file of test/e2e/ takes alone, as tap reports it (measured on 2026-12-07, `npx tap test/e2e/NAME.test.ts` on
 * the 2-core machine, nothing else running): what shares the files between the two processes. Each includes the seconds
 * of loading the engine that files in one process share (E2E_LOAD_SECONDS); a file not listed counts as 4 s.
 */
const E2E_SECONDS: Readonly<Record<string, number>> = {
  'reports.test.ts': 14.3,
  'fault-bounds.test.ts': 12.7,
  'cli.test.ts': 11.8,
  'key-redaction.test.ts': 7.0,
  'verdict.test.ts': 6.9,
  'team-scenarios.test.ts': 6.7,
  'connection-close.test.ts': 6.7,
  'fuzz.test.ts': 6.6,
  'output-and-exit.test.ts': 6.5,
  'wire.test.ts': 5.5,
  'content-coding.test.ts': 5.2,
  'baseline.test.ts': 5.2,
  'connection-settings.test.ts': 5.1,
  'not-started.test.ts': 4.8,
  'fault-redaction.test.ts': 4.8,
  'could-not-run.test.ts': 4.7,
  'api-key.test.ts': 4.6,
  'min-judged.test.ts': 4.4,
  'fault-signals.test.ts': 4.1,
  'write-gate.test.ts': 3.7,
  'reporter-snapshots.test.ts': 3.6,
  'fault-tls.test.ts': 3.4,
  'list.test.ts': 3.3,
  'wait-for.test.ts': 3.1,
};

/**
 * What each file's seconds spend loading what a process loads once: the 24 files take 145 s alone and 68 s in the two
 * processes of `npm test`.
 */
const E2E_LOAD_SECONDS = 3.2;

/**
 * Seconds of the other two processes of `npm test`, as they take beside the others: the fast tier's, and the typecheck's
 * after an edit or in a fresh clone (15 to 16 s; 1 s when nothing changed since the last check).
 */
const FAST_TIER_SECONDS = 22;
const TYPECHECK_SECONDS = 16;

/**
 * The URLs of the whole runs in process (test/e2e/): the CLI's command or the engine against a server on 127.0.0.1; with a
 * half (0 or 1), the files of one of its two processes. `npm test` runs its four processes two at a time (one a core), in
 * the order it names them: the fast tier follows e2e-a on one core, the typecheck e2e-b on the other, so e2e-a takes the
 * share of the seconds that ends both cores together, the longest files first (E2E_SECONDS).
 */
export async function e2eFiles(half?: 0 | 1): Promise<string[]> {
  const files = await testFiles('e2e');
  if (half === undefined) return files;
  const seconds = (url: string): number => (E2E_SECONDS[url.slice(url.lastIndexOf('/') + 1)] ?? 4) - E2E_LOAD_SECONDS;
  const total = files.reduce((sum, url) => sum + seconds(url), 0);
  const shareOfA = (total + TYPECHECK_SECONDS - FAST_TIER_SECONDS) / 2;
  const halves: [string[], string[]] = [[], []];
  let loadOfA = 0;
  for (const url of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const toA = loadOfA + seconds(url) <= shareOfA;
    halves[toA ? 0 : 1].push(url);
    if (toA) loadOfA += seconds(url);
  }
  return halves[half].sort();
}

/** The URLs of the slow tier's files in one group: `load` (load-*.test.ts) or `other` (the rest but OWN_PROCESS). */
export async function slowFiles(group: 'load' | 'other'): Promise<string[]> {
  return (await testFiles('slow')).filter((url) => {
    const file = url.slice(url.lastIndexOf('/') + 1);
    return !OWN_PROCESS.includes(file) && file.startsWith('load-') === (group === 'load');
  });
}
