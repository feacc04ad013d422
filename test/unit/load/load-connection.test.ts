/**
 * One load connection alone, over a real socket to 127.0.0.1 and a fake stage that records what it is told: requests
 * framed by the client's rules, answers, the resend of a request lost to an idle close, resets, backoff, the body cap.
 */
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { RequestFraming } from '../../../src/http/framing.js';
import {
  type ConnectionEvents,
  type FailureCause,
  type InFlight,
  ArrivalClock,
  headerOf,
  isRateLimited,
  LoadConnection,
  type PreparedRequest,
  requestBytes,
} from '../../../src/load/load-connection.js';
import { listenLocally } from '../../helpers.js';

const KEY = 'load-connection-key-7';
const list = {
  method: 'GET',
  path: '/animals',
  query: [['limit', '5']] as Array<[string, string]>,
  headers: {},
  auth: 'valid' as const,
  operation: 'listPets' as const,
};

t.test('a load request is framed by the client rules: accept, --header, the key; absolute form to a plain-http proxy', async (t) => {
  const settings = { headers: [{ name: 'X-Tenant', value: 'blue', secret: false }] };
  const rows: Array<[string, string, { url: string; authorization?: string } | undefined, string]> = [
    [
      'direct',
      'http://api.example:8080/v1',
      undefined,
      `GET /v1/animals?limit=5 HTTP/1.1\r\nHost: api.example:8080\r\naccept: application/json\r\naccept-encoding: identity\r\nx-tenant: blue\r\nauthorization: Bearer ${KEY}\r\n\r\n`,
    ],
    [
      'plain http through a proxy',
      'http://api.example/v1',
      { url: 'http://proxy.example:3128', authorization: 'Basic dTpw' },
      `GET http://api.example/v1/animals?limit=5 HTTP/1.1\r\nHost: api.example\r\naccept: application/json\r\naccept-encoding: identity\r\nx-tenant: blue\r\nauthorization: Bearer ${KEY}\r\nproxy-authorization: Basic dTpw\r\n\r\n`,
    ],
    [
      'https through a proxy: the tunnel carries the proxy credentials, the request none',
      'https://api.example/v1/',
      { url: 'http://proxy.example:3128', authorization: 'Basic dTpw' },
      `GET /v1/animals?limit=5 HTTP/1.1\r\nHost: api.example\r\naccept: application/json\r\naccept-encoding: identity\r\nx-tenant: blue\r\nauthorization: Bearer ${KEY}\r\n\r\n`,
    ],
  ];
  for (const [name, base, proxy, expected] of rows)
    t.equal(requestBytes(new RequestFraming(base, KEY, settings).frame(list), proxy).toString('latin1'), expected, name);
});

/** A fake stage: records every event, and resolves `next` on the next answer or failure. */
function recorder(keepsBody = false) {
  const log: string[] = [];
  let wake: () => void = () => undefined;
  const flights: InFlight[] = [];
  const events: ConnectionEvents & { log: string[]; flights: InFlight[]; next: () => Promise<void> } = {
    log,
    flights,
    next: () =>
      new Promise<void>((resolve) => {
        wake = resolve;
      }),
    keepsBody: () => keepsBody,
    oversize: (flight: InFlight) => log.push(`oversize ${flight.status}`),
    answered: (_c: LoadConnection, flight: InFlight) => {
      log.push(`answered ${flight.status}${flight.body === undefined ? '' : ` ${Buffer.concat(flight.body).toString()}`}`);
      wake();
    },
    failed: (_c: LoadConnection, flight: InFlight, cause: FailureCause, reset: boolean) => {
      log.push(`${reset ? 'reset' : 'failed'} ${cause.code}`);
      flights.push(flight);
      wake();
    },
    resent: () => log.push('resent'),
  };
  return events;
}

async function connectionTo(
  t: Test,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  keepsBody = false,
  maxBodyBytes = 1024,
  loopBusyMs = 0,
  clock = { at: 0 },
) {
  const base = await listenLocally(createServer(handler));
  const framing = new RequestFraming(base, KEY, {});
  const request: PreparedRequest = {
    target: '/animals?limit=5',
    query: { weight: 1, limit: 5 },
    bytes: requestBytes(framing.frame(list), undefined),
  };
  const events = recorder(keepsBody);
  // The connection's clock is `clock`: it moves only when a test moves it (quiet gaps never depend on the machine's speed).
  // An answer read after the loop was busy `loopBusyMs` may have waited that long in the socket.
  const connection = new LoadConnection(
    { base: framing.base, proxy: undefined, settings: {}, maxBodyBytes },
    events,
    () => clock.at,
    () => clock.at - loopBusyMs,
  );
  t.teardown(() => connection.end());
  const send = async (): Promise<void> => {
    const done = events.next();
    connection.send(request, clock.at, clock.at);
    await done;
  };
  return { events, send, connection, clock };
}

t.test('answers are told with their status, the body kept when the stage wants it; the key and the path as framed', async (t) => {
  const seen: string[] = [];
  const { events, send } = await connectionTo(
    t,
    (req, res) => {
      seen.push(`${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    },
    true,
  );
  await send();
  await send();
  t.same(events.log, ['answered 200 []', 'answered 200 []']);
  t.same(seen, [`/v1/animals?limit=5 Bearer ${KEY}`, `/v1/animals?limit=5 Bearer ${KEY}`], 'one socket, the contract path, the key');
});

t.test('a kept-alive connection closed under a request: resent after an idle gap, a reset when busy', async (t) => {
  for (const [name, gapMs, expected] of [
    ['idle for 80 ms: sent once more on a fresh connection', 80, ['answered 200', 'resent', 'answered 200']],
    ['idle for 50 ms, the gap itself: sent once more', 50, ['answered 200', 'resent', 'answered 200']],
    ['quiet for 49 ms, under the gap: the server dropped a request it was given', 49, ['answered 200', 'reset ERR_LOAD_CLOSED']],
    ['busy: the server dropped a request it was given', 0, ['answered 200', 'reset ERR_LOAD_CLOSED']],
  ] as const) {
    const served = new WeakSet<object>();
    const { events, send, clock } = await connectionTo(t, (req, res) => {
      // The second request on a connection finds it closed, without an answer.
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      res.writeHead(200).end();
    });
    await send();
    clock.at += gapMs;
    await send();
    t.same(events.log, expected, name);
  }
});

t.test('an idle close is resent whatever the loop delay: the answer may have waited in the socket while the loop was busy', async (t) => {
  for (const [name, loopBusyMs, expected] of [
    ['read at once, sent in the same turn: a reset', 0, ['answered 200', 'reset ERR_LOAD_CLOSED']],
    [
      'read after the loop was busy 300 ms: the server saw 300 ms of quiet, sent once more',
      300,
      ['answered 200', 'resent', 'answered 200'],
    ],
    ['read after 49 ms busy: under the gap, a reset', 49, ['answered 200', 'reset ERR_LOAD_CLOSED']],
  ] as const) {
    const served = new WeakSet<object>();
    const clock = { at: 0 };
    const { events, send } = await connectionTo(
      t,
      (req, res) => {
        if (served.has(req.socket)) return void req.socket.destroy();
        served.add(req.socket);
        // The loop is busy `loopBusyMs` while the answer waits in the socket: it is read that much later, the next request
        // written in the same turn.
        clock.at += loopBusyMs;
        res.writeHead(200).end();
      },
      false,
      1024,
      loopBusyMs,
      clock,
    );
    await send();
    await send();
    t.same(events.log, expected, name);
  }
});

t.test('the arrival clock: bytes read after a busy loop may have arrived that long before, after an idle one just now', async (t) => {
  const state = { at: 1000, idle: 0 };
  const clock = new ArrivalClock(
    () => state.at,
    () => state.idle,
  );
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  for (const [name, elapsed, idle, earliest] of [
    ['100 ms waiting for the socket: arrived just now', 100, 100, 1100],
    ['300 ms busy (a body parsed): arrived up to 300 ms ago', 300, 0, 1100],
    ['200 ms, 50 of them busy: up to 50 ms ago', 200, 150, 1550],
  ] as const) {
    state.at += elapsed;
    state.idle += idle;
    t.equal(clock.arrivedBy(), earliest, name);
    state.at += 5;
    t.equal(clock.arrivedBy(), earliest, `${name}: the rest of the turn shares it`);
    state.at -= 5;
    await turn();
  }
});

t.test('429 and 503 are rate-limited answers; Retry-After is read from the head', async (t) => {
  t.same([200, 429, 500, 503, 504].map(isRateLimited), [false, true, false, true, false]);
  const head = 'HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nRetry-After:  1 \r\nretry-after: 9';
  t.equal(headerOf(head, 'retry-after'), '1', 'the first, trimmed, any case');
  t.equal(headerOf(head, 'x-none'), undefined);
  t.equal(headerOf('HTTP/1.1 503 Retry-After: 5', 'retry-after'), undefined, 'the status line is no header');
});

t.test('a connection that cannot connect fails before anything is sent, and backs off, doubling', async (t) => {
  const events = recorder();
  const connection = new LoadConnection(
    { base: new URL('http://127.0.0.1:9/v1'), proxy: undefined, settings: {}, maxBodyBytes: 1024 },
    events,
  );
  t.teardown(() => connection.end());
  const request: PreparedRequest = {
    target: '/pets',
    query: { weight: 1 },
    bytes: Buffer.from('GET /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'),
  };
  const waits: number[] = [];
  for (let i = 0; i < 3; i++) {
    const failed = events.next();
    connection.send(request, performance.now(), performance.now());
    await failed;
    waits.push(connection.backoffAfter(events.flights.at(-1) as InFlight));
  }
  t.same(events.log, ['failed ECONNREFUSED', 'failed ECONNREFUSED', 'failed ECONNREFUSED'], 'a failure to connect, never a reset');
  t.same(waits, [10, 20, 40]);
});

t.test('a body past the cap is told as oversize, answered without its body, and its connection closed', async (t) => {
  const { events, send } = await connectionTo(t, (_req, res) => res.writeHead(200).end('x'.repeat(100)), true, 10);
  await send();
  t.same(events.log, ['oversize 200', 'answered 200']);
});
