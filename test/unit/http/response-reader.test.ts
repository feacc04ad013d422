/**
 * The reader under undici's socket: a request's first write goes at once; what continues it waits for the reads before it,
 * and is not sent once a final answer came (RFC 9112 §9.3), so that a server which answers from the head and closes is heard.
 */
import t from 'tap';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ResponseReader } from '../../../src/http/response-reader.js';

/** A socket that keeps what is written to it, and that a test feeds as the server would. */
class FakeSocket extends EventEmitter {
  readonly written: string[] = [];
  write(chunk: Buffer | string): boolean {
    this.written.push(chunk.toString());
    return true;
  }
  cork(): void {}
  uncork(): void {}
  pause(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  destroy(): this {
    return this;
  }
  /** The server sends bytes. */
  answer(text: string): void {
    this.emit('data', Buffer.from(text, 'latin1'));
  }
}

/** A reader over a fake socket, read as undici reads it (flowing). */
function readerOver(): { socket: FakeSocket; reader: ResponseReader; written: (text: string) => Promise<void> } {
  const socket = new FakeSocket();
  const reader = new ResponseReader(socket as unknown as Socket, 16_384);
  reader.on('data', () => undefined);
  const written = (text: string): Promise<void> =>
    new Promise((resolve, reject) => reader.write(text, (error) => (error ? reject(error) : resolve())));
  return { socket, reader, written };
}

const HEAD = 'POST /v1/pets HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n';
const CONTINUED = '5\r\nworld\r\n';
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}';

t.test('the first write of a request goes at once', async (t) => {
  const { socket, written } = readerOver();
  const done = written(HEAD);
  t.same(socket.written, [HEAD], 'written before the writer was told it was');
  await done;
});

t.test('what continues a request waits for the reads before it, and is written when no answer came', async (t) => {
  const { socket, written } = readerOver();
  await written(HEAD);
  const done = written(CONTINUED);
  t.same(socket.written, [HEAD], 'not yet: the socket is read first');
  await done;
  t.same(socket.written, [HEAD, CONTINUED]);
});

t.test('an interim answer is no answer: the body goes on', async (t) => {
  const { socket, written } = readerOver();
  await written(HEAD);
  socket.answer('HTTP/1.1 100 Continue\r\n\r\n');
  await written(CONTINUED);
  t.same(socket.written, [HEAD, CONTINUED]);
});

t.test('once a final answer came, what is left of the body is not sent, and the writer goes on', async (t) => {
  const { socket, written } = readerOver();
  await written(HEAD);
  const done = written(CONTINUED);
  // The answer waiting on the socket is read before the held write runs: as the loop's poll comes before setImmediate.
  socket.answer(BAD_REQUEST);
  await done;
  await written('0\r\n\r\n');
  t.same(socket.written, [HEAD], 'nothing after the head and its first chunk');
});

t.test('after a complete answer, the next request is written at once', async (t) => {
  const { socket, written } = readerOver();
  await written('GET /v1/pets HTTP/1.1\r\n\r\n');
  socket.answer('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n[]');
  await nextTurn();
  const next = 'GET /v1/pets?limit=1 HTTP/1.1\r\n\r\n';
  const done = written(next);
  t.same(socket.written.at(-1), next);
  await done;
});
