/** Faults that only show under load, as a wrapper around the reference server's handler (for the load tests). */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isJsonObject, parseExactJson, stringifyExactJson } from '../model/json.js';

/**
 * `load-flaky-500`: every 10th request answers 500. `load-slow`: every answer waits 250 ms.
 * `load-wrong-status`: every 5th filtered listing holds one pet of another status.
 */
export type LoadFault = 'load-flaky-500' | 'load-slow' | 'load-wrong-status';

/** Every load fault, for tests and the variant matrix. */
export const LOAD_FAULTS: readonly LoadFault[] = ['load-flaky-500', 'load-slow', 'load-wrong-status'];

const FLAKY_EVERY = 10;
const SLOW_MS = 250;
const WRONG_EVERY = 5;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Rewrites the listing body of one response: the first pet gets a status other than the filter's. */
function answerWithWrongStatus(res: ServerResponse, filter: string): void {
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  let head: { status: number; headers: OutgoingHttpHeaders } = { status: 200, headers: {} };
  res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
    head = { status, headers: headers ?? {} };
    return res;
  }) as typeof res.writeHead;
  res.end = ((body?: string) => {
    let text = body ?? '';
    const pets = head.status === 200 ? parseExactJson(text) : undefined;
    if (Array.isArray(pets) && isJsonObject(pets[0])) {
      pets[0]['status'] = filter === 'sold' ? 'available' : 'sold';
      text = stringifyExactJson(pets);
    }
    writeHead(head.status, { ...head.headers, 'content-length': Buffer.byteLength(text) });
    return end(text);
  }) as typeof res.end;
}

/** Wraps a handler with the load faults asked for; with none, returns the handler itself. */
export function withLoadFaults(handle: Handler, faults: ReadonlySet<string>): Handler {
  const active = LOAD_FAULTS.filter((f) => faults.has(f));
  if (active.length === 0) return handle;
  let requests = 0;
  let filtered = 0;
  return (req, res) => {
    requests += 1;
    if (faults.has('load-flaky-500') && requests % FLAKY_EVERY === 0) {
      const body = JSON.stringify({ code: 'internal', message: 'a deliberate fault', status: 500 });
      res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const filter = new URL(req.url ?? '/', 'http://localhost').searchParams.get('status');
    if (faults.has('load-wrong-status') && filter !== null && ++filtered % WRONG_EVERY === 0) answerWithWrongStatus(res, filter);
    if (faults.has('load-slow')) setTimeout(() => handle(req, res), SLOW_MS);
    else handle(req, res);
  };
}
