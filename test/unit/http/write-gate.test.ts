/** The write gate: read-only mode and --max-writes hold for every phase, the store fill included. */
import t from 'tap';
import type { OutgoingRequest } from '../../../src/http/client.js';
import { type Sender, WriteGate, WriteRefused } from '../../../src/http/write-gate.js';
import type { Exchange } from '../../../src/model/exchange.js';

function request(method: string): OutgoingRequest {
  return { method, path: '/pets', query: [], headers: {}, auth: 'valid', operation: method === 'POST' ? 'createPet' : 'listPets' };
}

/** A sender that answers each request with the next status, once `release` lets it (so that writes are in flight together). */
function fakeSender(statuses: number[]): Sender & { sent: string[]; release: () => void } {
  const sent: string[] = [];
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    sent,
    release: () => open(),
    async send(req) {
      sent.push(req.method);
      await gate;
      const status = statuses.shift() ?? 200;
      return {
        request: { ...req, url: '', target: req.path },
        response: { status, headers: {}, raw: Buffer.alloc(0), bodyText: '', bytes: 0, truncated: false },
        durationMs: 0,
      } as Exchange;
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof WriteRefused ? error.reason : `other: ${String(error)}`),
  );
}

t.test('read-only: reads go through, no write is sent', async (t) => {
  const inner = fakeSender([200]);
  inner.release();
  const gate = new WriteGate(inner, { readOnly: true, maxWrites: 500 });
  t.equal((await gate.send(request('GET'))).response.status, 200);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post']) t.equal(await refusal(gate.send(request(method))), 'read-only', method);
  t.same(inner.sent, ['GET']);
});

t.test('--max-writes counts writes in flight as pets they will create, and frees the ones that created none', async (t) => {
  const inner = fakeSender([201, 400, 201]);
  const gate = new WriteGate(inner, { maxWrites: 2, readOnly: false });
  const first = [gate.send(request('POST')), gate.send(request('POST')), gate.send(request('POST'))];
  t.equal(await refusal(first[2] as Promise<unknown>), 'write-budget', 'a third write while two are in flight is refused');
  inner.release();
  t.same(
    (await Promise.all(first.slice(0, 2))).map((e) => e.response.status),
    [201, 400],
  );
  t.equal(gate.created, 1);
  t.equal((await gate.send(request('POST'))).response.status, 201, 'the write that created nothing left room for one more');
  t.equal(await refusal(gate.send(request('POST'))), 'write-budget');
  t.equal((await gate.send(request('GET'))).response.status, 200, 'reads still go through');
  t.same(inner.sent, ['POST', 'POST', 'POST', 'GET']);
  const none = new WriteGate(inner, { maxWrites: 0, readOnly: false });
  t.equal(await refusal(none.send(request('POST'))), 'write-budget', '--max-writes 0 sends no write at all');
});
