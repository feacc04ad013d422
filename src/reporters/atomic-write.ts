/** Writes a file whole or not at all: a temporary file beside it, then a rename. */
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes a folder and the folders above it. Node's own `recursive` mkdir never ends where the kernel answers ENOENT for
 * a folder whose parent exists (under /proc): here each level is tried once, and that answer is the error.
 */
export async function makeFolder(dir: string): Promise<void> {
  const folder = path.resolve(dir);
  try {
    await mkdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (
      code === 'EEXIST' &&
      (await lstat(folder).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      return;
    const parent = path.dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    await makeFolder(parent);
    await mkdir(folder).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== 'EEXIST') throw again;
    });
  }
}

/** Writes `content` to `file` atomically, creating the folder if needed. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  await makeFolder(path.dirname(file));
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temporary, content, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
