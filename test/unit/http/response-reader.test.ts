/**
 * The reader under undici's socket, on the way out: every write goes to the socket at once, but a request with a chunked
 * body goes in one write once its last chunk is there, so that nothing is written after a server that answers from the
 * head may have closed (its answer would be lost to the write's error).
 */
import t from 'tap';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { ResponseReader } from '../../../src/http/response-reader.js';

/** A socket that keeps each write (a corked run of writes is one), as the kernel would get them. */
class FakeSocket extends EventEmitter {
  readonly writes: string[] = [];
  private corked: string[] | undefined;
  write(chunk: Buffer | string): boolean {
    if (this.corked === undefined) this.writes.push(chunk.toString());
    else this.corked.push(chunk.toString());
    return true;
  }
  cork(): void {
    this.corked = [];
  }
  uncork(): void {
    if (this.corked !== undefined) this.writes.push(this.corked.join(''));
    this.corked = undefined;
  }
  pause(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  destroy(): this {
    return this;
  }
}

/** A reader over a fake socket, and how undici writes to it (each write waits for the one before, as a Writable's do). */
function readerOver(): { socket: FakeSocket; write: (text: string) => Promise<void> } {
  const socket = new FakeSocket();
  const reader = new ResponseReader(socket as unknown as Socket, 16_384);
  reader.on('data', () => undefined);
  const write = (text: string): Promise<void> =>
    new Promise((resolve, reject) => reader.write(Buffer.from(text, 'latin1'), (error) => (error ? reject(error) : resolve())));
  return { socket, write };
}

const CHUNKED_HEAD = 'POST /v1/pets HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n';

t.test('a request whose body is not chunked goes at once, write by write', async (t) => {
  const { socket, write } = readerOver();
  const head = 'POST /v1/pets HTTP/1.1\r\ncontent-length: 2\r\n\r\n';
  await write(head);
  t.same(socket.writes, [head]);
  await write('{}');
  t.same(socket.writes, [head, '{}']);
});

t.test('a chunked request goes in one write once its last chunk is there', async (t) => {
  const { socket, write } = readerOver();
  await write(`${CHUNKED_HEAD}5\r\nhello`);
  await write('\r\n5\r\nworld');
  t.same(socket.writes, [], 'held while chunks are still to come');
  await write('\r\n0\r\n\r\n');
  t.same(socket.writes, [`${CHUNKED_HEAD}5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n`], 'one write');
});

t.test('after a chunked request, the next request on the connection goes at once', async (t) => {
  const { socket, write } = readerOver();
  await write(`${CHUNKED_HEAD}2\r\n{}\r\n0\r\n\r\n`);
  const next = 'GET /v1/pets HTTP/1.1\r\nhost: x\r\n\r\n';
  await write(next);
  t.same(socket.writes.at(-1), next);
  t.equal(socket.writes.length, 2);
});

t.test('"chunked" in a body, or in another header, holds nothing', async (t) => {
  const { socket, write } = readerOver();
  const head = 'POST /v1/pets HTTP/1.1\r\nx-note: transfer-encoding: chunked\r\ncontent-length: 40\r\n\r\n';
  await write(`${head}{"name":"transfer-encoding: chunked\r\n"}`);
  t.equal(socket.writes.length, 1);
});
