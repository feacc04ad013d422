/**
 * The report folder around a run: writable before anything is sent; the reports an earlier run left there moved aside
 * only once this run starts, so that a run that cannot start leaves the last good reports where they were.
 */
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RunError } from '../model/errors.js';
import { NOT_STARTED_FILE, REPORT_FILES } from './file-reporter.js';
import { unwritableReason } from './unwritable-dir.js';

/** Where the reports of the previous run in the same folder are kept. */
export const PREVIOUS_FOLDER = 'previous';

/** Every file a run may leave in the folder: its reports, or the note of a run that could not start. */
const RUN_FILES: readonly string[] = [...Object.values(REPORT_FILES), NOT_STARTED_FILE];

/** What stands at a path: a regular file, something else, or nothing. */
async function kindAt(file: string): Promise<'file' | 'other' | 'none'> {
  return lstat(file).then(
    (stats) => (stats.isFile() ? 'file' : 'other'),
    () => 'none',
  );
}

/**
 * Makes sure the reports can be written before any request is sent: the folder exists and takes a file, and nothing but
 * a file stands where a report will be written. Moves nothing.
 */
export async function checkReportDir(dir: string): Promise<void> {
  const probe = path.join(dir, `.petstore-conformance-${process.pid}.probe`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = await unwritableReason(dir, code);
    throw new RunError(
      'ERR_REPORT_WRITE',
      `cannot write the reports to ${dir} (${code ?? 'error'})${hint === undefined ? '' : `: ${hint}`}; nothing was sent`,
    );
  }
  for (const name of RUN_FILES)
    if ((await kindAt(path.join(dir, name))) === 'other')
      throw new RunError(
        'ERR_REPORT_WRITE',
        `cannot write the reports to ${dir}: ${name} there is not a file (a folder or a link); nothing was sent`,
      );
}

/**
 * Once the run has started (the service answered its first listing), moves the files an earlier run left in the folder
 * into `previous/` (replacing the ones kept there): whatever ends this run, no report in the folder is an earlier run's.
 * Returns the files moved aside.
 */
export async function setAsideEarlierReports(dir: string): Promise<string[]> {
  const moved: string[] = [];
  for (const name of RUN_FILES) {
    const file = path.join(dir, name);
    if ((await kindAt(file)) !== 'file') continue;
    try {
      await mkdir(path.join(dir, PREVIOUS_FOLDER), { recursive: true });
      await rename(file, path.join(dir, PREVIOUS_FOLDER, name));
    } catch (error) {
      throw new RunError(
        'ERR_REPORT_WRITE',
        `cannot move the earlier ${name} in ${dir} aside (${(error as NodeJS.ErrnoException).code ?? 'error'}); the run did not start`,
      );
    }
    moved.push(name);
  }
  return moved;
}
