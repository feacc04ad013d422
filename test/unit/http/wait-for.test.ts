/**
 * --wait-for SECONDS: the tries and their pauses on a virtual clock (no real waiting), what counts as an answer, the live
 * line on a terminal only, and one run whose service starts listening a moment after the run began.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { DEFAULT_HTTP_OPTIONS } from '../../../src/http/client.js';
import { openClient } from '../../../src/http/open-client.js';
import { listingProbe, waitForService, type WaitProbe } from '../../../src/engine/phases/wait-for.js';
import { type OutgoingRequest, TransportError } from '../../../src/http/sender.js';
import type { ServiceWait } from '../../../src/model/events.js';
import type { ReceivedResponse, SentRequest } from '../../../src/model/exchange.js';
import { RunError } from '../../../src/model/errors.js';
import { WaitConsoleReporter } from '../../../src/reporters/wait-console-reporter.js';
import { virtualClock } from '../../helpers.js';

const URL_TRIED = 'http://127.0.0.1:9/v1';
const LISTING: OutgoingRequest = { method: 'GET', path: '/pets', query: [], headers: {}, auth: 'valid', operation: 'listPets' };
const REFUSED = 'connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)';

/** A probe that gets no answer `failures` times (each try taking `tryMs` on the clock), then an answer. */
function probeOf(failures: number, clock: { sleep(ms: number): Promise<void> }, tryMs = 0): WaitProbe & { tries: () => number } {
  let tries = 0;
  const probe = async (): Promise<string> => {
    tries += 1;
    if (tryMs > 0) await clock.sleep(tryMs);
    return tries > failures ? 'answered' : REFUSED;
  };
  return Object.assign(probe, { tries: () => tries });
}

t.test(
  'the tries: a pause that doubles from 250 ms to 2 s, never past the bound; past it one RunError that says how long and why',
  async (t) => {
    const rows: Array<[what: string, failures: number, boundMs: number, tryMs: number, slept: number[], error?: RegExp]> = [
      ['answered at once: no pause, no line', 0, 10_000, 0, []],
      ['answered at the fourth try', 3, 10_000, 0, [250, 500, 1000]],
      ['the pause stops growing at 2 s', 6, 60_000, 0, [250, 500, 1000, 2000, 2000, 2000]],
      [
        'never answered: the last pause is what the bound leaves, then one line',
        Infinity,
        5_000,
        0,
        [250, 500, 1000, 2000, 1250],
        /^http:\/\/127\.0\.0\.1:9\/v1 did not answer within 5 s \(--wait-for\): 6 tries, the last: connect ECONNREFUSED 127\.0\.0\.1:9 \(ECONNREFUSED\)$/,
      ],
      [
        'tries that take time count against the bound',
        Infinity,
        3_000,
        1_000,
        [1000, 250, 1000, 500, 1000],
        /within 3 s \(--wait-for\): 3 tries/,
      ],
      ['a bound of under one pause: one try, then the pause it leaves', Infinity, 100, 0, [100], /within 0\.1 s \(--wait-for\): 2 tries/],
    ];
    for (const [what, failures, boundMs, tryMs, slept, error] of rows) {
      const clock = virtualClock();
      const probe = probeOf(failures, clock, tryMs);
      const seen: ServiceWait[] = [];
      const outcome = await waitForService(probe, { url: URL_TRIED, boundMs, clock, onTry: (wait) => seen.push(wait) }).then(
        () => undefined,
        (e: unknown) => e,
      );
      t.same(clock.slept, slept, `${what}: the pauses (and the tries' own time)`);
      if (error === undefined) t.equal(outcome, undefined, `${what}: it returns`);
      else {
        t.ok(outcome instanceof RunError && outcome.code === 'ERR_WAIT_TIMEOUT', `${what}: ERR_WAIT_TIMEOUT`);
        t.match((outcome as Error).message, error, what);
        t.notOk((outcome as Error).message.includes('\n'), `${what}: one line`);
      }
      const failed = Math.min(failures, probe.tries());
      t.equal(seen.length, failed, `${what}: every try that got no answer is told`);
      t.same(
        seen.map((w) => w.tries),
        Array.from({ length: failed }, (_, i) => i + 1),
        `${what}: counted`,
      );
      t.ok(
        seen.every((w) => w.boundMs === boundMs && w.last === REFUSED && w.waitedMs <= boundMs + tryMs),
        `${what}: each with the bound, the reason and the time so far (a try may end past the bound)`,
      );
    }
  },
);

t.test('a signal during a pause stops the waiting: ERR_INTERRUPTED, not a bug', async (t) => {
  const controller = new AbortController();
  const clock = virtualClock();
  const probe: WaitProbe = () => {
    controller.abort('SIGINT');
    return Promise.resolve(REFUSED);
  };
  const error = await waitForService(probe, { url: URL_TRIED, boundMs: 10_000, clock, signal: controller.signal }).catch((e: unknown) => e);
  t.match(error, { code: 'ERR_INTERRUPTED', message: `interrupted while waiting for ${URL_TRIED} to answer` });
  t.ok(error instanceof RunError);
});

t.test(
  "what counts as the service's answer: any status but a gateway's 502, 503 or 504; a TLS mismatch (waiting will not mend it)",
  async (t) => {
    const sent: SentRequest = {
      method: 'GET',
      url: `${URL_TRIED}/pets`,
      target: '/pets',
      headers: {},
      auth: 'valid',
      operation: 'listPets',
    };
    const answer = (status: number): ReceivedResponse => ({
      status,
      headers: {},
      raw: Buffer.alloc(0),
      bodyText: '',
      bytes: 0,
      truncated: false,
    });
    const rows: Array<[what: string, result: number | [code: string, message: string], outcome: string]> = [
      ['a listing', 200, 'answered'],
      ['a 404 (the preflight then says the base URL is wrong)', 404, 'answered'],
      ['a refused key', 401, 'answered'],
      ['a 500', 500, 'answered'],
      ['a gateway with nothing behind it yet', 502, '502 from a gateway'],
      ['a gateway that says unavailable', 503, '503 from a gateway'],
      ['a gateway timeout', 504, '504 from a gateway'],
      ['nothing listening', ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'], REFUSED],
      ['a name not resolved yet', ['ENOTFOUND', 'getaddrinfo ENOTFOUND petstore'], 'getaddrinfo ENOTFOUND petstore (ENOTFOUND)'],
      ['https on a plain port', ['ERR_SSL_WRONG_VERSION_NUMBER', 'TLS handshake failed (wrong version number)'], 'answered'],
      ['an untrusted certificate', ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS certificate rejected (self-signed certificate)'], 'answered'],
    ];
    for (const [what, result, outcome] of rows) {
      let closed = 0;
      const client = {
        send: () =>
          typeof result === 'number'
            ? Promise.resolve({ request: sent, response: answer(result), durationMs: 1 })
            : Promise.reject(new TransportError(result[0], result[1], sent)),
        close: () => {
          closed += 1;
          return Promise.resolve();
        },
      };
      t.equal(await listingProbe(() => client, LISTING)(), outcome, what);
      t.equal(closed, 1, `${what}: the try's client is closed`);
    }
  },
);

t.test('tries on real clients: every one of many refused tries says why, never that the server is gone', async (t) => {
  const probe = listingProbe(
    () => openClient({ ...DEFAULT_HTTP_OPTIONS, baseUrl: URL_TRIED, apiKey: 'wait-for-probe-key', connections: 1 }),
    LISTING,
  );
  // A client stops for good after three requests in a row got no answer: each try has one of its own.
  for (let i = 1; i <= 5; i++) t.equal(await probe(), REFUSED, `try ${i}`);
});

t.test('the live line: on a terminal only, rewritten in place, gone before the next line', async (t) => {
  const wait: ServiceWait = { url: URL_TRIED, tries: 3, waitedMs: 1_750, boundMs: 30_000, last: REFUSED };
  for (const [what, tty, quiet, expected] of [
    ['a terminal', true, false, `\r\u001b[Kwaiting for ${URL_TRIED} to answer: 2/30 s, 3 tries (${REFUSED})\r\u001b[K`],
    ['a CI log', false, false, ''],
    ['--quiet', true, true, ''],
  ] as const) {
    let written = '';
    const stream = Object.assign(new PassThrough(), { isTTY: tty });
    stream.on('data', (d: Buffer) => (written += d.toString()));
    const reporter = new WaitConsoleReporter({ stream, quiet });
    reporter.onServiceWait(wait);
    reporter.onRunStart();
    reporter.onRunStart();
    await new Promise((resolve) => setImmediate(resolve));
    t.equal(written, expected, what);
  }
});
