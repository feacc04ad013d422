/** The one line a report folder that cannot be written ends in: whose folder it is, who runs, and what to do. */
import t from 'tap';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { unwritableHint, unwritableReason } from '../../../src/reporters/unwritable-dir.js';
import { tempDir } from '../../helpers.js';

t.test('the hint names the owner, the uid that runs and the way out, for the causes it can explain', async (t) => {
  const cases: Array<[string, Parameters<typeof unwritableHint>, RegExp | undefined]> = [
    [
      'a folder Docker created (root, 755) and the image user',
      ['EACCES', '/data/reports', { uid: 0, mode: 0o40755 }, 1000],
      /^\/data\/reports belongs to uid 0 \(mode 755\) and this process runs as uid 1000: run as the folder's owner, or make it writable by uid 1000 \(a container: docker run --user "\$\(id -u\):\$\(id -g\)" -v "\$PWD:\/data"/,
    ],
    ['a runner user (1001) and the image user', ['EPERM', '/data', { uid: 1001, mode: 0o40700 }, 1000], /belongs to uid 1001 \(mode 700\)/],
    [
      'its own folder, read-only',
      ['EACCES', '/r', { uid: 1000, mode: 0o40555 }, 1000],
      /^\/r belongs to this process's uid 1000 but its mode 555/,
    ],
    ['a read-only file system', ['EROFS', '/data', undefined, 1000], /^\/data is on a read-only file system: choose another --report-dir/],
    ['a full disk: the code says it all', ['ENOSPC', '/data', { uid: 0, mode: 0o40755 }, 0], undefined],
    ['no uid to compare (Windows)', ['EACCES', 'C:\\r', { uid: 0, mode: 0o40755 }, undefined], undefined],
  ];
  for (const [name, args, expected] of cases) {
    const hint = unwritableHint(...args);
    if (expected === undefined) t.equal(hint, undefined, name);
    else t.match(hint, expected, name);
    t.notMatch(hint ?? '', /\n/, `${name}: one line`);
  }
});

t.test('the owner is read from the nearest folder that exists on the way', async (t) => {
  const dir = await tempDir();
  const locked = path.join(dir, 'locked');
  await mkdir(locked);
  await chmod(locked, 0o500);
  t.match(await unwritableReason(path.join(locked, 'a', 'reports'), 'EACCES'), `${locked} belongs to`);
  t.equal(await unwritableReason(path.join(locked, 'reports'), 'ENOTDIR'), undefined);
});
