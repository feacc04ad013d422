/**
 * The client composed of its layers: compose's order, the observe layer alone over a fake inner layer, the deadline layer,
 * and the write gate's one count of the budget.
 */
import t from 'tap';
import { Deadline, type ScheduleTimer } from '../../../src/http/deadline.js';
import { everyObserver, type ExchangeObserver, Observe } from '../../../src/http/observe.js';
import { compose, type OutgoingRequest, type Sender, TransportError } from '../../../src/http/sender.js';
import { WriteGate } from '../../../src/http/write-gate.js';
import type { Exchange, SentRequest } from '../../../src/model/exchange.js';

const get: OutgoingRequest = { method: 'GET', path: '/pets', query: [], headers: {}, auth: 'valid', operation: 'listPets' };
const sentOf = (req: OutgoingRequest): SentRequest => ({ ...req, url: `http://h${req.path}`, target: req.path });
const answer = (req: OutgoingRequest, status = 200): Exchange => ({
  request: sentOf(req),
  response: { status, headers: {}, raw: Buffer.alloc(0), bodyText: '', bytes: 0, truncated: false },
  durationMs: 1,
});

/** A layer that writes its name into the request's headers on the way down, and into a log on the way back. */
function named(name: string, log: string[]) {
  return (next: Sender): Sender => ({
    async send(request) {
      log.push(`${name} down`);
      const exchange = await next.send({ ...request, headers: { ...request.headers, [name]: String(log.length) } });
      log.push(`${name} up`);
      return exchange;
    },
  });
}

t.test('compose: the first layer listed is innermost, the last outermost, as undici applies interceptors', async (t) => {
  const log: string[] = [];
  const seen: OutgoingRequest[] = [];
  const transport: Sender = {
    send: async (request) => {
      seen.push(request);
      log.push('transport');
      return answer(request);
    },
  };
  const rows: Array<[string, string[], string[]]> = [
    ['no layer: the transport alone', [], ['transport']],
    ['one layer', ['a'], ['a down', 'transport', 'a up']],
    ['three layers', ['a', 'b', 'c'], ['c down', 'b down', 'a down', 'transport', 'a up', 'b up', 'c up']],
  ];
  for (const [name, layers, expected] of rows) {
    log.length = 0;
    const sender = compose(transport, ...layers.map((layer) => named(layer, log)));
    const exchange = await sender.send(get);
    t.same(log, expected, name);
    t.equal(exchange.response.status, 200, `${name}: the transport's answer comes back`);
    t.same(Object.keys(seen.at(-1)?.headers ?? {}).sort(), [...layers].sort(), `${name}: every layer saw the request`);
  }
});

t.test('the observe layer tells its observer of every answer (with its label) and of every request without one', async (t) => {
  const told: string[] = [];
  const observer: ExchangeObserver = {
    observe: (exchange, label) => told.push(`${exchange.response.status} ${label ?? '-'}`),
    unanswered: (sent) => told.push(`unanswered ${sent.method}`),
  };
  const script: Array<number | 'refused' | 'bug'> = [200, 500, 'refused', 'bug'];
  const inner: Sender = {
    send: async (request) => {
      const step = script.shift();
      if (step === 'refused') throw new TransportError('ECONNREFUSED', 'refused', sentOf(request));
      if (step === 'bug') throw new Error('not a transport failure');
      return answer(request, step);
    },
  };
  const observed = new Observe(inner, everyObserver([observer, { observe: () => told.push('second') }]));
  t.equal((await observed.send({ ...get, label: 'case a' })).response.status, 200);
  t.equal((await observed.send(get)).response.status, 500, 'a 5xx is an answer, told as any other');
  await t.rejects(observed.send({ ...get, method: 'POST' }), TransportError, 'a failure still reaches the caller');
  await t.rejects(observed.send(get), /not a transport failure/, 'so does anything else, untold');
  t.same(told, ['200 case a', 'second', '500 -', 'second', 'unanswered POST']);
});

t.test('the deadline layer hands the request a signal that aborts at the deadline, or with a linked signal', async (t) => {
  let signal: AbortSignal | undefined;
  const holding: Sender = {
    send: (request) =>
      new Promise((_, reject) => {
        signal = request.signal;
        request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true });
      }),
  };
  // The deadline's timer is the test's: it fires when the test says, and only the deadline's own 5 s was asked of it.
  const asked: number[] = [];
  let fire = (): void => undefined;
  let cancelled = 0;
  const schedule: ScheduleTimer = (callback, ms) => {
    asked.push(ms);
    fire = callback;
    return () => {
      cancelled += 1;
    };
  };
  const pending = new Deadline(holding, 5_000, [], schedule).send(get).catch((e: unknown) => e);
  t.equal(signal?.aborted, false, 'nothing aborts before the deadline');
  fire();
  const timed = await pending;
  t.equal((timed as DOMException).name, 'TimeoutError', 'the deadline aborts with a TimeoutError');
  t.match(timed, { message: 'no complete response within 5000 ms' });
  t.same([asked, cancelled], [[5_000], 1], 'one timer for the deadline, cancelled once the exchange ended');
  const stop = new AbortController();
  const stopped = new Deadline(holding, 60_000, [stop.signal]).send(get).catch((e: unknown) => e);
  stop.abort(new Error('the client stopped'));
  t.match(await stopped, { message: 'the client stopped' }, 'a linked signal aborts it with its reason');
  t.equal(signal?.aborted, true);
  let handed: AbortSignal | undefined;
  const noting: Sender = {
    send: async (request) => {
      handed = request.signal;
      return answer(request);
    },
  };
  await new Deadline(noting, 60_000, [stop.signal]).send(get);
  t.equal(handed?.aborted, true, 'a linked signal already aborted hands an aborted signal down at once');
});

t.test('the write gate alone says whether the budget is spent, counting writes in flight', async (t) => {
  let release: (() => void) | undefined;
  const inner: Sender = {
    send: (request) =>
      request.method === 'GET'
        ? Promise.resolve(answer(request))
        : new Promise((resolve) => (release = () => resolve(answer(request, 201)))),
  };
  const gate = new WriteGate(inner, { readOnly: false, maxWrites: 1 });
  t.equal(gate.spent, false, 'nothing written yet');
  const write = gate.send({ ...get, method: 'POST', operation: 'createPet' });
  t.equal(gate.spent, true, 'a write in flight holds the one pet allowed');
  release?.();
  await write;
  t.equal(gate.spent, true, 'and, once created, keeps it');
  t.equal(gate.created, 1);
  t.equal(new WriteGate(inner, { readOnly: false }).spent, false, 'no budget is never spent');
});
