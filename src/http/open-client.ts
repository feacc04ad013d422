/**
 * The one place a client is opened: its layers composed over the undici capture, innermost first (undici's `compose`):
 * capture → deadline → turns (--rate-limit, the server's pause) → connection retry → stop breaker → throttle (Retry-After)
 * → slots (--concurrency) → observe (the store model) → write gate (read-only, --max-writes).
 */
import { UndiciCapture } from './capture.js';
import type { Client, ClientLayers, HttpClientOptions } from './client.js';
import { runRedactor } from './connection.js';
import { ConnectionRetry } from './connection-retry.js';
import { DECODED_CODINGS } from './content-coding.js';
import { Deadline } from './deadline.js';
import { RequestFraming } from './framing.js';
import { Observe } from './observe.js';
import { DEFAULT_PACING, Pacer } from './pacer.js';
import { RunStop } from './run-stop.js';
import { compose, type Layer } from './sender.js';
import { Slots } from './slots.js';
import { StopBreaker } from './stop-breaker.js';
import { Throttle, Turns } from './throttle.js';
import { WriteGate } from './write-gate.js';

/** Opens a client with its layers: the observe layer and the write gate when `layers` names them. */
export function openClient(options: HttpClientOptions, layers: ClientLayers = {}): Client {
  const framing = new RequestFraming(options.baseUrl, options.apiKey, options, DECODED_CODINGS);
  const stop = new RunStop(options.abort);
  const pacer = new Pacer(options.pacing ?? DEFAULT_PACING, options.waitClock);
  const capture = new UndiciCapture(options, framing, stop, runRedactor(options.apiKey, options));
  let retry: ConnectionRetry | undefined;
  let throttle: Throttle | undefined;
  let gate: WriteGate | undefined;
  const { observer, writes } = layers;
  const sender = compose(
    capture,
    (next) => new Deadline(next, options.requestTimeoutMs, [stop.signal, stop.abort]),
    (next) => new Turns(next, pacer, stop),
    (next) => {
      retry = new ConnectionRetry(next);
      return retry;
    },
    (next) => new StopBreaker(next, stop, options.alive),
    (next) => {
      throttle = new Throttle(next, pacer, stop, options.onWait);
      return throttle;
    },
    // As many requests in flight as the pool has connections: a POST's connection of its own included.
    (next) => new Slots(next, options.connections),
    ...(observer === undefined ? [] : ([(next) => new Observe(next, observer)] satisfies Layer[])),
    ...(writes === undefined
      ? []
      : ([
          (next) => {
            gate = new WriteGate(next, writes);
            return gate;
          },
        ] satisfies Layer[])),
  );
  return {
    base: framing.base,
    send: (request) => sender.send(request),
    urlFor: (path, query) => framing.urlFor(path, query),
    get stopSignal() {
      return stop.signal;
    },
    get stopped() {
      return stop.reason;
    },
    get requestCount() {
      return capture.count;
    },
    get traffic() {
      return { ...pacer.totals, connectionRetries: retry?.count ?? 0, waits: throttle?.waits ?? [] };
    },
    writeBudget: {
      get spent() {
        return gate?.spent ?? false;
      },
    },
    close: () => capture.close(),
  };
}
