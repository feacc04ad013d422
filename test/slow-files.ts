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

/** The URLs of the whole runs in process (test/e2e/): the CLI's command or the engine against a server on 127.0.0.1. */
export function e2eFiles(): Promise<string[]> {
  return testFiles('e2e');
}

/** The URLs of the slow tier's files in one group: `load` (load-*.test.ts) or `other` (the rest but OWN_PROCESS). */
export async function slowFiles(group: 'load' | 'other'): Promise<string[]> {
  return (await testFiles('slow')).filter((url) => {
    const file = url.slice(url.lastIndexOf('/') + 1);
    return !OWN_PROCESS.includes(file) && file.startsWith('load-') === (group === 'load');
  });
}
