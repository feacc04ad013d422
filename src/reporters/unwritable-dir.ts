/** Why a report folder cannot be written, in words a person can act on: whose folder it is, who runs, and what to do. */
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** A folder's owner and permission bits. */
export interface FolderOwner {
  uid: number;
  mode: number;
}

/**
 * The hint for a failed write into a report folder: `folder` is the nearest folder that exists on the way to it (the one
 * that refused), `self` the uid this process runs as. Undefined when the code has no hint to give.
 */
export function unwritableHint(
  code: string | undefined,
  folder: string,
  owner: FolderOwner | undefined,
  self: number | undefined,
): string | undefined {
  if (code === 'EROFS') return `${folder} is on a read-only file system: choose another --report-dir, or mount a writable folder there`;
  if ((code !== 'EACCES' && code !== 'EPERM') || owner === undefined || self === undefined) return undefined;
  const mode = (owner.mode & 0o7777).toString(8);
  const whose =
    owner.uid === self
      ? `${folder} belongs to this process's uid ${self} but its mode ${mode} does not let it write`
      : `${folder} belongs to uid ${owner.uid} (mode ${mode}) and this process runs as uid ${self}`;
  // A container whose folder Docker created (root's) or whose host user is not the image's is the usual way here.
  return (
    `${whose}: run as the folder's owner, or make it writable by uid ${self} (a container: docker run --user "$(id -u):$(id -g)" -v ` +
    `"$PWD:/data" writes reports/ in the current folder)`
  );
}

/** The hint for a failed write into `dir` (see unwritableHint), reading the owner of the nearest folder that exists. */
export async function unwritableReason(dir: string, code: string | undefined): Promise<string | undefined> {
  let folder = path.resolve(dir);
  for (;;) {
    const stats = await stat(folder).catch(() => undefined);
    if (stats !== undefined)
      return stats.isDirectory() ? unwritableHint(code, folder, { uid: stats.uid, mode: stats.mode }, process.getuid?.()) : undefined;
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}
