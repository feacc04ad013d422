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
 * Seconds each file of test/e2e/ takes alone past tap's start-up (measured on 2026-11-29, `npx tap test/e2e/NAME.test.ts` on
 * the 2-core machine): what shares the files between the two processes. A file not listed counts as 2 s.
 */
const E2E_SECONDS: Readonly<Record<string, number>> = {
  'fault-signals.test.ts': 12.5,
  'reports.test.ts': 10,
  'cli.test.ts': 8.5,
  'fault-bounds.test.ts': 6.7,
  'verdict.test.ts': 4.4,
  'team-scenarios.test.ts': 3.5,
  'wire.test.ts': 3.2,
  'fuzz.test.ts': 3.1,
  'connection-settings.test.ts': 3,
  'key-redaction.test.ts': 2.8,
};

/**
 * The URLs of the whole runs in process (test/e2e/): the CLI's command or the engine against a server on 127.0.0.1; with a
 * half (0 or 1), the files of one of two processes, shared longest first to whichever has less so far (E2E_SECONDS): their
 * runs wait on servers as much as they compute, and two processes overlap those waits.
 */
export async function e2eFiles(half?: 0 | 1): Promise<string[]> {
  const files = await testFiles('e2e');
  if (half === undefined) return files;
  const seconds = (url: string): number => E2E_SECONDS[url.slice(url.lastIndexOf('/') + 1)] ?? 2;
  const halves: [string[], string[]] = [[], []];
  const load = [0, 0];
  for (const url of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const to = (load[0] ?? 0) <= (load[1] ?? 0) ? 0 : 1;
    halves[to].push(url);
    load[to] = (load[to] ?? 0) + seconds(url);
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
