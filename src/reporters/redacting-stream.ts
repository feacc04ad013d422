/** The console side of output redaction: every write passes through the run's redactor on its way out. */
import { Writable } from 'node:stream';

/** A stream that writes to `target` what it is given, redacted; it reads as a terminal when `target` does. */
export function redactingStream(target: Writable & { isTTY?: boolean }, redact: (text: string) => string): Writable & { isTTY?: boolean } {
  const stream: Writable & { isTTY?: boolean } = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      // Reporters write whole lines, so a key is never split across two writes.
      target.write(redact(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
      done();
    },
  });
  if (target.isTTY === true) stream.isTTY = true;
  return stream;
}
