/** report.har: the exchanges the report keeps as evidence, as an HTTP Archive (HAR 1.2) for browser devtools, Charles and HAR viewers. */
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { CaseResult, ExchangeEvidence, Outcome, RunReport } from '../model/results.js';
import { FileReporter } from './file-reporter.js';
import { REPORT_FILES } from './report-files.js';

/** The HTTP version HAR asks for: the suite's client speaks HTTP/1.1 only. */
const HTTP_VERSION = 'HTTP/1.1';

/** What browsers write as the MIME type of a body they know nothing about. */
const UNKNOWN_MIME_TYPE = 'x-unknown';

/** A header or query parameter. */
interface HarNameValue {
  name: string;
  value: string;
}

/** A HAR page: here, one case. */
interface HarPage {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
  _outcome: Outcome;
}

/** A HAR request. */
interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: [];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: { mimeType: string; text: string };
  headersSize: -1;
  bodySize: number;
}

/** A HAR response; `_error` (as browsers write it) for a request that got none. */
interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: [];
  headers: HarNameValue[];
  content: { size: number; mimeType: string; text?: string; comment?: string; _truncated?: true };
  redirectURL: string;
  headersSize: -1;
  bodySize: number;
  _error?: string;
}

/** A HAR entry, with the case and step of the report it comes from. */
interface HarEntry {
  pageref: string;
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _caseId: string;
  _step: number;
  _outcome: Outcome;
  _attempts: number;
  /** The run findings this response is an example of (`check id: message`): never the case's outcome. */
  _findings?: string[];
}

/** A HAR 1.2 document. */
interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment: string;
    pages: HarPage[];
    entries: HarEntry[];
  };
}

function nameValues(record: Record<string, string>): HarNameValue[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

function queryString(url: string): HarNameValue[] {
  return URL.canParse(url) ? [...new URL(url).searchParams].map(([name, value]) => ({ name, value })) : [];
}

function harRequest(request: ExchangeEvidence['request']): HarRequest {
  const har: HarRequest = {
    method: request.method,
    url: request.url,
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: nameValues(request.headers),
    queryString: queryString(request.url),
    headersSize: -1,
    bodySize: 0,
  };
  if (request.body !== undefined) {
    har.postData = { mimeType: request.headers['content-type'] ?? UNKNOWN_MIME_TYPE, text: request.body };
    har.bodySize = Buffer.byteLength(request.body);
  }
  return har;
}

function harResponse(exchange: ExchangeEvidence): HarResponse {
  const { response, error } = exchange;
  if (response === undefined) {
    // HAR has no slot for a request that got no response: status 0 and `_error`, as browsers export a failed request.
    const failed: HarResponse = {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: UNKNOWN_MIME_TYPE },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    };
    if (error !== undefined) failed._error = `${error.code}: ${error.message}`;
    return failed;
  }
  const content: HarResponse['content'] = {
    size: response.bytes,
    mimeType: response.headers['content-type'] ?? UNKNOWN_MIME_TYPE,
    text: response.body,
  };
  if (response.truncated) {
    content.comment = `an excerpt: the report keeps the start of the body only (${response.bytes} bytes were read)`;
    content._truncated = true;
  }
  return {
    status: response.status,
    // The report keeps no reason phrase: the standard one stands in for it.
    statusText: STATUS_CODES[response.status] ?? '',
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: nameValues(response.headers),
    content,
    redirectURL: response.headers['location'] ?? '',
    headersSize: -1,
    bodySize: response.bytes,
  };
}

function harEntry(result: CaseResult, exchange: ExchangeEvidence, runStartedAt: string, findings: RunReport['findings']): HarEntry {
  // The report times a whole exchange only: all of it is counted as waiting for the response.
  const time = Math.max(0, exchange.durationMs);
  const entry: HarEntry = {
    pageref: result.id,
    startedDateTime: exchange.startedAt ?? runStartedAt,
    time,
    request: harRequest(exchange.request),
    response: harResponse(exchange),
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _caseId: result.id,
    // Counted from 1, as report.json and every other report count steps.
    _step: exchange.step + 1,
    _outcome: result.outcome,
    _attempts: exchange.attempts,
  };
  const found = findings.flatMap((f) =>
    f.examples.filter((e) => e.caseId === result.id && e.step === exchange.step).map((e) => `${f.id}: ${e.message}`),
  );
  if (found.length > 0) entry._findings = found;
  if (exchange.startedAt === undefined)
    entry.comment = 'the report does not say when this request was sent (it predates startedAt): the start of the run stands in for it';
  return entry;
}

/** Every time here is toISOString's (UTC, fixed width), so text order is time order. */
function oldestFirst(a: { startedDateTime: string }, b: { startedDateTime: string }): number {
  return a.startedDateTime < b.startedDateTime ? -1 : a.startedDateTime > b.startedDateTime ? 1 : 0;
}

/** Renders the report as HAR 1.2: an entry for each exchange kept as evidence, oldest first, a page for each case that has one. */
export function renderHar(report: RunReport): string {
  const { meta } = report;
  const pages: HarPage[] = [];
  const entries: HarEntry[] = [];
  for (const result of report.cases) {
    if (result.exchanges.length === 0) continue;
    const own = result.exchanges.map((exchange) => harEntry(result, exchange, meta.startedAt, report.findings));
    const first = [...own].sort(oldestFirst)[0]?.startedDateTime ?? meta.startedAt;
    pages.push({
      startedDateTime: first,
      id: result.id,
      title: `${result.id} (${result.outcome}): ${result.title}`,
      pageTimings: { onContentLoad: -1, onLoad: -1 },
      _outcome: result.outcome,
    });
    entries.push(...own);
  }
  const har: Har = {
    log: {
      version: '1.2',
      creator: { name: meta.tool.name, version: meta.tool.version },
      comment:
        `run ${meta.runId} against ${meta.baseUrl}: ${report.verdict}. The exchanges the report keeps as evidence (of the fuzz ` +
        `and stateful phases, only what failed); a response body is kept up to the excerpt size (content._truncated marks one that was ` +
        `cut); the key is redacted.`,
      // Cases run side by side, so report order is not time order; viewers draw their waterfall oldest first.
      pages: pages.sort(oldestFirst),
      entries: entries.sort(oldestFirst),
    },
  };
  return `${JSON.stringify(har, null, 2)}\n`;
}

/** Writes report.har when the run ends. */
export class HarReporter extends FileReporter {
  constructor(reportDir: string) {
    super('har', path.join(reportDir, REPORT_FILES.har), renderHar);
  }
}
