/**
 * The report folder around a run: one run at a time (a lock taken before anything is sent), writable before anything is
 * sent, and whatever ends the run, no report at its top level is an earlier run's: those move to `previous/`, which keeps
 * the reports of the last run that started however many runs then fail to start.
 */
import { lstat, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { RunError } from '../model/errors.js';
import { makeFolder } from './atomic-write.js';
import { NOT_STARTED_FILE } from './report-files.js';
import { fileOf, ORDER } from './reporter-names.js';
import { unwritableReason } from './unwritable-dir.js';

/** Where the reports of the previous run in the same folder are kept. */
export const PREVIOUS_FOLDER = 'previous';

/** The file that says a run is writing into the folder. */
export const LOCK_FILE = '.petstore-conformance.lock';

/** The reports a run that started leaves in the folder: the file of every reporter that writes one. */
const REPORTS: readonly string[] = ORDER.flatMap((name) => fileOf(name) ?? []);

/** Every file a run may leave in the folder: its reports, or the note of a run that could not start. */
const RUN_FILES: readonly string[] = [...REPORTS, NOT_STARTED_FILE];

/** What an interrupted write leaves behind: a report's temporary file (atomic-write.ts) or the folder's write probe. */
const LEFTOVER = new RegExp(
  `^(?:(?:${RUN_FILES.map((name) => name.replaceAll('.', '\\.')).join('|')})\\.\\d+\\.\\d+\\.tmp|\\.petstore-conformance-\\d+\\.probe)$`,
);

/** The control characters a message writes as a person would type them. */
const NAMED_CONTROLS: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A path as a message shows it: control characters (an escape sequence, a line break) written as escapes, never raw. */
export function shownPath(file: string): string {
  return file.replace(/\p{Cc}/gu, (c) => NAMED_CONTROLS[c] ?? `\\x${(c.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}`);
}

/** What stands at a path: a regular file, something else, or nothing. */
async function kindAt(file: string): Promise<'file' | 'other' | 'none'> {
  return lstat(file).then(
    (stats) => (stats.isFile() ? 'file' : 'other'),
    () => 'none',
  );
}

/** The run that holds a folder's lock, as its lock file says. */
interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

/** Whether the process that wrote a lock on this host still runs (a lock of a run killed with SIGKILL is left behind). */
function holderRuns(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(lock: string): Promise<LockHolder | undefined> {
  try {
    const holder = JSON.parse(await readFile(lock, 'utf8')) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.startedAt === 'string')
      return { pid: holder.pid, host: holder.host, startedAt: holder.startedAt };
  } catch {
    // Unreadable or half written: a run killed while it wrote the lock.
  }
  return undefined;
}

/**
 * Takes the folder for this run: a second run into a folder that a running run holds is refused before anything is
 * sent (its reports would replace the other's). A lock left by a run that no longer runs is taken over. Returns what
 * gives it back.
 */
async function lockFolder(dir: string): Promise<() => Promise<void>> {
  const lock = path.join(dir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeFile(lock, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      return async () => {
        const holder = await readHolder(lock);
        if (holder?.pid === mine.pid && holder.startedAt === mine.startedAt) await rm(lock, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const holder = await readHolder(lock);
    if (holder !== undefined && holderRuns(holder))
      throw new RunError(
        'ERR_REPORT_WRITE',
        `another run (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) is writing its reports to ${shownPath(dir)}: ` +
          `give this run another --report-dir, or wait for that one to end (if none runs, remove ${shownPath(lock)}); nothing was sent`,
      );
    await rm(lock, { force: true });
  }
}

/** Removes what interrupted writes left in the folder and in `previous/` (only the lock holder may: no other run writes there). */
async function removeLeftovers(dir: string): Promise<void> {
  for (const folder of [dir, path.join(dir, PREVIOUS_FOLDER)]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) if (LEFTOVER.test(name)) await rm(path.join(folder, name), { force: true });
  }
}

/**
 * Makes sure the reports can be written before any request is sent: the folder exists, takes a file, is not being
 * written by another run, and nothing but a file stands where a report will be written. Moves nothing. Returns what
 * gives the folder back once the reports are written.
 */
export async function claimReportDir(dir: string): Promise<() => Promise<void>> {
  const unwritable = async (error: unknown): Promise<never> => {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = await unwritableReason(dir, code);
    throw new RunError(
      'ERR_REPORT_WRITE',
      `cannot write the reports to ${shownPath(dir)} (${code ?? 'error'})${hint === undefined ? '' : `: ${hint}`}; nothing was sent`,
    );
  };
  let release: () => Promise<void>;
  try {
    await makeFolder(dir);
    release = await lockFolder(dir);
  } catch (error) {
    if (error instanceof RunError) throw error;
    return unwritable(error);
  }
  try {
    await removeLeftovers(dir);
    for (const name of RUN_FILES)
      if ((await kindAt(path.join(dir, name))) === 'other')
        throw new RunError(
          'ERR_REPORT_WRITE',
          `cannot write the reports to ${shownPath(dir)}: ${name} there is not a file (a folder or a link); nothing was sent`,
        );
  } catch (error) {
    await release();
    if (error instanceof RunError) throw error;
    return unwritable(error);
  }
  return release;
}

/**
 * Before this run's first report (it started, or could not start): the reports an earlier run that started left in the
 * folder move into `previous/` (replacing the set kept there), and the note of an earlier run that could not start is
 * removed, so that `previous/` keeps the last reports of a run that started. Returns the files moved aside.
 */
export async function setAsideEarlierReports(dir: string): Promise<string[]> {
  const earlier = await reportsIn(dir);
  const fail = (what: string, error: unknown): never => {
    throw new RunError(
      'ERR_REPORT_WRITE',
      `cannot ${what} in ${shownPath(dir)} (${(error as NodeJS.ErrnoException).code ?? 'error'}); the run did not start`,
    );
  };
  const previous = path.join(dir, PREVIOUS_FOLDER);
  if (earlier.length > 0) {
    try {
      await makeFolder(previous);
      // One run's set in previous/: a report the earlier run did not write must not be left from a run before it.
      for (const name of RUN_FILES) await rm(path.join(previous, name), { force: true });
    } catch (error) {
      fail('make room for the earlier reports in previous/', error);
    }
  }
  for (const name of earlier) {
    try {
      await rename(path.join(dir, name), path.join(previous, name));
    } catch (error) {
      fail(`move the earlier ${name} aside`, error);
    }
  }
  if ((await kindAt(path.join(dir, NOT_STARTED_FILE))) === 'file')
    await rm(path.join(dir, NOT_STARTED_FILE), { force: true }).catch((error: unknown) =>
      fail(`remove the earlier ${NOT_STARTED_FILE}`, error),
    );
  return earlier;
}

/** The reports of a run that started that stand in `folder` as files. */
async function reportsIn(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of REPORTS) if ((await kindAt(path.join(folder, name))) === 'file') found.push(name);
  return found;
}

/** Whether `folder` holds a report of a run that started. */
export async function hasReports(folder: string): Promise<boolean> {
  return (await reportsIn(folder)).length > 0;
}
