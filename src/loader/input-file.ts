/** Files the user gives (scenarios, profiles, configuration, keys, earlier reports): regular files of bounded size only. */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** The largest scenario, profile or configuration file read. */
export const MAX_INPUT_FILE_BYTES = 1024 * 1024;

/** Why a file cannot be read, in words (`cannot read (ENOENT)`, `a named pipe, not a regular file`, ...). */
export class InputFileError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

function kindOf(stats: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

/**
 * Reads a regular file of at most `maxBytes` as UTF-8. A named pipe or a device is refused before it is read (reading one
 * could wait forever); so is a file over the limit, by its size, before its content is held in memory.
 */
export async function readInputFile(file: string, maxBytes = MAX_INPUT_FILE_BYTES): Promise<string> {
  // O_NONBLOCK: opening a named pipe must not wait for a writer (regular files ignore the flag).
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    throw new InputFileError(error.code ?? 'ERR_READ', `cannot read (${error.code ?? 'error'})`);
  });
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      const kind = kindOf(stats);
      throw new InputFileError('ERR_NOT_A_FILE', `${kind}${kind === 'not a regular file' ? '' : ', not a regular file'}: only regular files are read`);
    }
    if (stats.size > maxBytes) throw new InputFileError('ERR_FILE_TOO_LARGE', `${size(stats.size)}, above the limit of ${size(maxBytes)} for this file`);
    // Room for the file as its size says, and one byte more to see that it ended; a file that grows gets more, up to the limit.
    let buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, maxBytes + 1 - buffer.length))]);
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      // A file that grew past the limit while it was read is refused all the same.
      if (length > maxBytes) throw new InputFileError('ERR_FILE_TOO_LARGE', `more than ${size(maxBytes)}, the limit for this file`);
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}
