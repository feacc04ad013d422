/** The report folder before a run: writable, and holding no report of an earlier run that a pipeline could take for this one's. */
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RunError } from '../model/errors.js';
import { REPORT_FILES } from './file-reporter.js';
import { unwritableReason } from './unwritable-dir.js';

/** Where the reports of the previous run in the same folder are kept. */
export const PREVIOUS_FOLDER = 'previous';

/** What stands at a path: a regular file, something else, or nothing. */
async function kindAt(file: string): Promise<'file' | 'other' | 'none'> {
  return lstat(file).then(
    (stats) => (stats.isFile() ? 'file' : 'other'),
    () => 'none',
  );
}

/**
 * Makes sure the reports can be written before any request is sent, and moves the reports an earlier run left there into
 * `previous/` (replacing the ones kept there): whatever ends this run, no report in the folder is an earlier run's. Returns
 * the files moved aside.
 */
export async function prepareReportDir(dir: string): Promise<string[]> {
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
  const moved: string[] = [];
  for (const name of Object.values(REPORT_FILES)) {
    const file = path.join(dir, name);
    const kind = await kindAt(file);
    if (kind === 'none') continue;
    if (kind === 'other')
      throw new RunError(
        'ERR_REPORT_WRITE',
        `cannot write the reports to ${dir}: ${name} there is not a file (a folder or a link); nothing was sent`,
      );
    try {
      await mkdir(path.join(dir, PREVIOUS_FOLDER), { recursive: true });
      await rename(file, path.join(dir, PREVIOUS_FOLDER, name));
    } catch (error) {
      throw new RunError(
        'ERR_REPORT_WRITE',
        `cannot move the earlier ${name} in ${dir} aside (${(error as NodeJS.ErrnoException).code ?? 'error'}); nothing was sent`,
      );
    }
    moved.push(name);
  }
  return moved;
}
