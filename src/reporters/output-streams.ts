/**
 * The process's standard streams, guarded: a reader that went away (`run | head -1`: EPIPE) or a full device (`> /dev/full`:
 * ENOSPC) stops that stream's output, never the run. The run still finishes, writes its reports and exits with its verdict.
 */
import { Writable } from 'node:stream';

/** An output stream of the command: a terminal or not, and the error that stopped it, if one did. */
export type OutputStream = Writable & { isTTY?: boolean; readonly failure?: NodeJS.ErrnoException | undefined };

/** A stream that writes to `target` until `target` fails, then drops what it is given; it reads as a terminal when `target` does. */
class GuardedOutput extends Writable {
  isTTY?: boolean;
  failure: NodeJS.ErrnoException | undefined;
  private readonly target: Writable;

  constructor(target: Writable & { isTTY?: boolean }) {
    super({ decodeStrings: false });
    this.target = target;
    if (target.isTTY === true) this.isTTY = true;
    // Without a listener, the error event of a closed pipe or a full disk ends the process with a stack trace.
    target.on('error', (error: NodeJS.ErrnoException) => {
      this.failure ??= error;
    });
  }

  override _write(chunk: string | Buffer, encoding: BufferEncoding, done: () => void): void {
    if (this.failure !== undefined) {
      done();
      return;
    }
    // The target's failure is kept (its error event comes later, to the listener above); this stream never fails for it.
    this.target.write(chunk, encoding, (error?: Error | null) => {
      if (error) this.failure ??= error;
      done();
    });
  }
}

/** Guards `target` (the process's stdout or stderr) so that its failure stops the output and is remembered, never thrown. */
export function guardOutput(target: Writable & { isTTY?: boolean }): OutputStream {
  return new GuardedOutput(target);
}

/** The line that says a stream stopped, unless it stopped because its reader went away (which asks for nothing). */
export function outputFailureLine(name: 'standard output' | 'standard error', stream: OutputStream): string | undefined {
  const failure = stream.failure;
  if (failure === undefined || failure.code === 'EPIPE') return undefined;
  return `${name} failed (${failure.code ?? failure.message}): its output stopped there; the run went on and wrote its reports`;
}
