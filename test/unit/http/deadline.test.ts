/**
 * The deadline layer: a body arriving at a useful pace outlives the deadline up to its ceiling, one that stalls or drips
 * does not, and a kind of request that went unanswered gets a short deadline afterwards that names the first; and the
 * capture sends no chunked body to a server that answered in HTTP/1.0.
 */
import t from 'tap';
import { createServer } from 'node:net';
import { DEFAULT_HTTP_OPTIONS } from '../../../src/http/client.js';
import { type BodyPace, Deadline, pacedGuard, type ScheduleTimer } from '../../../src/http/deadline.js';
import { openClient } from '../../../src/http/open-client.js';
import { type BodyProgress, NotSent, type OutgoingRequest, type Sender, TransportError } from '../../../src/http/sender.js';
import type { Exchange, SentRequest } from '../../../src/model/exchange.js';
import { listenLocally } from '../../helpers.js';

/** Timers that fire when the test moves the time on. */
function virtualTimers() {
  let now = 0;
  const timers: Array<{ due: number; fire: () => void; live: boolean }> = [];
  const schedule: ScheduleTimer = (fire, ms) => {
    const timer = { due: now + ms, fire, live: true };
    timers.push(timer);
    return () => {
      timer.live = false;
    };
  };
  /** Moves the time on by `ms`, firing each timer due on the way in order. */
  const advance = (ms: number): void => {
    const end = now + ms;
    for (;;) {
      const next = timers.filter((timer) => timer.live && timer.due <= end).sort((a, b) => a.due - b.due)[0];
      if (next === undefined) break;
      next.live = false;
      now = next.due;
      next.fire();
    }
    now = end;
  };
  return { schedule, advance, live: () => timers.filter((timer) => timer.live).length };
}

const PACE: BodyPace = { windowMs: 5_000, minBytesPerSecond: 1_000, ceilingFactor: 4 };

t.test('the paced deadline: when each body shape is cut', async (t) => {
  // [what, bytes per second the body brings, when it is cut (ms) or undefined when it never is within 100 s]
  const rows: Array<[string, number, number | undefined]> = [
    ['no byte at all: cut at the deadline', 0, 10_000],
    ['a drip (10 B/s): cut at the deadline', 10, 10_000],
    ['just under the pace: cut at the deadline', 999, 10_000],
    ['at the pace: goes on to the ceiling (4 × 10 s)', 1_000, 40_000],
    ['a slow link (10 KB/s): goes on to the ceiling', 10_000, 40_000],
  ];
  for (const [what, perSecond, cutAt] of rows) {
    const timers = virtualTimers();
    const progress: BodyProgress = { bytes: 0 };
    const guard = pacedGuard(10_000, [], progress, PACE, timers.schedule);
    let abortedAt: number | undefined;
    for (let second = 1; second <= 100 && abortedAt === undefined; second++) {
      progress.bytes += perSecond;
      timers.advance(1_000);
      if (guard.signal.aborted) abortedAt = second * 1_000;
    }
    t.equal(abortedAt, cutAt, what);
    if (cutAt !== undefined) {
      t.equal(guard.expired, true, `${what}: the deadline, not a link, aborted it`);
      t.match((guard.signal.reason as Error).message, `no complete response within ${cutAt} ms`, `${what}: the reason says when`);
    }
    guard.dispose();
    t.equal(timers.live(), 0, `${what}: no timer left once disposed`);
  }
});

t.test('the paced deadline: a body that stops after a steady start is cut one window later', async (t) => {
  const timers = virtualTimers();
  const progress: BodyProgress = { bytes: 0 };
  const guard = pacedGuard(10_000, [], progress, PACE, timers.schedule);
  for (let second = 1; second <= 12; second++) {
    progress.bytes += 2_000;
    timers.advance(1_000);
  }
  t.equal(guard.signal.aborted, false, 'steady past the deadline: goes on');
  timers.advance(3_000);
  t.equal(guard.signal.aborted, true, 'the window in which it stopped brought too little: cut at 15 s');
  guard.dispose();
});

t.test('the paced deadline follows a linked signal, and says it was not the deadline', async (t) => {
  const timers = virtualTimers();
  const stop = new AbortController();
  const guard = pacedGuard(10_000, [stop.signal], { bytes: 0 }, PACE, timers.schedule);
  stop.abort(new Error('the client stopped'));
  t.equal(guard.signal.aborted, true);
  t.equal(guard.expired, false);
  t.match(guard.signal.reason, { message: 'the client stopped' });
  guard.dispose();
});

const list = (query: Array<[string, string]>): OutgoingRequest => ({
  method: 'GET',
  path: '/pets',
  query,
  headers: {},
  auth: 'valid',
  operation: 'listPets',
});
const sentOf = (req: OutgoingRequest): SentRequest => ({
  ...req,
  url: `http://h/v1${req.path}`,
  target: `/v1${req.path}${req.query.length === 0 ? '' : `?${new URLSearchParams(req.query).toString()}`}`,
});

t.test('a kind of request that went unanswered gets a short deadline afterwards, naming the first', async (t) => {
  const timers = virtualTimers();
  const asked: string[] = [];
  // Never answers limit=100 (it waits for its signal); answers everything else at once.
  const server: Sender = {
    send: (request) =>
      new Promise<Exchange>((resolve, reject) => {
        asked.push(sentOf(request).target);
        if (!request.query.some(([name, value]) => name === 'limit' && value === '100')) {
          resolve({
            request: sentOf(request),
            response: { status: 200, headers: {}, raw: Buffer.from('[]'), bodyText: '[]', bytes: 2, truncated: false },
            durationMs: 1,
          });
          return;
        }
        request.signal?.addEventListener('abort', () =>
          reject(
            new TransportError('ERR_REQUEST_TIMEOUT', (request.signal?.reason as Error).message, sentOf(request), {
              timedOut: true,
              answeredMeanwhile: 0,
            }),
          ),
        );
      }),
  };
  const deadline = new Deadline(server, 15_000, [], timers.schedule, PACE);
  const first = deadline.send(list([['limit', '100']])).catch((e: unknown) => e);
  timers.advance(15_000);
  t.match(await first, { message: 'no complete response within 15000 ms' }, 'the first waits the whole deadline');
  t.ok(await deadline.send(list([['limit', '20']])), 'the same kind still answers where the server answers');
  const again = deadline
    .send(
      list([
        ['status', 'sold'],
        ['limit', '100'],
      ]),
    )
    .catch((e: unknown) => e);
  timers.advance(1_999);
  t.equal(asked.length, 3, 'a request of another kind (a status too) is its own kind');
  timers.advance(15_000);
  const shorter = deadline.send(list([['limit', '100']])).catch((e: unknown) => e);
  timers.advance(2_000);
  const failure = await shorter;
  t.ok(failure instanceof TransportError, 'a TransportError, judged as any unanswered request');
  t.match(
    (failure as TransportError).message,
    'no complete response within 2000 ms (a short wait: GET /v1/pets?limit=100, a request of the same kind, went unanswered for 15000 ms)',
    'the later one waits 2 s and names the first',
  );
  t.equal((failure as TransportError).timedOut, true);
  await again;
  // The stop breaker's question (is the server there?) is brief whatever its kind did.
  const plain = list([
    ['x', '1'],
    ['limit', '100'],
  ]);
  const probe = deadline.send({ ...plain, brief: true }).catch((e: unknown) => e);
  timers.advance(2_000);
  t.match(await probe, { message: /^no complete response within 2000 ms/ }, 'a brief request gets the short deadline at once');
});

t.test('a chunked body is never sent to a server that answered in HTTP/1.0: the request is not sent, and says why', async (t) => {
  const heads: string[] = [];
  const server = createServer((socket) => {
    socket.once('data', (data: Buffer) => {
      heads.push(data.toString('latin1').split('\r\n\r\n')[0] ?? '');
      socket.end('HTTP/1.0 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]');
    });
  });
  const baseUrl = `${await listenLocally(server)}/v1`;
  const client = openClient({ ...DEFAULT_HTTP_OPTIONS, baseUrl, apiKey: 'http10-key-1' });
  t.teardown(async () => {
    await client.close();
    server.close();
  });
  const listed = await client.send(list([]));
  t.equal(listed.response.status, 200, 'an HTTP/1.0 answer is an answer');
  const create: OutgoingRequest = {
    ...list([]),
    method: 'POST',
    operation: 'createPet',
    body: '{"name":"x","categoryId":1}',
    chunked: true,
  };
  const refused = await client.send(create).catch((e: unknown) => e);
  t.ok(refused instanceof NotSent, 'not sent');
  t.match((refused as NotSent).message, /chunked body.*HTTP\/1\.0.*RFC 9112 §6\.1/);
  t.equal(heads.length, 1, 'the server never saw the chunked request');
  t.equal((await client.send({ ...create, chunked: false })).response.status, 200, 'the same body with a Content-Length is sent');
});
