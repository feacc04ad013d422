/** What every renderer reads out of a report the same way: reasons, the failing exchange, evidence as text, the deprecation countdown. */
import { REGISTRY } from '../checks/registry.js';
import { retryAfterMs } from '../http/pacer.js';
import type { ServerWait } from '../model/exchange.js';
import type { CaseResult, CheckOutcome, ExchangeEvidence, Finding, InternalError, Outcome, RunMeta, RunReport } from '../model/results.js';
import type { SourceLocation } from '../model/source-location.js';

/** The longest message a renderer shows whole; longer ones are cut (a server may say a lot). */
const MAX_MESSAGE_CHARS = 2_000;

/** The longest section of evidence (a request or a response) a renderer shows whole. */
const MAX_EVIDENCE_CHARS = 8_000;

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

/** The mark of each outcome on a console line: a suite by its worst outcome, a load threshold by its verdict. */
export const MARKS: Record<Outcome, string> = {
  failed: '✗',
  'internal-error': '!',
  'could-not-test': '!',
  warned: '~',
  passed: '✓',
  'not-judged': '-',
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

/**
 * JSON text laid out two spaces per level, when the whole text is JSON; undefined otherwise. Only whitespace between
 * tokens changes: every string and number is kept as sent (escapes, digits beyond 2^53, a redacted key), so the body
 * shown is the body received, only easier to read.
 */
export function prettyJson(text: string): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const closing: Record<string, string> = { '{': '}', '[': ']' };
  const space = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  let out = '';
  let depth = 0;
  const newline = (): string => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; ) {
    const ch = text[i] as string;
    if (ch === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
    } else if (space(ch)) {
      i += 1;
    } else if (ch === '{' || ch === '[') {
      let next = i + 1;
      while (space(text[next])) next += 1;
      if (text[next] === closing[ch]) {
        out += `${ch}${closing[ch]}`;
        i = next + 1;
      } else {
        depth += 1;
        out += `${ch}${newline()}`;
        i += 1;
      }
    } else if (ch === '}' || ch === ']') {
      depth -= 1;
      out += `${newline()}${ch}`;
      i += 1;
    } else if (ch === ',') {
      out += `,${newline()}`;
      i += 1;
    } else if (ch === ':') {
      out += ': ';
      i += 1;
    } else {
      // A number, true, false or null: copied as it is, up to the next delimiter.
      let end = i + 1;
      while (end < text.length && !space(text[end]) && !',:{}[]"'.includes(text[end] as string)) end += 1;
      out += text.slice(i, end);
      i = end;
    }
  }
  return out;
}

/** A body as a renderer shows it: laid out when asked and it is whole JSON that still fits the evidence bound, else exactly as sent. */
function shownBody(body: string, pretty: boolean, excerpt = false): string {
  // A body beyond the bound is cut anyway: laid out, less of it would show.
  const laidOut = pretty && !excerpt && body.length <= MAX_EVIDENCE_CHARS ? prettyJson(body) : undefined;
  return laidOut !== undefined && laidOut.length <= MAX_EVIDENCE_CHARS ? laidOut : body;
}

/**
 * The sections of one exchange as plain text: request, response (or transport error), reproduction; JSON bodies laid out when
 * `prettyBodies`.
 */
export function exchangeSections(exchange: ExchangeEvidence, prettyBodies = false): Array<{ title: string; text: string }> {
  const { request, response, error } = exchange;
  const sections = [
    {
      title: 'Request',
      text: [
        `${request.method} ${request.url}`,
        ...headerLines(request.headers),
        ...(request.body === undefined ? [] : ['', shownBody(request.body, prettyBodies)]),
      ].join('\n'),
    },
  ];
  if (response) {
    const size = `(${response.bytes} bytes${response.truncated ? ', excerpt' : ''})`;
    sections.push({
      title: `Response ${size}`,
      text: [
        `HTTP ${response.status}`,
        ...headerLines(response.headers),
        '',
        shownBody(response.body, prettyBodies, response.truncated),
      ].join('\n'),
    });
  }
  if (error) sections.push({ title: 'Transport error', text: `${error.code}: ${error.message}` });
  const notes = [
    ...(exchange.connectionRetry === undefined ? [] : [exchange.connectionRetry]),
    ...(exchange.throttled === undefined
      ? []
      : [
          `${exchange.throttled.responses} throttled response(s) before this answer; waited ${exchange.throttled.waitedMs} ms as the ` +
            `server asked`,
        ]),
  ];
  if (notes.length > 0) sections.push({ title: 'Transport', text: notes.join('\n') });
  if (exchange.reproduce !== undefined) sections.push({ title: 'Reproduce with', text: exchange.reproduce });
  return sections.map((s) => ({ title: s.title, text: bounded(safeText(s.text), MAX_EVIDENCE_CHARS) }));
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
  const since = report.sinceBaseline;
  const gated = since !== undefined && report.meta.options['failOn'] === 'new';
  if (report.verdict === 'failed' && gated) {
    const n = since.newFailures.length + (report.meta.options['strict'] === true ? since.newFindings.length : 0);
    return `FAILED: ${plural(n, 'new failure')} since the baseline (${failed} of ${plural(total, 'case')} failed)`;
  }
  if (report.verdict === 'failed')
    return failed > 0
      ? `FAILED: ${failed} of ${plural(total, 'case')} failed`
      : `FAILED: ${plural(warned + findings, 'warning')} in strict mode`;
  if (report.verdict === 'internal-error') {
    const where = report.internalErrors.length;
    return (
      `INTERNAL ERROR: ${where} check${where === 1 ? '' : 's'} or phase${where === 1 ? '' : 's'} of petstore-conformance threw (a ` +
      `bug to report, not a verdict on the server)`
    );
  }
  if (report.stopped !== undefined && report.verdict === 'incomplete')
    return `INCOMPLETE: the run stopped before its end (${report.stopped.code}) after ${total} case${total === 1 ? '' : 's'}`;
  if (report.verdict === 'incomplete')
    return couldNotTest > 0
      ? `INCOMPLETE: ${couldNotTest} of ${plural(total, 'case')} could not be tested`
      : `INCOMPLETE: interrupted after ${total - report.cases.filter((c) => c.skip === 'interrupted').length} of ${plural(total, 'case')}`;
  const recommended = findings > 0 ? `, ${findings} finding${findings === 1 ? '' : 's'}` : '';
  // With --fail-on new, a pass says what is still failing: it is known, not gone.
  const known =
    gated && failed > 0 ? `, nothing new since the baseline (${failed} known failure${failed === 1 ? '' : 's'} still fail)` : '';
  return `PASSED: ${plural(total, 'case')}${warned > 0 ? `, ${warned} with warnings` : ''}${recommended}${known}`;
}

/** A count with its noun: `1 case`, `2 cases`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
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

/**
 * The clause a check judged a case by: a registered rule's own clause, or the case's for an expectation (it judges what the case declares).
 */
function checkClause(checkId: string, result: CaseResult): string {
  const check = REGISTRY.get(checkId);
  return check === undefined || check.scope === 'case' ? result.clause : check.clause;
}

/** Failed cases that broke the same check on the same clause: usually one fault of the server, seen from several cases. */
export interface FailureGroup {
  /** The check that decided the cases (the first that failed in each); undefined for cases failed without a check, by their reason. */
  check: string | undefined;
  clause: string;
  cases: CaseResult[];
}

/** The failed cases grouped by the check that decided each (its first failed check) and the clause it judged, in first-seen order. */
export function failureGroups(results: readonly CaseResult[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const result of results) {
    const check = decidingChecks(result)[0]?.id;
    const clause = check === undefined ? result.clause : checkClause(check, result);
    const key = `${check ?? ''}\n${clause}`;
    const group = groups.get(key) ?? { check, clause, cases: [] };
    group.cases.push(result);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A check that failed across the run: how many answers it failed, in how many cases, in words. */
export interface Cause {
  check: string;
  answers: number;
  cases: number;
  /** `48 answers were 5xx (server.no-5xx), in 45 cases`. */
  text: string;
}

/** What the answers that failed a check were, for the checks that judge every answer: `[one, many]`. */
const CAUSE_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  'server.no-5xx': ['answer was 5xx', 'answers were 5xx'],
  'server.answers': ['request got no answer', 'requests got no answer'],
  'wire.json-body': ['answer was not JSON', 'answers were not JSON'],
  'wire.json-content-type': ['JSON answer had another content type', 'JSON answers had another content type'],
  'contract.response-schema': ['answer broke its documented schema', 'answers broke their documented schema'],
  'errors.error-body': ['error answer had no matching Error body', 'error answers had no matching Error body'],
};

/** How many causes the reports list before they count the rest. */
const SHOWN_CAUSES = 5;

/**
 * The failed checks of the whole run, counted by check (each answer a check failed once), most answers first: what the
 * failure groups, which take each case by its first failed check, do not show (40 cases failed on a 500 they each got).
 */
export function runCauses(report: RunReport): Cause[] {
  const byCheck = new Map<string, { answers: number; cases: Set<string> }>();
  for (const result of report.cases) {
    if (result.outcome !== 'failed') continue;
    for (const check of result.checks) {
      if (check.outcome !== 'failed') continue;
      const entry = byCheck.get(check.id) ?? { answers: 0, cases: new Set<string>() };
      entry.answers += 1;
      entry.cases.add(result.id);
      byCheck.set(check.id, entry);
    }
  }
  return [...byCheck]
    .map(([check, { answers, cases }]) => {
      const words = CAUSE_WORDS[check];
      const what =
        words === undefined
          ? `${answers} answer${answers === 1 ? '' : 's'} failed ${check}`
          : `${answers} ${words[answers === 1 ? 0 : 1]} (${check})`;
      return { check, answers, cases: cases.size, text: `${what}, in ${cases.size} case${cases.size === 1 ? '' : 's'}` };
    })
    .sort((a, b) => b.answers - a.answers || b.cases - a.cases);
}

/** The causes the reports list (the first SHOWN_CAUSES) and a line for the rest, when the failures fall into several groups. */
export function causeLines(report: RunReport): string[] {
  const causes = runCauses(report);
  if (causes.length < 2 || failureGroups(casesWith(report, 'failed')).length < 2) return [];
  const rest = causes.length - SHOWN_CAUSES;
  return [
    ...causes.slice(0, SHOWN_CAUSES).map((cause) => cause.text),
    ...(rest > 0 ? [`and ${rest} more check${rest === 1 ? '' : 's'} (report.json has each case's)`] : []),
  ];
}

/** What a failed case says under its group's check: that check's message (else the case's reason), and the other checks it also failed. */
function groupedCaseMessage(result: CaseResult, check: string | undefined): { message: string; alsoFailed: string[] } {
  const deciding = decidingChecks(result);
  const own = deciding.find((c) => c.id === check);
  return {
    message: own?.message ?? result.reason ?? result.outcome,
    alsoFailed: [...new Set(deciding.filter((c) => c.id !== check).map((c) => c.id))],
  };
}

/** A group's cases by what each says (the same message and the same other failed checks), in first-seen order. */
export function casesByMessage(group: FailureGroup): Array<{ message: string; alsoFailed: string[]; cases: CaseResult[] }> {
  const byMessage = new Map<string, { message: string; alsoFailed: string[]; cases: CaseResult[] }>();
  for (const result of group.cases) {
    const { message, alsoFailed } = groupedCaseMessage(result, group.check);
    const key = `${message}\n${alsoFailed.join(',')}`;
    const entry = byMessage.get(key) ?? { message, alsoFailed, cases: [] };
    entry.cases.push(result);
    byMessage.set(key, entry);
  }
  return [...byMessage.values()];
}

/**
 * A wait the server asked for, in words: `waiting 5.0 s as the server asked (503, Retry-After: 5, to GET /pets); 15.0 s of
 * the 300.0 s wait budget used`. A wait longer than the server asked is the backoff of a request throttled again, and says
 * so, with what paces the run below the server's limit.
 */
export function waitLine(wait: ServerWait): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const asked = wait.retryAfter === undefined ? `${wait.status}` : `${wait.status}, Retry-After: ${wait.retryAfter}`;
  const budget = `${s(wait.spentMs)} of the ${s(wait.budgetMs)} wait budget used`;
  // A wait recorded before askedMs was: what its Retry-After asked, read again.
  const askedMs = wait.askedMs ?? retryAfterMs(wait.retryAfter, Date.parse(wait.at));
  if (askedMs !== undefined && askedMs >= wait.waitMs)
    return `waiting ${s(wait.waitMs)} as the server asked (${asked}, to ${wait.method} ${wait.target}); ${budget}`;
  const why = askedMs === undefined ? 'a backoff: the server named no wait' : `longer than the ${s(askedMs)} the server asked`;
  const again = wait.inARow === undefined || wait.inARow < 2 ? '' : `: throttled ${wait.inARow} times in a row, each wait twice the last`;
  const what = `${why} (${asked}, to ${wait.method} ${wait.target})${again}`;
  return `waiting ${s(wait.waitMs)}, ${what}; --rate-limit N keeps the run under the server's limit; ${budget}`;
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
