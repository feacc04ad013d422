/**
 * `--out prometheus-rw=URL`: when the run ends, its counts and its load's figures (prometheus-series.ts) are pushed to URL
 * by Prometheus remote write 1.0, once, within PUSH_TIMEOUT_MS. A push that fails is this reporter's failure, as a file
 * that cannot be written is a file reporter's: one line, the other reports written all the same, and the exit code of a
 * run with a missing report. What is sent is the report's counts and ids, never the API key or a request.
 */
import { safeUrl } from '../model/safe-url.js';
import type { RunReport } from '../model/results.js';
import { encodeWriteRequest, snappyBlock } from './prometheus-encoding.js';
import { runSeries } from './prometheus-series.js';
import type { Reporter } from './reporter.js';

/** How long a push may take, answer included: a Prometheus that does not answer does not hold the run's end for long. */
const PUSH_TIMEOUT_MS = 10_000;

/** The most of an error answer's body quoted (Prometheus says there why it refused the samples). */
const QUOTED_BODY = 200;

/** What a failed fetch says, in a few words: its cause's code (ECONNREFUSED) or the timeout. */
function causeOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** The headers of a push; credentials in the URL (`https://user:password@host/...`) become basic authentication. */
function pushRequest(url: string): { target: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  const headers: Record<string, string> = {
    'Content-Encoding': 'snappy',
    'Content-Type': 'application/x-protobuf',
    'User-Agent': 'petstore-conformance',
    'X-Prometheus-Remote-Write-Version': '0.1.0',
  };
  if (parsed.username !== '' || parsed.password !== '') {
    const user = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    headers['Authorization'] = `Basic ${Buffer.from(user, 'utf8').toString('base64')}`;
    parsed.username = '';
    parsed.password = '';
  }
  return { target: parsed.href, headers };
}

/** Pushes the finished run to one remote-write URL. */
export class PrometheusReporter implements Reporter {
  readonly name = 'prometheus-rw';
  private readonly url: string;
  private readonly redact: (text: string) => string;
  private readonly timeoutMs: number;

  /** `redact`: the run's redactor, applied to every label value as to every report's values. */
  constructor(url: string, redact: (text: string) => string, timeoutMs = PUSH_TIMEOUT_MS) {
    this.url = url;
    this.redact = redact;
    this.timeoutMs = timeoutMs;
  }

  async onRunEnd(report: RunReport): Promise<void> {
    const body = snappyBlock(encodeWriteRequest(runSeries(report, this.redact)));
    const { target, headers } = pushRequest(this.url);
    const where = `could not push the results to ${safeUrl(this.url)} (Prometheus remote write)`;
    let response: Response;
    try {
      // No redirect is followed: the samples go where the URL says, or nowhere.
      response = await fetch(target, { method: 'POST', headers, body, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw new Error(`${where}: ${causeOf(error, this.timeoutMs)}`);
    }
    const answer = await response.text().catch((error: unknown) => causeOf(error, this.timeoutMs));
    if (!response.ok) {
      const said = answer.trim().replace(/\s+/g, ' ').slice(0, QUOTED_BODY);
      throw new Error(`${where}: HTTP ${response.status}${said === '' ? '' : ` (${said})`}`);
    }
  }
}
