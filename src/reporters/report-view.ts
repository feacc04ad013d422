/** What every renderer reads out of a report the same way: reasons, the failing exchange, evidence as text, the deprecation countdown. */
import type { CheckResult, ExchangeEvidence, Outcome, RunMeta, RunReport } from '../model/results.js';

/** The longest message a renderer shows whole; longer ones are cut (a server may say a lot). */
const MAX_MESSAGE_CHARS = 2_000;

/** How many details of one assertion (e.g. schema errors) a renderer lists. */
export const MAX_DETAILS = 20;

// C0 and C1 controls, DEL, lone surrogates and the non-characters U+FFFE/U+FFFF: never useful in a report, sometimes harmful.
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The short label of each outcome, as the console and the HTML show it. */
export const LABELS: Record<Outcome, string> = { failed: 'FAIL', errored: 'ERROR', warned: 'WARN', passed: 'PASS', skipped: 'SKIP' };

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

/** The checks of one outcome. */
export function checksWith(report: RunReport, outcome: Outcome): CheckResult[] {
  return report.checks.filter((c) => c.outcome === outcome);
}

/** Why a check ended as it did: the messages of the assertions that decided it, else its reason. */
export function problemMessages(check: CheckResult): string[] {
  const deciding = check.assertions.filter((a) => a.outcome === check.outcome);
  const messages = deciding.map((a) => `${a.id}: ${a.message}`);
  return messages.length > 0 ? messages : check.reason === undefined ? [] : [check.reason];
}

/** The one-line reason of a failed, errored, warned or skipped check. */
export function reasonLine(check: CheckResult, max = 200): string {
  return oneLine(check.reason ?? problemMessages(check)[0] ?? check.outcome, max);
}

/** The exchange that decided the check (the step of its first deciding assertion), else the last one. */
export function decidingExchange(check: CheckResult): ExchangeEvidence | undefined {
  const deciding = check.assertions.find((a) => a.outcome === check.outcome);
  return (deciding === undefined ? undefined : check.exchanges.find((e) => e.step === deciding.step)) ?? check.exchanges.at(-1);
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}

/** The sections of one exchange as plain text: request, response (or transport error), reproduction. */
export function exchangeSections(exchange: ExchangeEvidence): Array<{ title: string; text: string }> {
  const { request, response, error } = exchange;
  const sections = [{ title: 'Request', text: [`${request.method} ${request.url}`, ...headerLines(request.headers), ...(request.body === undefined ? [] : ['', request.body])].join('\n') }];
  if (response) {
    const size = `(${response.bytes} bytes${response.truncated ? ', excerpt' : ''})`;
    sections.push({ title: `Response ${size}`, text: [`HTTP ${response.status}`, ...headerLines(response.headers), '', response.body].join('\n') });
  }
  if (error) sections.push({ title: 'Transport error', text: `${error.code}: ${error.message}` });
  if (exchange.reproduce !== undefined) sections.push({ title: 'Reproduce with', text: exchange.reproduce });
  return sections.map((s) => ({ title: s.title, text: bounded(safeText(s.text), 8_000) }));
}

/** A failure or warning as plain text: the deciding messages with their details, where it was declared, then the evidence. */
export function problemText(check: CheckResult): string {
  const lines = [`${check.id}: ${check.title}`, `clause: ${check.clause}`, `declared at ${check.source.file}:${check.source.line}:${check.source.column}`, ''];
  for (const assertion of check.assertions.filter((a) => a.outcome === check.outcome)) {
    lines.push(`step ${assertion.step + 1}, ${assertion.id}: ${bounded(assertion.message)}`);
    for (const detail of (assertion.details ?? []).slice(0, MAX_DETAILS)) lines.push(`  - ${bounded(detail, 500)}`);
  }
  if (check.assertions.every((a) => a.outcome !== check.outcome) && check.reason !== undefined) lines.push(bounded(check.reason));
  const exchange = decidingExchange(check);
  if (exchange) for (const section of exchangeSections(exchange)) lines.push('', `${section.title}:`, section.text);
  const earlier = check.exchanges.filter((e) => exchange !== undefined && e.step < exchange.step && e.reproduce !== undefined);
  if (earlier.length > 0) lines.push('', 'The steps before it, to reproduce from the start:', ...earlier.map((e) => `step ${e.step + 1}: ${e.reproduce ?? ''}`));
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
  const total = report.checks.length;
  const { failed, errored, warned } = report.counts;
  if (report.verdict === 'failed') return failed > 0 ? `FAILED: ${failed} of ${total} checks failed` : `FAILED: ${warned} warnings in strict mode`;
  if (report.verdict === 'incomplete') return `INCOMPLETE: ${errored} of ${total} checks could not be tested`;
  return `PASSED: ${total} check${total === 1 ? '' : 's'}${warned > 0 ? `, ${warned} with warnings` : ''}`;
}

/** Milliseconds as seconds in plain decimal (never exponent notation), e.g. 0.012. */
export function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/** The suites of a report in run order, each with its checks. */
export function checksBySuite(report: RunReport): Map<string, CheckResult[]> {
  const suites = new Map<string, CheckResult[]>(report.meta.suites.map((s) => [s, []]));
  for (const check of report.checks) suites.set(check.suite, [...(suites.get(check.suite) ?? []), check]);
  return suites;
}
