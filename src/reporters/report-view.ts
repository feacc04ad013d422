/** What every renderer reads out of a report the same way: reasons, the failing exchange, evidence as text, the deprecation countdown. */
import type { ServerWait } from '../model/exchange.js';
import type {
  CaseResult,
  CheckOutcome,
  ExchangeEvidence,
  Finding,
  InternalError,
  Outcome,
  RunMeta,
  RunReport,
  SourceLocation,
} from '../model/results.js';

/** The longest message a renderer shows whole; longer ones are cut (a server may say a lot). */
const MAX_MESSAGE_CHARS = 2_000;

/** How many failures of one check (e.g. schema errors) a renderer lists. */
export const MAX_DETAILS = 20;

// C0 and C1 controls, DEL, lone surrogates and the non-characters U+FFFE/U+FFFF: never useful in a report, sometimes harmful.
const UNSAFE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The label of each outcome, as the console and the HTML show it. */
export const LABELS: Record<Outcome, string> = {
  failed: 'FAIL',
  'internal-error': 'INTERNAL ERROR',
  'could-not-test': 'COULD NOT TEST',
  warned: 'WARN',
  passed: 'PASS',
  'not-judged': 'NOT JUDGED',
};

/** Removes characters that no text format of a report may carry (tab, newline and carriage return stay). */
export function safeText(text: string): string {
  return text.replace(UNSAFE, '');
}

/** Cuts text to `max` characters, saying how much was left out. */
export function bounded(text: string, max = MAX_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Text on one line: whitespace runs collapsed, controls removed, cut at `max`. */
export function oneLine(text: string, max = 200): string {
  const line = safeText(text).replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** The cases of one outcome. */
export function casesWith(report: RunReport, outcome: Outcome): CaseResult[] {
  return report.cases.filter((c) => c.outcome === outcome);
}

/** The checks that decided a case's outcome (those that ended as the case did). */
export function decidingChecks(result: CaseResult): CheckOutcome[] {
  return result.outcome === 'passed' ? [] : result.checks.filter((c) => c.outcome === result.outcome);
}

/** Why a case ended as it did: the messages of the checks that decided it, else its reason. */
export function problemMessages(result: CaseResult): string[] {
  const deciding = decidingChecks(result);
  const messages = deciding.map((a) => `${a.id}: ${a.message}`);
  return messages.length > 0 ? messages : result.reason === undefined ? [] : [result.reason];
}

/** The one-line reason of a case that did not pass: failed, warned, not judged, could not test or internal error. */
export function reasonLine(result: CaseResult, max = 200): string {
  return oneLine(result.reason ?? problemMessages(result)[0] ?? result.outcome, max);
}

/** The exchange that decided the case (the step of its first deciding check), else the last one. */
export function decidingExchange(result: CaseResult): ExchangeEvidence | undefined {
  const deciding = decidingChecks(result)[0];
  return (deciding === undefined ? undefined : result.exchanges.find((e) => e.step === deciding.step)) ?? result.exchanges.at(-1);
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}

/** The sections of one exchange as plain text: request, response (or transport error), reproduction. */
export function exchangeSections(exchange: ExchangeEvidence): Array<{ title: string; text: string }> {
  const { request, response, error } = exchange;
  const sections = [
    {
      title: 'Request',
      text: [
        `${request.method} ${request.url}`,
        ...headerLines(request.headers),
        ...(request.body === undefined ? [] : ['', request.body]),
      ].join('\n'),
    },
  ];
  if (response) {
    const size = `(${response.bytes} bytes${response.truncated ? ', excerpt' : ''})`;
    sections.push({
      title: `Response ${size}`,
      text: [`HTTP ${response.status}`, ...headerLines(response.headers), '', response.body].join('\n'),
    });
  }
  if (error) sections.push({ title: 'Transport error', text: `${error.code}: ${error.message}` });
  const notes = [
    ...(exchange.connectionRetry === undefined ? [] : [exchange.connectionRetry]),
    ...(exchange.throttled === undefined
      ? []
      : [
          `${exchange.throttled.responses} throttled response(s) before this answer; waited ${exchange.throttled.waitedMs} ms as the server asked`,
        ]),
  ];
  if (notes.length > 0) sections.push({ title: 'Transport', text: notes.join('\n') });
  if (exchange.reproduce !== undefined) sections.push({ title: 'Reproduce with', text: exchange.reproduce });
  return sections.map((s) => ({ title: s.title, text: bounded(safeText(s.text), 8_000) }));
}

/** `file:line:col`, or nothing for what no file declares. */
export function located(source: SourceLocation | undefined): string | undefined {
  return source === undefined ? undefined : `${source.file}:${source.line}:${source.column}`;
}

/** Where to fix or read what decided a case: the expectation that failed, else the case's declaration. */
export function problemLocation(result: CaseResult): string | undefined {
  return located(decidingChecks(result).find((c) => c.source !== undefined)?.source ?? result.source);
}

/** The failures of a check as lines: each message, with where in the body it is when that is known. */
export function failureLines(check: CheckOutcome): string[] {
  const lines = (check.failures ?? []).map((f) =>
    f.pointer === undefined || f.pointer === '' || f.message.includes(f.pointer) ? f.message : `${f.message} (at ${f.pointer})`,
  );
  // The same finding on many items of a listing ([0] status…, [1] status…) is one line that names the items.
  const groups = new Map<string, { first: string; items: number[] }>();
  for (const line of lines) {
    const item = /^\[(\d+)\]/.exec(line);
    const key = item === null ? line : line.replace(/^\[\d+\]/, '[i]').replace(/\(at \/\d+(\/|\))/, '(at /i$1');
    const group = groups.get(key) ?? { first: line, items: [] };
    if (item !== null) group.items.push(Number(item[1]));
    groups.set(key, group);
  }
  return [...groups].map(([key, { first, items }]) =>
    items.length < 2 ? first : `${key}, for items ${indexRanges(items)} (${items.length} in all)`,
  );
}

/** Item indexes as ranges: 0–17, 19. */
function indexRanges(indexes: readonly number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j += 1;
    ranges.push(j > i + 1 ? `${sorted[i] as number}–${sorted[j] as number}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return ranges.join(', ');
}

/** A failure or warning as plain text: the deciding checks with their failures, where they are declared, then the evidence. */
export function problemText(result: CaseResult): string {
  const declared = located(result.source);
  const lines = [
    `${result.id}: ${result.title}`,
    `clause: ${result.clause}`,
    ...(declared === undefined ? [] : [`declared at ${declared}`]),
    '',
  ];
  for (const check of decidingChecks(result)) {
    const at = located(check.source);
    lines.push(`step ${check.step + 1}, ${check.id}: ${bounded(check.message)}${at === undefined ? '' : ` (${at})`}`);
    const failures = failureLines(check);
    if (failures.length > 1) for (const line of failures.slice(0, MAX_DETAILS)) lines.push(`  - ${bounded(line, 500)}`);
  }
  if (decidingChecks(result).length === 0 && result.reason !== undefined) lines.push(bounded(result.reason));
  const exchange = decidingExchange(result);
  if (exchange) for (const section of exchangeSections(exchange)) lines.push('', `${section.title}:`, section.text);
  const earlier = result.exchanges.filter((e) => exchange !== undefined && e.step < exchange.step && e.reproduce !== undefined);
  if (earlier.length > 0)
    lines.push('', 'The steps before it, to reproduce from the start:', ...earlier.map((e) => `step ${e.step + 1}: ${e.reproduce ?? ''}`));
  return safeText(lines.join('\n'));
}

/** A countdown as a sentence. */
export function countdownSentence(deprecation: RunMeta['deprecations'][number]): string {
  const { operation, sunset, daysLeft: days } = deprecation;
  if (days > 0) return `${operation} is removed in ${days} day${days === 1 ? '' : 's'} (${sunset}, by the suite's clock)`;
  return `${operation} was removed on ${sunset} (${-days} day${days === -1 ? '' : 's'} ago by the suite's clock)`;
}

/** The verdict in one line, e.g. "FAILED: 3 of 40 checks failed". */
export function verdictLine(report: RunReport): string {
  const total = report.cases.length;
  const { failed, warned } = report.counts;
  const couldNotTest = report.counts['could-not-test'];
  const findings = report.findings.length;
  if (report.verdict === 'failed')
    return failed > 0 ? `FAILED: ${failed} of ${total} cases failed` : `FAILED: ${warned + findings} warnings in strict mode`;
  if (report.verdict === 'internal-error') {
    const where = report.internalErrors.length;
    return `INTERNAL ERROR: ${where} check${where === 1 ? '' : 's'} or phase${where === 1 ? '' : 's'} of petstore-conformance threw (a bug to report, not a verdict on the server)`;
  }
  if (report.stopped !== undefined && report.verdict === 'incomplete')
    return `INCOMPLETE: the run stopped before its end (${report.stopped.code}) after ${total} case${total === 1 ? '' : 's'}`;
  if (report.verdict === 'incomplete')
    return couldNotTest > 0
      ? `INCOMPLETE: ${couldNotTest} of ${total} cases could not be tested`
      : `INCOMPLETE: interrupted after ${total - report.cases.filter((c) => c.skip === 'interrupted').length} of ${total} cases`;
  const recommended = findings > 0 ? `, ${findings} finding${findings === 1 ? '' : 's'}` : '';
  return `PASSED: ${total} case${total === 1 ? '' : 's'}${warned > 0 ? `, ${warned} with warnings` : ''}${recommended}`;
}

/** Cases of one outcome grouped by what they report (the same messages), in first-seen order: repeats are shown once. */
export function groupedByProblem(results: readonly CaseResult[]): CaseResult[][] {
  const groups = new Map<string, CaseResult[]>();
  for (const result of results) {
    const key = problemMessages(result).join('\n');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [result]);
    else group.push(result);
  }
  return [...groups.values()];
}

/** A wait the server asked for, in words: `waiting 5.0 s as the server asked (503, Retry-After: 5, to GET /pets); 15.0 s of the 300 s wait budget used`. */
export function waitLine(wait: ServerWait): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const asked = wait.retryAfter === undefined ? `${wait.status}` : `${wait.status}, Retry-After: ${wait.retryAfter}`;
  return `waiting ${s(wait.waitMs)} as the server asked (${asked}, to ${wait.method} ${wait.target}); ${s(wait.spentMs)} of the ${s(wait.budgetMs)} wait budget used`;
}

/** The requests a run sent, the load's counted apart: `18 requests + 78466 load requests`. */
export function requestsText(report: RunReport): string {
  const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const load = report.load?.stages.reduce((sum, stage) => sum + stage.metrics.requests, 0);
  return `${plural(report.requests, 'request')}${load === undefined ? '' : ` + ${plural(load, 'load request')}`}`;
}

/** Milliseconds as seconds in plain decimal (never exponent notation), e.g. 0.012. */
export function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/** The suites of a report in run order, each with its cases. */
export function casesBySuite(report: RunReport): Map<string, CaseResult[]> {
  const suites = new Map<string, CaseResult[]>(report.meta.suites.map((s) => [s, []]));
  for (const result of report.cases) suites.set(result.suite, [...(suites.get(result.suite) ?? []), result]);
  return suites;
}

/** A finding in one line: `auth.www-authenticate: A 401 names … (40 responses; e.g. auth.listPets.no-key step 1: 401 without …)`. */
export function findingLine(finding: Finding, max = 300): string {
  const example = finding.examples[0];
  const first = example === undefined ? '' : `; e.g. ${example.caseId} step ${example.step + 1}: ${example.message}`;
  return oneLine(`${finding.id}: ${finding.title} (${finding.count} response${finding.count === 1 ? '' : 's'}${first})`, max);
}

/** An internal error in one line: `auth.www-authenticate threw 40 times (the check threw: boom), in auth.listPets.no-key, …`. */
export function internalErrorLine(error: InternalError, max = 300): string {
  const times = error.count === 1 ? 'once' : `${error.count} times`;
  return oneLine(`${error.where} threw ${times} (${error.message}), in ${error.cases.join(', ')}`, max);
}
