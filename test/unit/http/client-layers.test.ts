/**
 * Each layer of the client alone, over a fake inner layer: the slots, the connection retry, the stop breaker and the throttle,
 * on a virtual clock; and the capture over undici keeping the bytes the server sent.
 */
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UndiciCapture } from '../../../src/http/capture.js';
import { ConnectionRetry } from '../../../src/http/connection-retry.js';
import { RequestFraming } from '../../../src/http/framing.js';
import { Pacer } from '../../../src/http/pacer.js';
import { RunStop } from '../../../src/http/run-stop.js';
import { type OutgoingRequest, TransportError } from '../../../src/http/sender.js';
import { Slots } from '../../../src/http/slots.js';
import { UNDICI } from '../../../src/http/undici-parts.js';
import { StopBreaker } from '../../../src/http/stop-breaker.js';
import { Throttle, Turns } from '../../../src/http/throttle.js';
import { RunError } from '../../../src/model/errors.js';
import type { Exchange, SentRequest } from '../../../src/model/exchange.js';
import { virtualClock } from '../../helpers.js';

const get: OutgoingRequest = { method: 'GET', path: '/pets', query: [], headers: {}, auth: 'valid', operation: 'listPets' };
const post: OutgoingRequest = { ...get, method: 'POST', operation: 'createPet', json: { name: 'x', categoryId: 1 } };
const sentOf = (req: OutgoingRequest): SentRequest => ({ ...req, url: `http://h${req.path}`, target: req.path });

function answer(req: OutgoingRequest, status = 200, headers: Record<string, string> = {}): Exchange {
  return {
    request: sentOf(req),
    response: { status, headers, raw: Buffer.alloc(0), bodyText: '', bytes: 0, truncated: false },
    durationMs: 1,
  };
}

function failure(req: OutgoingRequest, code: string, beforeResponse: boolean): TransportError {
  return new TransportError(code, `${code} happened`, sentOf(req), { timedOut: false, answeredMeanwhile: 0, beforeResponse });
}

/** What a scripted inner layer does on each call: answer with a status (and headers), or fail. */
type Step = number | [number, Record<string, string>] | { code: string; beforeResponse: boolean };

/** An inner layer that plays a script and records each call (and whether it asked for a fresh connection). */
function scripted(script: Step[]) {
  const calls: Array<{ method: string; fresh: boolean }> = [];
  return {
    calls,
    async send(req: OutgoingRequest): Promise<Exchange> {
      calls.push({ method: req.method, fresh: req.freshConnection === true });
      const step = script.shift() ?? 200;
      if (typeof step === 'number') return answer(req, step);
      if (Array.isArray(step)) return answer(req, step[0], step[1]);
      throw failure(req, step.code, step.beforeResponse);
    },
  };
}

t.test(
  'the connection retry sends once more, on a fresh connection, only an idempotent request lost before any response byte',
  async (t) => {
    const rows: Array<[string, OutgoingRequest, Step[], 'resent' | 'thrown' | 'answered']> = [
      ['GET, reset before a byte', get, [{ code: 'ECONNRESET', beforeResponse: true }, 200], 'resent'],
      ['GET, undici socket closed before a byte', get, [{ code: 'UND_ERR_SOCKET', beforeResponse: true }, 200], 'resent'],
      ['GET, reset in the middle of the body', get, [{ code: 'ECONNRESET', beforeResponse: false }], 'thrown'],
      ['GET, refused (no kept-alive connection closed)', get, [{ code: 'ECONNREFUSED', beforeResponse: true }], 'thrown'],
      ['GET, headers timeout', get, [{ code: 'UND_ERR_HEADERS_TIMEOUT', beforeResponse: true }], 'thrown'],
      ['POST, reset before a byte (it may have been processed)', post, [{ code: 'ECONNRESET', beforeResponse: true }], 'thrown'],
      [
        'GET, resent and lost again: never a third time',
        get,
        [
          { code: 'EPIPE', beforeResponse: true },
          { code: 'EPIPE', beforeResponse: true },
        ],
        'thrown',
      ],
      ['GET, answered', get, [200], 'answered'],
    ];
    for (const [name, req, script, expected] of rows) {
      const inner = scripted([...script]);
      const retry = new ConnectionRetry(inner);
      const result = await retry.send(req).catch((e: unknown) => e);
      if (expected === 'thrown') {
        t.type(result, TransportError, `${name}: thrown`);
        t.equal(inner.calls.length, script.length, `${name}: sent ${script.length} time(s)`);
        t.equal(retry.count, script.length - 1, `${name}: counted`);
        t.equal((result as TransportError).closedTwice, script.length === 2, `${name}: closed on a fresh connection too`);
        continue;
      }
      const exchange = result as Exchange;
      t.equal(exchange.response.status, 200, name);
      if (expected === 'resent') {
        t.same(
          inner.calls,
          [
            { method: 'GET', fresh: false },
            { method: 'GET', fresh: true },
          ],
          `${name}: once more, on a fresh connection`,
        );
        t.match(
          exchange.connectionRetry,
          /^the connection closed before any response byte \(\w+: \w+ happened\); sent once more on a fresh connection$/,
        );
        t.equal(retry.count, 1);
      } else t.equal(exchange.connectionRetry, undefined, `${name}: no retry`);
    }
  },
);

t.test('the stop breaker: three requests in a row without an answer stop the client; an answer resets the count', async (t) => {
  const gone = { code: 'ECONNREFUSED', beforeResponse: true };
  const rows: Array<[string, Step[], Array<'answer' | 'transport' | 'gone'>]> = [
    ['three failures', [gone, gone, gone], ['transport', 'transport', 'gone']],
    [
      'two failures, an answer, two failures',
      [gone, gone, 200, gone, gone],
      ['transport', 'transport', 'answer', 'transport', 'transport'],
    ],
    ['a 500 is an answer', [gone, 500, gone, gone], ['transport', 'answer', 'transport', 'transport']],
  ];
  for (const [name, script, expected] of rows) {
    const stop = new RunStop();
    const breaker = new StopBreaker(scripted([...script]), stop);
    const got: string[] = [];
    for (let i = 0; i < script.length; i++) {
      const result = await breaker.send(get).catch((e: unknown) => e);
      got.push(result instanceof TransportError ? 'transport' : result instanceof RunError ? 'gone' : 'answer');
    }
    t.same(got, expected, name);
    if (expected.at(-1) !== 'gone') continue;
    t.match(stop.reason, {
      code: 'ERR_SERVER_GONE',
      message:
        'the server stopped answering: 3 requests in a row got no answer (last: GET /pets: ECONNREFUSED happened (ECONNREFUSED)); the run stopped',
    });
    t.ok(stop.signal.aborted, `${name}: the run is told`);
    t.equal(await breaker.send(get).catch((e: unknown) => e), stop.reason, `${name}: nothing more is sent`);
  }
  const interrupted = new AbortController();
  interrupted.abort();
  const inner = scripted([]);
  const halted = await new StopBreaker(inner, new RunStop(interrupted.signal)).send(get).catch((e: unknown) => e);
  t.match(halted, { code: 'ERR_INTERRUPTED', message: 'interrupted before the request was sent' });
  t.equal(inner.calls.length, 0, 'an interrupted run sends nothing');
});

t.test('the stop breaker asks the plain request before it stops: a server that answers it refuses some requests only', async (t) => {
  const gone = { code: 'UND_ERR_HEADERS_TIMEOUT', beforeResponse: true };
  const rows: Array<[string, Step[], Array<'answer' | 'transport' | 'gone'>, number]> = [
    // The fourth call of the script is the plain request, which answers: the third failure is only that request's.
    ['the listing still answers', [gone, gone, gone, 200, gone], ['transport', 'transport', 'transport', 'transport'], 5],
    ['a 404 to the listing is an answer too', [gone, gone, gone, 404], ['transport', 'transport', 'transport'], 4],
    ['nothing answers', [gone, gone, gone, gone], ['transport', 'transport', 'gone'], 4],
  ];
  for (const [name, script, expected, calls] of rows) {
    const inner = scripted([...script]);
    const stop = new RunStop();
    const breaker = new StopBreaker(inner, stop, get);
    const got: string[] = [];
    for (const _ of expected) {
      const result = await breaker.send(post).catch((e: unknown) => e);
      got.push(result instanceof TransportError ? 'transport' : result instanceof RunError ? 'gone' : 'answer');
    }
    t.same(got, expected, name);
    t.equal(inner.calls.length, calls, `${name}: requests sent, the plain one included`);
    t.equal(inner.calls[3]?.method, 'GET', `${name}: the plain request is the listing`);
  }
});

t.test('a request closed on a fresh connection too is the server refusing it when the server answers the plain request', async (t) => {
  const closed = (): TransportError => failure(get, 'ECONNRESET', true).closedAgain();
  const refusing = {
    calls: 0,
    async send(req: OutgoingRequest): Promise<Exchange> {
      this.calls += 1;
      if (req.query.length > 0) throw closed();
      return answer(req);
    },
  };
  const breaker = new StopBreaker(refusing, new RunStop(), get);
  const limited = { ...get, query: [['limit', '100']] as Array<[string, string]> };
  const refused = await breaker.send(limited).catch((e: unknown) => e);
  t.match(refused, { closedTwice: true, answeredMeanwhile: 1 }, 'the plain listing answered: one other request answered');
  const cutShort = new StopBreaker(
    {
      async send(req: OutgoingRequest): Promise<Exchange> {
        if (req.query.length > 0) throw failure(req, 'UND_ERR_SOCKET', false);
        return answer(req);
      },
    },
    new RunStop(),
    get,
  );
  t.match(
    await cutShort.send(limited).catch((e: unknown) => e),
    { answeredMeanwhile: 1 },
    'an answer cut short: the plain listing is asked too',
  );
  t.equal(refusing.calls, 2, 'the request, then the plain listing');
  const gone = new StopBreaker(
    {
      async send(): Promise<Exchange> {
        throw closed();
      },
    },
    new RunStop(),
    get,
  );
  t.match(
    await gone.send(limited).catch((e: unknown) => e),
    { closedTwice: true, answeredMeanwhile: 0 },
    "nothing answers: not the server's refusal",
  );
});

t.test('the stop breaker says how many other requests were answered while a failed one waited', async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let n = 0;
  const breaker = new StopBreaker(
    {
      async send(req) {
        n += 1;
        if (n > 1) return answer(req);
        await held;
        throw failure(req, 'UND_ERR_HEADERS_TIMEOUT', true);
      },
    },
    new RunStop(),
  );
  const slow = breaker.send(get).catch((e: unknown) => e);
  await Promise.all([breaker.send(get), breaker.send(get)]);
  release();
  t.match(await slow, { name: 'TransportError', code: 'UND_ERR_HEADERS_TIMEOUT', answeredMeanwhile: 2 });
});

t.test('the throttle waits out 429 and 503 with Retry-After on its clock, backing off; a refused wait stops the client', async (t) => {
  const rows: Array<{
    name: string;
    script: Step[];
    pacing?: { maxWaitMs: number; waitBudgetMs: number };
    slept: number[];
    result: RegExp | number;
  }> = [
    { name: 'an answer at once', script: [200], slept: [], result: 200 },
    { name: '429 with Retry-After: 2', script: [[429, { 'retry-after': '2' }], 200], slept: [2000], result: 200 },
    { name: '429 without Retry-After waits a second', script: [429, 200], slept: [1000], result: 200 },
    {
      name: 'Retry-After: 0 backs off, doubling',
      script: [[429, { 'retry-after': '0' }], [503, { 'retry-after': '0' }], [429, { 'retry-after': '0' }], 204],
      slept: [250, 500, 1000],
      result: 204,
    },
    { name: 'a 503 without Retry-After is an answer', script: [503], slept: [], result: 503 },
    {
      name: 'a wait longer than --max-wait',
      script: [[429, { 'retry-after': '61' }]],
      slept: [],
      result: /wait 61 s \(429, Retry-After: 61 to GET \/pets\), longer than one wait may take \(60 s, --max-wait\)/,
    },
    {
      name: 'nothing but throttling, six in a row',
      script: Array.from({ length: 6 }, (): Step => [503, { 'retry-after': '5' }]),
      slept: [5000, 5000, 5000, 5000, 5000],
      result:
        /the server only rate-limits the run: 6 answers in a row were 503 with Retry-After: 5 \(last: GET \/pets\); the run could not be completed \(--rate-limit N/,
    },
    {
      name: 'a spent budget',
      script: [429, 429, 429],
      pacing: { maxWaitMs: 60_000, waitBudgetMs: 2500 },
      slept: [1000, 1000],
      result: /kept rate-limiting the run \(429 to GET \/pets\): 2 s spent waiting used up the budget of 2\.5 s/,
    },
  ];
  for (const row of rows) {
    const clock = virtualClock();
    const stop = new RunStop();
    const told: number[] = [];
    const pacer = new Pacer(row.pacing ?? { maxWaitMs: 60_000, waitBudgetMs: 300_000 }, clock);
    // The throttle records the pause; the turns below it wait it out before the request goes again.
    const throttle = new Throttle(new Turns(scripted([...row.script]), pacer, stop), pacer, stop, (wait) => told.push(wait.waitMs));
    const result = await throttle.send(get).catch((e: unknown) => e);
    t.same(clock.slept, row.slept, `${row.name}: slept`);
    t.same(told, row.slept, `${row.name}: each wait told as it begins`);
    if (typeof row.result === 'number') {
      const exchange = result as Exchange;
      t.equal(exchange.response.status, row.result, row.name);
      if (row.slept.length > 0)
        t.same(
          exchange.throttled,
          { responses: row.slept.length, waitedMs: row.slept.reduce((a, b) => a + b, 0) },
          `${row.name}: evidence`,
        );
      else t.equal(exchange.throttled, undefined);
    } else {
      t.match(result, { code: 'ERR_RATE_LIMITED', message: row.result }, row.name);
      t.equal(stop.reason, result, `${row.name}: the client stopped`);
    }
  }
});

t.test(
  'the turns: --rate-limit spaces every exchange, those of connection retries included; a pause the server asked for holds them',
  async (t) => {
    const clock = virtualClock();
    const pacer = new Pacer({ ratePerSecond: 4, maxWaitMs: 1000, waitBudgetMs: 1000 }, clock);
    const inner = scripted([200, 200, { code: 'ECONNRESET', beforeResponse: true }, 200]);
    const paced = new ConnectionRetry(new Turns(inner, pacer, new RunStop()));
    await paced.send(get);
    await paced.send(get);
    const retried = await paced.send(get);
    t.ok(retried.connectionRetry, 'the third was lost to a closed connection and sent again');
    t.same(clock.slept, [250, 250, 250], 'the first goes at once, then one every 250 ms, the one sent again too');
    t.same(
      inner.calls.map((c) => c.fresh),
      [false, false, false, true],
      'the retry asks for a fresh connection through the turns',
    );
    pacer.pause(900);
    await paced.send(get);
    t.same(clock.slept.at(-1), 900, 'the next turn waits out the pause the server asked for');

    const stop = new RunStop();
    stop.stop(new RunError('ERR_SERVER_GONE', 'gone'));
    const stopped = new Turns(scripted([]), new Pacer({ ratePerSecond: 1, maxWaitMs: 1000, waitBudgetMs: 1000 }, clock), stop);
    await stopped.send(get);
    t.equal(await stopped.send(get).catch((e: unknown) => e), stop.reason, 'the wait for the next turn ends with the stop');
    const interrupted = new AbortController();
    interrupted.abort();
    const held = new Turns(
      scripted([]),
      new Pacer({ ratePerSecond: 1, maxWaitMs: 1000, waitBudgetMs: 1000 }, clock),
      new RunStop(interrupted.signal),
    );
    await held.send(get).catch(() => undefined);
    t.match(await held.send(get).catch((e: unknown) => e), {
      code: 'ERR_INTERRUPTED',
      message: 'interrupted while waiting out a rate limit',
    });
  },
);

t.test('the slots: at most N requests under way, handed out in the order asked; a failed request frees its slot', async (t) => {
  for (const limit of [1, 3]) {
    const started: string[] = [];
    const pending: Array<() => void> = [];
    let inFlight = 0;
    let most = 0;
    const inner = {
      async send(req: OutgoingRequest): Promise<Exchange> {
        started.push(req.path);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise<void>((resolve) => pending.push(resolve));
        inFlight -= 1;
        if (req.path === '/pets/2') throw failure(req, 'ECONNRESET', false);
        return answer(req);
      },
    };
    const slots = new Slots(inner, limit);
    const paths = Array.from({ length: 7 }, (_, i) => `/pets/${i}`);
    const sent = paths.map((path) =>
      slots.send({ ...get, path }).then(
        () => 'answered',
        () => 'failed',
      ),
    );
    // Answers the oldest request under way until every one is over.
    while (started.length < paths.length || inFlight > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      pending.shift()?.();
    }
    t.same(
      await Promise.all(sent),
      paths.map((p) => (p === '/pets/2' ? 'failed' : 'answered')),
      `${limit}: each settled`,
    );
    t.equal(most, limit, `${limit}: never more under way`);
    t.same(started, paths, `${limit}: started in the order asked`);
  }
});

t.test("undici's Agent, connector and request come from its own modules, not its index (half the start-up)", async (t) => {
  // Falls back to the index when an undici release moves them: this says the installed one still has them where looked for.
  t.equal(UNDICI.lean, true);
  t.equal(typeof UNDICI.buildConnector, 'function', 'the connector the client opens its direct connections with');
});

t.test('the capture keeps the bytes the server sent, beside the text and the JSON', async (t) => {
  const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  const server = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(req.url?.includes('chunked') === true ? {} : { 'content-length': body.length }),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const options = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, requestTimeoutMs: 1000, maxResponseBytes: 1024, connections: 1 };
  const framing = new RequestFraming(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, 'capture-key-1', {});
  const capture = new UndiciCapture(options, framing, new RunStop(), (text) => text);
  t.teardown(() => capture.close());
  for (const query of [[], [['chunked', '1']]] as Array<Array<[string, string]>>) {
    const { response } = await capture.send({ ...get, query });
    t.same(response.raw, body, `the raw bytes, as sent (${query.length === 0 ? 'Content-Length' : 'chunked'})`);
    t.equal(response.bytes, body.length);
    t.equal(response.invalidUtf8At, 9, 'the invalid byte is found in them');
    t.match(response.bodyText, /\uFFFD/, 'the text holds U+FFFD there');
  }
  t.equal(capture.count, 2, 'every exchange counted');
});
