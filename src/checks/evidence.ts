/**
 * Evidence: what a report keeps of an exchange (the request as sent, the response with a bounded excerpt of its body, a
 * command that repeats it) or of a request that got no answer. Values are kept as sent: output streams redact them.
 */
import { curlCommand } from '../http/curl-command.js';
import { boundedText } from '../model/bounded-text.js';
import type { Exchange, SentRequest } from '../model/exchange.js';
import type { ExchangeEvidence } from '../model/results.js';

/** The most of a request body evidence keeps (characters): a 1 MiB name is cut, and its `reproduce` command still sends it whole. */
const MAX_REQUEST_BODY_EVIDENCE = 64 * 1024;

/** At most `bytes` bytes of a text (never half a character), and whether it was cut. */
export function excerpt(text: string, bytes: number): { text: string; cut: boolean } {
  if (text.length <= bytes / 3 || Buffer.byteLength(text) <= bytes) return { text, cut: false };
  // A character takes at least one byte: the first `bytes` characters hold the excerpt, and only they are encoded.
  return {
    text: Buffer.from(text.slice(0, bytes))
      .subarray(0, bytes)
      .toString('utf8')
      .replace(/\uFFFD$/, ''),
    cut: true,
  };
}

/** A duration as reports keep it: ms to a tenth. */
export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** The request as evidence keeps it: its body bounded. */
function requestEvidence(request: SentRequest): ExchangeEvidence['request'] {
  return request.body === undefined
    ? { method: request.method, url: request.url, headers: request.headers }
    : { method: request.method, url: request.url, headers: request.headers, body: boundedText(request.body, MAX_REQUEST_BODY_EVIDENCE) };
}

/** An answered exchange as evidence: step `step`, its last attempt begun at `startedAt`, `excerptBytes` of its body kept. */
export function evidenceOf(exchange: Exchange, step: number, startedAt: Date, attempts: number, excerptBytes: number): ExchangeEvidence {
  const body = excerpt(exchange.response.bodyText, excerptBytes);
  return {
    step,
    startedAt: startedAt.toISOString(),
    request: requestEvidence(exchange.request),
    response: {
      status: exchange.response.status,
      headers: exchange.response.headers,
      body: body.text,
      bytes: exchange.response.bytes,
      truncated: exchange.response.truncated || body.cut,
      ...(exchange.response.coding === undefined ? {} : { coding: exchange.response.coding }),
    },
    durationMs: roundMs(exchange.durationMs),
    attempts,
    reproduce: curlCommand(exchange.request),
    ...(exchange.connectionRetry === undefined ? {} : { connectionRetry: exchange.connectionRetry }),
    ...(exchange.throttled === undefined ? {} : { throttled: exchange.throttled }),
  };
}

/** A request that got no answer as evidence: what was sent, the failure's code and message, how long it waited. */
export function failureEvidence(
  sent: SentRequest,
  failure: { code: string; message: string },
  step: number,
  timing: { startedAt: Date; durationMs: number; attempts: number },
): ExchangeEvidence {
  return {
    step,
    startedAt: timing.startedAt.toISOString(),
    request: requestEvidence(sent),
    error: { code: failure.code, message: failure.message },
    durationMs: roundMs(timing.durationMs),
    attempts: timing.attempts,
    reproduce: curlCommand(sent),
  };
}
