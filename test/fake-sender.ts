/**
 * Senders for unit tests of the phases: no server, no socket. One answers from a table (a function of the request); one
 * answers as the reference store's handler does, called as a function.
 */
import type { OutgoingRequest, Sender } from '../src/http/sender.js';
import type { Exchange } from '../src/model/exchange.js';
import { stringifyExactJson } from '../src/model/json.js';
import { createPetStore, type PetResponse } from '../src/server/reference-server.js';
import { exchange, type ExchangeSpec } from './check-fixtures.js';

/** A sender, and every request sent through it, in order. */
export interface FakeSender {
  sender: Sender;
  sent: OutgoingRequest[];
}

/** The request target relative to the base URL, with its query, as the client writes it. */
function targetOf(request: OutgoingRequest): string {
  return `${request.path}${request.query.length > 0 ? `?${new URLSearchParams(request.query).toString()}` : ''}`;
}

/** The body text of a request, as the client sends it. */
function bodyOf(request: OutgoingRequest): string {
  if (request.bytes !== undefined) return request.bytes.toString('utf8');
  return request.body ?? (request.json === undefined ? '' : stringifyExactJson(request.json));
}

/** Answers each request with what `answer` says of it. */
export function tableSender(answer: (request: OutgoingRequest, body: string) => ExchangeSpec): FakeSender {
  const sent: OutgoingRequest[] = [];
  const sender: Sender = {
    async send(request): Promise<Exchange> {
      sent.push(request);
      const spec = answer(request, bodyOf(request));
      return exchange({ ...spec, method: request.method, target: targetOf(request), operation: request.operation });
    },
  };
  return { sender, sent };
}

/** Answers as the reference store does (its handler called as a function), with the key it holds; `bend` may change an answer. */
export function storeSender(bend: (request: OutgoingRequest, response: PetResponse) => PetResponse = (_, r) => r): FakeSender {
  const apiKey = 'fake-store-key';
  const store = createPetStore({ apiKey, now: () => new Date('2026-11-22T12:00:00Z') });
  const sent: OutgoingRequest[] = [];
  const sender: Sender = {
    async send(request): Promise<Exchange> {
      sent.push(request);
      const body = bodyOf(request);
      const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...request.headers };
      const query = new URLSearchParams(request.query);
      const response = bend(
        request,
        await store.handle({ method: request.method, path: `/v1${request.path}`, query, headers, body: Buffer.from(body) }),
      );
      return exchange({
        status: response.status,
        headers: response.headers,
        body: response.body,
        method: request.method,
        target: targetOf(request),
        operation: request.operation,
      });
    },
  };
  return { sender, sent };
}
