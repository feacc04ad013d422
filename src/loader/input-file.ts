/** Files the user gives (scenarios, profiles, configuration, keys, earlier reports): regular files of bounded size only, UTF-8 only. */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { invalidUtf8Position } from '../model/utf8.js';

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

/** A file that is not UTF-8: where the first invalid byte stands (1-based), the message saying which bytes and what to do. */
export class InvalidUtf8Error extends InputFileError {
  readonly line: number;
  readonly column: number;
  constructor(line: number, column: number, message: string) {
    super('ERR_NOT_UTF8', message);
    this.line = line;
    this.column = column;
  }
}

/** How an input error names the file: `file`, or `file:line:col` when it knows where in the file. */
export function fileWhere(file: string, error: unknown): string {
  return error instanceof InvalidUtf8Error ? `${file}:${error.line}:${error.column}` : file;
}

/** The UTF-8 byte order mark: accepted at the start of a file (editors on Windows write it) and dropped, as most tools do. */
const UTF8_BOM = [0xef, 0xbb, 0xbf];

const hex = (byte: number): string => byte.toString(16).padStart(2, '0');

/**
 * The text of a file's bytes, or an InvalidUtf8Error at the first byte that is not UTF-8: decoding it would put U+FFFD in
 * its place, and a scenario, a profile or a key would then say something else than the file. `secret`: the bytes are not
 * told (they may be part of a key).
 */
export function decodeInputFile(bytes: Uint8Array, secret = false): string {
  const start = UTF8_BOM.every((b, i) => bytes[i] === b) ? UTF8_BOM.length : 0;
  const body = bytes.subarray(start);
  const bad = invalidUtf8Position(body);
  if (bad === undefined) return Buffer.from(body.buffer, body.byteOffset, body.length).toString('utf8');
  const utf16 = bad.offset === 0 && ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff));
  const what = utf16
    ? 'the file is UTF-16 (it starts with a UTF-16 byte order mark)'
    : secret
      ? 'a byte there starts no valid sequence (the bytes are not shown: the file holds a secret)'
      : `byte 0x${hex(bad.bytes[0] as number).toUpperCase()} starts no valid ` +
        `sequence${bad.bytes.length > 1 ? ` (bytes ${bad.bytes.map(hex).join(' ')})` : ''}`;
  throw new InvalidUtf8Error(bad.line, bad.column, `not valid UTF-8: ${what}; save the file as UTF-8`);
}

function kindOf(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} bytes`;
}

/**
 * Reads a regular file of at most `maxBytes` as UTF-8. A named pipe or a device is refused before it is read (reading one
 * could wait forever); so is a file over the limit, by its size, before its content is held in memory; and a file that is
 * not UTF-8 (decodeInputFile), before anything uses its text. `secret`: an error does not tell the file's bytes.
 */
export async function readInputFile(file: string, maxBytes = MAX_INPUT_FILE_BYTES, secret = false): Promise<string> {
  // O_NONBLOCK: opening a named pipe must not wait for a writer (regular files ignore the flag).
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    throw new InputFileError(error.code ?? 'ERR_READ', `cannot read (${error.code ?? 'error'})`);
  });
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      const kind = kindOf(stats);
      throw new InputFileError(
        'ERR_NOT_A_FILE',
        `${kind}${kind === 'not a regular file' ? '' : ', not a regular file'}: only regular files are read`,
      );
    }
    if (stats.size > maxBytes)
      throw new InputFileError('ERR_FILE_TOO_LARGE', `${size(stats.size)}, above the limit of ${size(maxBytes)} for this file`);
    // Room for the file as its size says, and one byte more to see that it ended; a file that grows gets more, up to the limit.
    let buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length)
        buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, maxBytes + 1 - buffer.length))]);
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      // A file that grew past the limit while it was read is refused all the same.
      if (length > maxBytes) throw new InputFileError('ERR_FILE_TOO_LARGE', `more than ${size(maxBytes)}, the limit for this file`);
    }
    return decodeInputFile(buffer.subarray(0, length), secret);
  } finally {
    await handle.close();
  }
}
