/**
 * The client against servers that misbehave only at the transport (all on 127.0.0.1, every wait bounded):
 * rate limits and Retry-After, connections closed under a request, requests left unanswered, a server that is gone,
 * and a preflight that only lets a pet store's listing through.
 */
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Client, DEFAULT_HTTP_OPTIONS, type HttpClientOptions, type OutgoingRequest } from '../../../src/http/client.js';
import { openClient } from '../../../src/http/open-client.js';
import { Pacer, retryAfterMs } from '../../../src/http/pacer.js';
import { preflight } from '../../../src/http/preflight.js';
import { RunError } from '../../../src/model/errors.js';
import type { ServerWait } from '../../../src/model/exchange.js';
import { virtualClock } from '../../helpers.js';

type Handler = (req: IncomingMessage, res: ServerResponse, count: number) => void;

/** A server whose handler sees how many requests came before; closed by the test's teardown. */
async function serve(t: Test, handler: Handler): Promise<string> {
  let count = 0;
  const server = createServer((req, res) => handler(req, res, ++count));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function client(t: Test, baseUrl: string, extra: Partial<HttpClientOptions> = {}): Client {
  const made = openClient({ ...DEFAULT_HTTP_OPTIONS, baseUrl, apiKey: 'resilience-key', ...extra });
  t.teardown(() => made.close());
  return made;
}

const list: OutgoingRequest = { method: 'GET', path: '/pets', query: [], headers: {}, auth: 'valid', operation: 'listPets' };
const create: OutgoingRequest = {
  method: 'POST',
  path: '/pets',
  query: [],
  headers: {},
  json: { name: 'x', categoryId: 1 },
  auth: 'valid',
  operation: 'createPet',
};

function json(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

t.test('Retry-After: delay-seconds or an HTTP date, nothing else', async (t) => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const rows: Array<[string | undefined, number | undefined]> = [
    ['1', 1000],
    [' 120 ', 120_000],
    ['0', 0],
    ['Sun, 22 Nov 2026 12:00:30 GMT', 30_000],
    ['Sun, 22 Nov 2026 11:00:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    [undefined, undefined],
  ];
  for (const [value, ms] of rows) t.equal(retryAfterMs(value, now), ms, `Retry-After: ${String(value)}`);
});

t.test('the pacer: a wait longer than the cap, or beyond the budget, is refused; concurrent pauses share their time', async (t) => {
  const pacer = new Pacer({ maxWaitMs: 2000, waitBudgetMs: 1500 });
  t.same(pacer.pause(3000), { kind: 'too-long', askedMs: 3000 });
  t.match(pacer.pause(1000), { kind: 'granted', addedMs: 1000, spentMs: 1000 }, 'one second fits');
  t.match(pacer.pause(900), { kind: 'granted', addedMs: 0, spentMs: 1000 }, 'a pause inside the current one costs nothing more');
  t.match(pacer.pause(1600), { kind: 'budget' }, 'what would extend the pause beyond the budget is refused');
  t.equal(pacer.totals.throttledResponses, 4);
  t.ok(pacer.totals.waitedMs <= 1100, `waited ${pacer.totals.waitedMs} ms, not the sum of the asks`);
});

// The one test of the pacer on the real clock: the waits below are made on a virtual one.
t.test('--rate-limit spaces the requests', async (t) => {
  const base = await serve(t, (_req, res) => json(res, 200, '[]'));
  const paced = client(t, base, { pacing: { ratePerSecond: 50, maxWaitMs: 1000, waitBudgetMs: 1000 } });
  const started = performance.now();
  for (let i = 0; i < 6; i++) await paced.send(list);
  t.ok(performance.now() - started >= 95, 'six requests at 50/s take at least 100 ms');
});

t.test('429 and 503 with Retry-After are waited out, counted, never answers', async (t) => {
  const base = await serve(t, (_req, res, n) => {
    if (n === 1) return json(res, 429, '{"code":"slow","message":"slow down","status":429}', { 'retry-after': '0' });
    if (n === 2) return json(res, 503, '{"code":"busy","message":"busy","status":503}', { 'retry-after': '0' });
    if (n === 3) return json(res, 200, '[]');
    return json(res, 503, '{"code":"down","message":"down","status":503}');
  });
  const told: ServerWait[] = [];
  const clock = virtualClock();
  const patient = client(t, base, { onWait: (wait) => told.push(wait), waitClock: clock });
  const exchange = await patient.send(list);
  t.equal(exchange.response.status, 200);
  t.match(
    told,
    [
      { method: 'GET', target: '/pets', status: 429, retryAfter: '0', waitMs: 250, askedMs: 0, inARow: 1, addedMs: 250, spentMs: 250 },
      { method: 'GET', target: '/pets', status: 503, retryAfter: '0', waitMs: 500, askedMs: 0, inARow: 2, addedMs: 500, spentMs: 750 },
    ],
    'each wait is told as it begins: what asked for how long, the backoff it waits, and the budget spent',
  );
  t.same(patient.traffic.waits, told, 'the report keeps every wait');
  t.same(
    exchange.throttled,
    { responses: 2, waitedMs: 750 },
    'the evidence says how often it was asked to wait, and for how long (Retry-After: 0 still backs off: 250 ms, then 500 ms)',
  );
  t.same(clock.slept, [250, 500], 'and the client waited just that before each request sent again');
  t.equal((await patient.send(list)).response.status, 503, 'a 503 without Retry-After is an answer (a 5xx), judged as such');
  t.match(patient.traffic, { throttledResponses: 2, connectionRetries: 0 });
  t.equal(patient.requestCount, 4, 'every send is counted');
});

t.test('a wait longer than --max-wait, or a spent budget, stops the client: every later request gets the same RunError', async (t) => {
  const base = await serve(t, (_req, res) =>
    json(res, 429, '{"code":"slow","message":"tomorrow","status":429}', { 'retry-after': '86400' }),
  );
  const stopped = client(t, base);
  const error = await stopped.send(list).catch((e: unknown) => e);
  t.ok(error instanceof RunError);
  t.match(error, {
    code: 'ERR_RATE_LIMITED',
    message:
      /asked the suite to wait 86400 s \(429, Retry-After: 86400 to GET \/pets\), longer than one wait may take \(60 s, --max-wait\)/,
  });
  t.equal(stopped.stopped, error);
  t.ok(stopped.stopSignal.aborted, 'the run is told to stop');
  t.equal(await stopped.send(list).catch((e: unknown) => e), error, 'nothing more is sent');

  const always = await serve(t, (_req, res) => json(res, 429, '{}', { 'retry-after': '0' }));
  const clock = virtualClock();
  const budget = client(t, always, { pacing: { maxWaitMs: 60_000, waitBudgetMs: 1000 }, waitClock: clock });
  const spent = await budget.send(list).catch((e: unknown) => e);
  t.match(
    spent,
    {
      code: 'ERR_RATE_LIMITED',
      message: /kept rate-limiting the run \(429 to GET \/pets\): 0\.8 s spent waiting used up the budget of 1 s \(--wait-budget\)/,
    },
    'Retry-After: 0 forever backs off (250, 500 ms) until the budget is spent (0.75 s, shown rounded)',
  );
  t.same(clock.slept, [250, 500], 'the 1000 ms the third backoff asks for would pass the budget: refused, not waited');
});

t.test(
  'a kept-alive connection closed under a request: an idempotent one is sent once more on a fresh connection; a POST goes on a fresh one from the start',
  async (t) => {
    const seen = new WeakSet<object>();
    let posts = 0;
    const base = await serve(t, (req, res) => {
      if (req.method === 'POST') posts += 1;
      // Every request on a connection that already served one finds it closed, without an answer.
      if (seen.has(req.socket)) return void req.socket.destroy();
      seen.add(req.socket);
      json(res, req.method === 'POST' ? 201 : 200, req.method === 'POST' ? '{"id":1,"name":"x","categoryId":1}' : '[]');
    });
    const http = client(t, base, { connections: 1 });
    t.notOk((await http.send(list)).connectionRetry, 'the first request opens the connection');
    const retried = await http.send(list);
    t.equal(retried.response.status, 200);
    t.match(
      retried.connectionRetry,
      /^the connection closed before any response byte \((UND_ERR_SOCKET|ECONNRESET)[^)]*\); sent once more on a fresh connection$/,
    );
    t.notOk((await http.send(list)).connectionRetry, 'the pool opened a new connection for the next request');
    const post = await http.send(create);
    t.equal(post.response.status, 201, 'a POST, on a connection of its own, is never lost to a kept-alive one closing');
    t.equal(posts, 1, 'and sent once');
    t.notOk(post.connectionRetry);
    t.equal(http.traffic.connectionRetries, 1);
  },
);

t.test('an unanswered request says which bound it hit, and how many others the server answered meanwhile', async (t) => {
  const base = await serve(t, (req, res) => {
    if (req.url?.includes('hang') === true) return;
    setTimeout(() => json(res, 200, '[]'), 20);
  });
  const http = client(t, base, { headersTimeoutMs: 300, requestTimeoutMs: 2000 });
  const hung = http.send({ ...list, query: [['hang', '1']] }).catch((e: unknown) => e);
  await Promise.all([http.send(list), http.send(list)]);
  const error = await hung;
  t.match(error, { code: 'UND_ERR_HEADERS_TIMEOUT', message: 'no response headers within 300 ms', timedOut: true, answeredMeanwhile: 2 });
  const deadline = client(t, base, { headersTimeoutMs: 2000, requestTimeoutMs: 200 });
  t.match(await deadline.send({ ...list, query: [['hang', '1']] }).catch((e: unknown) => e), {
    code: 'ERR_REQUEST_TIMEOUT',
    message: 'no complete response within 200 ms',
    timedOut: true,
    answeredMeanwhile: 0,
  });
});

t.test('a server that is gone stops the client after three requests in a row without an answer; an answer resets the count', async (t) => {
  const http = client(t, 'http://127.0.0.1:9/v1');
  for (let i = 0; i < 2; i++) t.match(await http.send(list).catch((e: unknown) => e), { name: 'TransportError', code: 'ECONNREFUSED' });
  const third = await http.send(list).catch((e: unknown) => e);
  t.match(third, {
    code: 'ERR_SERVER_GONE',
    message: /^the server stopped answering: 3 requests in a row got no answer \(last: GET \/pets: .*ECONNREFUSED.*\); the run stopped$/,
  });

  let up = false;
  const flaky = await serve(t, (req, res) => (up ? json(res, 200, '[]') : req.socket.destroy()));
  const http2 = client(t, flaky);
  await http2.send(create).catch(() => undefined);
  await http2.send(create).catch(() => undefined);
  up = true;
  await http2.send(list);
  up = false;
  t.match(
    await http2.send(create).catch((e: unknown) => e),
    { name: 'TransportError' },
    'two failures, an answer, a failure: the server is not gone',
  );
});

t.test(
  'the preflight refuses only what is no pet store (no route, a redirect, a web page), with a hint for the likely mistake',
  async (t) => {
    const base = await serve(t, (req, res) => {
      if (req.url === '/pets') return json(res, 404, '{"message":"not found"}');
      if (req.url === '/html/v1/pets') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
      if (req.url === '/object/v1/pets') return json(res, 200, '{"pets":[]}');
      if (req.url === '/moved/v1/pets') return void res.writeHead(301, { location: 'https://elsewhere.example/v1/pets' }).end();
      if (req.url === '/broken/v1/pets') return json(res, 500, '{}');
      if (req.url === '/bom/v1/pets') return json(res, 200, '\uFEFF[]');
      if (req.url === '/gateway/v1/pets')
        return void res.writeHead(502, { 'content-type': 'text/plain' }).end('<!DOCTYPE html><p>bad gateway');
      json(res, 200, '[]');
    });
    const origin = base.replace(/\/v1$/, '');
    const rows: Array<[string, RegExp | undefined]> = [
      [base, undefined],
      [origin, /^GET http:\/\/127\.0\.0\.1:\d+\/pets answered 404: does the base URL end in \/v1\?/],
      [`${origin}/html/v1`, /answered 200 with a web page, not a list of pets: is http:.*\/html\/v1 the pet store's base URL\?$/],
      [`${origin}/gateway/v1`, /answered 502 with a web page, not a list of pets/],
      [`${origin}/moved/v1`, /answered 301, a redirect to https:\/\/elsewhere\.example\/v1\/pets: give the base URL it points to$/],
      // A pet store that breaks the contract in its listing is judged, not refused: the cases fail it (exit 1).
      [`${origin}/object/v1`, undefined],
      [`${origin}/broken/v1`, undefined],
      [`${origin}/bom/v1`, undefined],
    ];
    for (const [url, problem] of rows) {
      const error = await preflight(client(t, url), list, false).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (problem === undefined) t.equal(error, undefined, `${url}: a listing passes`);
      else t.match(error, { code: 'ERR_NOT_A_PET_STORE', message: problem }, url);
    }
  },
);
