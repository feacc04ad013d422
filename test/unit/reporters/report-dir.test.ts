/**
 * The report folder: one run at a time (a running run's lock refuses a second one before anything is sent; a lock a run
 * killed left behind is taken over), folders made level by level (bounded where Node's recursive mkdir never returns),
 * and paths shown with their control characters escaped.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { RunError } from '../../../src/model/errors.js';
import { makeFolder } from '../../../src/reporters/atomic-write.js';
import { claimReportDir, LOCK_FILE, shownPath } from '../../../src/reporters/report-dir.js';
import { tempDir } from '../../helpers.js';

t.test('paths are shown with control characters escaped', async (t) => {
  const rows: Array<[string, string]> = [
    ['reports', 'reports'],
    ['a\u001b[31mred', 'a\\x1b[31mred'],
    ['two\nlines\r\tx', 'two\\nlines\\r\\tx'],
    ['c1\u0085\u009b', 'c1\\x85\\x9b'],
    ['ünïcode ✓', 'ünïcode ✓'],
  ];
  for (const [raw, shown] of rows) t.equal(shownPath(raw), shown, JSON.stringify(raw));
});

t.test('a second run into a folder a running run holds is refused; the holder gives it back when it ends', async (t) => {
  const dir = await tempDir();
  const release = await claimReportDir(dir);
  const refused = await claimReportDir(dir).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.ok(refused instanceof RunError, 'refused with a RunError (exit 2)');
  t.match(
    (refused as RunError).message,
    new RegExp(`^another run \\(pid ${process.pid} on .*\\) is writing its reports to .*; nothing was sent$`),
  );
  await release();
  t.notOk(existsSync(path.join(dir, LOCK_FILE)), 'the lock is gone');
  const again = await claimReportDir(dir);
  await again();
});

t.test("a lock left by a run that no longer runs (or half written) is taken over; another host's is respected", async (t) => {
  const rows: Array<[what: string, content: string, taken: boolean]> = [
    ['a dead pid', JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), startedAt: 'then' }), true],
    ['half written', '{"pid": 12', true],
    ['another host', JSON.stringify({ pid: 1, host: `not-${hostname()}`, startedAt: 'then' }), false],
  ];
  for (const [what, content, taken] of rows) {
    const dir = await tempDir();
    await writeFile(path.join(dir, LOCK_FILE), content);
    const outcome = await claimReportDir(dir).then(
      async (release) => {
        const held = JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number };
        await release();
        return held.pid === process.pid;
      },
      () => false,
    );
    t.equal(outcome, taken, `${what}: ${taken ? 'taken over' : 'refused'}`);
  }
});

t.test('folders are made level by level, and a level the kernel refuses is an error, never a hang', async (t) => {
  const dir = await tempDir();
  await makeFolder(path.join(dir, 'a', 'b', 'c'));
  t.ok(existsSync(path.join(dir, 'a', 'b', 'c')), 'made with its parents');
  await makeFolder(path.join(dir, 'a', 'b', 'c'));
  t.pass('making it again is fine');
  await writeFile(path.join(dir, 'file'), '');
  await t.rejects(makeFolder(path.join(dir, 'file')), { code: 'EEXIST' }, 'a file where the folder would be');
  if (existsSync('/proc/self'))
    await t.rejects(makeFolder('/proc/petstore-conformance/x'), { code: 'ENOENT' }, 'under /proc: ENOENT, where Node loops');
});
