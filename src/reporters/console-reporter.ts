/** The console: progress on a TTY, then failures, warnings and the counts. */
import type { Writable } from 'node:stream';
import { GENERATED_SUITES } from '../model/generated-suites.js';
import {
  emptyCounts,
  OUTCOMES,
  outcomeWords,
  type CaseInfo,
  type CaseResult,
  type Outcome,
  type RunMeta,
  type RunReport,
  type SinceBaseline,
} from '../model/results.js';
import { gatesOnNew, sinceBaselineLines } from './baseline-view.js';
import { ledgerLine, reasonsText, unjudgedRules } from './ledger-view.js';
import type { Reporter } from './reporter.js';
import type { ServerWait } from '../model/exchange.js';
import type { LoadReport } from '../model/load.js';
import {
  casesByMessage,
  causeLines,
  countdownSentence,
  decidingExchange,
  failureGroups,
  type FailureGroup,
  groupedByProblem,
  internalErrorLine,
  LABELS,
  MARKS,
  oneLine,
  plural,
  problemLocation,
  problemMessages,
  requestsText,
  safeText,
  waitLine,
} from './report-view.js';

/** Where and how the console reporter writes. */
export interface ConsoleOptions {
  stream: Writable & { isTTY?: boolean };
  color: boolean;
  quiet: boolean;
}

const COLORS: Record<Outcome | 'dim' | 'bold', [number, number]> = {
  failed: [31, 39],
  'internal-error': [35, 39],
  'could-not-test': [35, 39],
  warned: [33, 39],
  passed: [32, 39],
  'not-judged': [90, 39],
  dim: [2, 22],
  bold: [1, 22],
};

/** The counts in the order the summary line gives them. */
const COUNTED: readonly Outcome[] = ['passed', 'failed', 'warned', 'not-judged', 'could-not-test', 'internal-error'];

/** A wait at least this long gets a line of its own in a log that is not a terminal. */
const LOGGED_WAIT_MS = 5_000;

/** Progress of one suite while the run goes on. */
interface SuiteProgress {
  total: number;
  done: number;
  counts: Record<Outcome, number>;
}

/** Ids listed on one line: the first few, then how many more. */
function listed(ids: readonly string[], shown = 6): string {
  return ids.length <= shown ? ids.join(', ') : `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more`;
}

/** How many different messages of one failure group the console shows before it counts the rest. */
const SHOWN_MESSAGES = 10;

/** The width ids are wrapped to under a message. */
const IDS_WIDTH = 100;

/** Ids, every one of them, comma-separated on lines of about `width` characters (a log is searched for them). */
function wrappedIds(ids: readonly string[], width = IDS_WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const [i, id] of ids.entries()) {
    const item = `${id}${i < ids.length - 1 ? ',' : ''}`;
    if (line !== '' && line.length + 1 + item.length > width) {
      lines.push(line);
      line = item;
    } else line = line === '' ? item : `${line} ${item}`;
  }
  return line === '' ? lines : [...lines, line];
}

/**
 * Prints progress suite by suite on a terminal, then failures with their reasons and a curl to reproduce, warnings, the counts and the
 * files written.
 */
export class ConsoleReporter implements Reporter {
  readonly name = 'console';
  private readonly options: ConsoleOptions;
  private readonly suites = new Map<string, SuiteProgress>();
  private total = 0;
  private done = 0;
  private progressShown = false;

  constructor(options: ConsoleOptions) {
    this.options = options;
  }

  private paint(kind: keyof typeof COLORS, text: string): string {
    if (!this.options.color) return text;
    const [open, close] = COLORS[kind];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  }

  private write(line = ''): void {
    this.options.stream.write(`${line}\n`);
  }

  private get showsProgress(): boolean {
    return !this.options.quiet && this.options.stream.isTTY === true;
  }

  private clearProgress(): void {
    if (this.progressShown) this.options.stream.write('\r\u001b[K');
    this.progressShown = false;
  }

  onRunStart(meta: RunMeta, cases: readonly CaseInfo[]): void {
    this.total = cases.length;
    for (const info of cases) {
      const suite = this.suites.get(info.suite) ?? { total: 0, done: 0, counts: emptyCounts() };
      suite.total += 1;
      this.suites.set(info.suite, suite);
    }
    if (this.options.quiet) return;
    const where = meta.embeddedServer ? `${meta.baseUrl} (embedded reference server)` : meta.baseUrl;
    this.write(`${this.paint('bold', `${meta.tool.name} ${meta.tool.version}`)} → ${where}`);
    this.write(
      this.paint(
        'dim',
        `run ${meta.runId} · clock ${meta.clock.slice(0, 10)} · ${cases.length} case${cases.length === 1 ? '' : 's'} in ` +
          `${meta.suites.join(', ')}`,
      ),
    );
  }

  onCaseEnd(result: CaseResult): void {
    this.done += 1;
    const suite = this.suites.get(result.suite);
    if (suite) {
      suite.done += 1;
      suite.counts[result.outcome] += 1;
    }
    if (this.options.quiet) return;
    this.clearProgress();
    // A suite's counts when it is done, on a terminal and in a CI log alike; the live progress line only on a terminal.
    if (suite && suite.done === suite.total) this.write(this.suiteLine(result.suite, suite));
    if (this.showsProgress && this.done < this.total) {
      this.options.stream.write(
        this.paint(
          'dim',
          `checking ` +
            `${this.done}/${this.total}${suite && suite.done < suite.total ? ` · ${result.suite} ${suite.done}/${suite.total}` : ''}`,
        ),
      );
      this.progressShown = true;
    }
  }

  /** A terminal shows every wait in place of the progress line until the next case ends; a log gets a line for each long one. */
  onWait(wait: ServerWait): void {
    if (this.options.quiet) return;
    const line = this.paint('dim', safeText(waitLine(wait)));
    if (this.showsProgress) {
      this.clearProgress();
      this.options.stream.write(line);
      this.progressShown = true;
    } else if (wait.waitMs >= LOGGED_WAIT_MS) {
      this.write(line);
    }
  }

  private suiteLine(name: string, suite: SuiteProgress): string {
    const worst = OUTCOMES.find((o) => suite.counts[o] > 0) ?? 'passed';
    const mark = MARKS[worst];
    const detail = COUNTED.filter((o) => suite.counts[o] > 0)
      .map((o) => `${suite.counts[o]} ${outcomeWords(o)}`)
      .join(', ');
    return `${this.paint(worst, mark)} ${name.padEnd(14)} ${this.paint('dim', detail)}`;
  }

  onRunEnd(report: RunReport): void {
    this.clearProgress();
    this.loadExample = loadExampleLine(report.load);
    // What changed since the baseline comes first: it is what a team acts on, whatever else the run found.
    if (report.sinceBaseline !== undefined) this.printSinceBaseline(report.sinceBaseline);
    const order: Outcome[] = this.options.quiet
      ? ['failed', 'internal-error', 'could-not-test']
      : ['failed', 'internal-error', 'could-not-test', 'warned'];
    for (const outcome of order) {
      const results = report.cases.filter((c) => c.outcome === outcome);
      // Failures by the check and clause they broke (one fault of the server is one block); a warning or an error that
      // repeats word for word is shown once.
      if (outcome === 'failed') {
        this.printCauses(report);
        for (const group of failureGroups(results)) this.printFailureGroup(group);
        continue;
      }
      for (const [first, ...same] of groupedByProblem(results)) {
        if (first === undefined) continue;
        this.printProblem(first);
        if (same.length > 0)
          this.write(
            this.paint(
              'dim',
              `      the same on ${same.length} more case${same.length === 1 ? '' : 's'}: ${listed(same.map((c) => c.id))}`,
            ),
          );
      }
    }
    if (!this.options.quiet) {
      this.printFindings(report);
      this.printNotJudged(report);
      this.printUnjudgedRules(report);
    }
    const counts = COUNTED.map((o) => {
      const text = `${report.counts[o]} ${outcomeWords(o)}`;
      return report.counts[o] > 0 ? this.paint(o, text) : text;
    }).join(', ');
    const found = report.findings.length;
    const threw = report.internalErrors.length;
    // Cases are counted above; a finding check that threw decides no case, so the line says it beside them.
    const findings =
      `${found === 0 ? '' : `, ${found} finding${found === 1 ? '' : 's'}`}` +
      `${threw === 0 ? '' : `, ${threw} ${threw === 1 ? 'check or phase' : 'checks or phases'} threw`}`;
    this.write();
    if (!this.options.quiet) for (const line of this.notes(report)) this.write(this.paint('dim', line));
    this.write(`${counts}${findings} ${this.paint('dim', `(${(report.durationMs / 1000).toFixed(2)} s, ${requestsText(report)})`)}`);
    // How much of the contract the run could judge: shown however quiet, since a run that judged little must not read as a pass.
    if (report.judgement !== undefined)
      this.write(this.paint(report.judgement.belowMinimum === true ? 'could-not-test' : 'dim', ledgerLine(report.judgement)));
    const verdict = {
      passed: this.paint('passed', 'PASSED'),
      failed: this.paint('failed', 'FAILED'),
      incomplete: this.paint('could-not-test', 'INCOMPLETE'),
      'internal-error': this.paint('internal-error', 'INTERNAL ERROR'),
    }[report.verdict];
    const notRun = report.cases.filter((c) => c.skip === 'interrupted').length;
    const cut = report.interrupted === true ? 'interrupted' : report.stopped !== undefined ? 'stopped' : undefined;
    const unfinished =
      cut === undefined
        ? ''
        : ` ${this.paint(
            'could-not-test',
            `(${cut}: ${notRun} of ${report.cases.length} planned case${report.cases.length === 1 ? '' : 's'} not run)`,
          )}`;
    this.write(`verdict: ${verdict}${unfinished}${this.gateText(report)}`);
  }

  /** With --fail-on new, what decided the verdict: the new failures, while the known ones are still failing. */
  private gateText(report: RunReport): string {
    const since = report.sinceBaseline;
    if (since === undefined || !gatesOnNew(report)) return '';
    const known = since.stillFailing.length;
    const n = since.newFailures.length;
    return n > 0
      ? ` (--fail-on new: ${plural(n, 'new failure')}${known > 0 ? `, ${known} known` : ''})`
      : ` (--fail-on new: nothing new since the baseline${known > 0 ? `; ${plural(known, 'known failure')} still failing` : ''})`;
  }

  /** The comparison with the baseline: its headline in bold, new failures in red and first. */
  private printSinceBaseline(since: SinceBaseline): void {
    const [headline, ...rest] = sinceBaselineLines(since, this.options.quiet ? 10 : 30);
    this.write(this.paint(since.newFailures.length > 0 ? 'failed' : 'bold', safeText(headline ?? '')));
    for (const line of rest) this.write(line.startsWith('  new failures') ? this.paint('failed', safeText(line)) : safeText(line));
    this.write();
  }

  /** Before the failure groups (each case under its first failed check): the failed checks of the whole run, by how many answers. */
  private printCauses(report: RunReport): void {
    const lines = causeLines(report);
    if (lines.length === 0) return;
    this.write(`${this.paint('failed', 'CAUSES')} the checks that failed, across the run (a case may fail several):`);
    for (const line of lines) this.write(`      ${line}`);
    this.write(this.paint('dim', '      petstore-conformance explain CHECK-ID says what a check demands and why'));
  }

  /** The run's findings (recommendations its responses did not follow) and its internal errors, each once with an example. */
  private printFindings(report: RunReport): void {
    for (const finding of report.findings) {
      this.write(`${this.paint('warned', 'WARN ')} ${this.paint('bold', finding.id)}  ${safeText(finding.title)}`);
      const example = finding.examples[0];
      const responses = `${finding.count} response${finding.count === 1 ? '' : 's'} (a run finding: no case's outcome)`;
      this.write(
        `      ` +
          `${
            example === undefined
              ? responses
              : oneLine(`${responses}; e.g. ${example.caseId} step ${example.step + 1}: ${example.message}`, 300)
          }`,
      );
      if (example !== undefined) this.write(this.paint('dim', `      ${safeText(example.request)} → ${example.status}`));
    }
    for (const error of report.internalErrors)
      this.write(`${this.paint('internal-error', LABELS['internal-error'])} ${safeText(internalErrorLine(error))}`);
  }

  private notes(report: RunReport): string[] {
    const notes: string[] = [];
    notes.push(...report.meta.deprecations.map(countdownSentence));
    if (report.meta.options['readOnly'] === true) {
      const unjudged = report.cases.filter((c) => c.skip === 'read-only').length;
      notes.push(`read-only: nothing was written; ${plural(unjudged, 'case')} that write${unjudged === 1 ? 's was' : ' were'} not run`);
    } else if (report.createdPets.count > 0) {
      const { count, toJudge, namedWith } = report.createdPets;
      const filled = toJudge === undefined ? '' : ` (${toJudge} so that caps and filters could be judged)`;
      notes.push(`created ${count} pet${count === 1 ? '' : 's'}${filled}, each named with ${namedWith}`);
    }
    const traffic = report.traffic;
    if (traffic !== undefined && traffic.throttledResponses > 0) {
      const waits = traffic.waits.length;
      notes.push(
        `rate limits: ${traffic.throttledResponses} response${traffic.throttledResponses === 1 ? '' : 's'} asked the suite to wait; it ` +
          `waited ${(traffic.waitedMs / 1000).toFixed(1)} s in ${waits} wait${waits === 1 ? '' : 's'} (never a verdict)${paceHint(report)}`,
      );
    }
    if (traffic !== undefined && traffic.connectionRetries > 0) {
      notes.push(
        `connections: ${traffic.connectionRetries} request${traffic.connectionRetries === 1 ? ' was' : 's were'} sent again on a fresh ` +
          `connection after a kept-alive one closed under ${traffic.connectionRetries === 1 ? 'it' : 'them'}`,
      );
    }
    const phases = GENERATED_SUITES.filter((suite) => report.requestsBySuite?.[suite] !== undefined);
    if (phases.length > 0)
      notes.push(`generated phases: ${phases.map((suite) => `${suite} ${report.requestsBySuite?.[suite] ?? 0} requests`).join(', ')}`);
    const space = report.requestSpace;
    if (space !== undefined) notes.push(`request space: ${space.judged} of ${space.cells} cells judged (${space.sent} sent)`);
    const seed = report.meta.options['seed'];
    if (typeof seed === 'number') notes.push(`fuzzing: seed ${seed} (--seed ${seed} replays the same generated requests)`);
    for (const d of report.meta.disabled) notes.push(`disabled by the configuration: ${d.id} (${d.reason})`);
    const retried = report.cases.filter((c) => c.retries > 0);
    if (retried.length > 0)
      notes.push(
        `read-after-write: ${plural(retried.length, 'case')} needed retries to see a write (${retried.map((c) => c.id).join(', ')})`,
      );
    return notes;
  }

  /** The rules the selection could have judged that nothing judged, each with why (the ledger of judgement). */
  private printUnjudgedRules(report: RunReport): void {
    const rules = report.judgement === undefined ? [] : unjudgedRules(report.judgement);
    // A run narrowed by --check judges few rules by design: one line, not a line a rule the selection happened not to reach.
    if (report.meta.options['checks'] !== undefined && rules.length > 1) {
      const ids = listed(rules.map((rule) => rule.id));
      this.write(
        `${this.paint('not-judged', 'RULE ')} ${rules.length} rules not judged by the cases --check selected: ${safeText(ids)} ` +
          "(report.json's judgement says why)",
      );
      return;
    }
    for (const rule of rules)
      this.write(`${this.paint('not-judged', 'RULE ')} ${this.paint('bold', rule.id)} not judged: ${safeText(reasonsText(rule))}`);
  }

  /** Why cases were not judged, each reason once with the cases it kept from a verdict. */
  private printNotJudged(report: RunReport): void {
    // Cases a stop or a signal left unrun are counted on the verdict's line.
    const skipped = report.cases.filter((c) => c.outcome === 'not-judged' && c.skip !== 'interrupted');
    for (const [first, ...same] of groupedByProblem(skipped)) {
      if (first === undefined) continue;
      const n = same.length + 1;
      const reason = oneLine(first.reason ?? problemMessages(first)[0] ?? 'no reason given', 300).replace(/^not judged: /i, '');
      this.write(`${this.paint('not-judged', LABELS['not-judged'])} ${safeText(reason)}`);
      this.write(this.paint('dim', `      ${n} case${n === 1 ? '' : 's'}: ${listed([first, ...same].map((c) => c.id))}`));
    }
  }

  /**
   * One failure group: a single case whole; several as the check and clause, each message with the cases that gave it, then one case's
   * request and curl.
   */
  private printFailureGroup(group: FailureGroup): void {
    const [first] = group.cases;
    if (first === undefined) return;
    if (group.cases.length === 1) {
      this.printProblem(first);
      return;
    }
    this.write(
      `${this.paint('failed', LABELS.failed.padEnd(5))} ${this.paint('bold', group.check ?? 'failed')}, ${plural(group.cases.length, 'case')}: ` +
        `${safeText(oneLine(group.clause, 300))}`,
    );
    const messages = casesByMessage(group);
    for (const { message, alsoFailed, cases } of messages.slice(0, SHOWN_MESSAGES)) {
      const also = alsoFailed.length === 0 ? '' : ` (also failed ${alsoFailed.join(', ')})`;
      this.write(`      ${safeText(oneLine(message, 300))}${also}`);
      for (const line of wrappedIds(cases.map((c) => c.id))) this.write(this.paint('dim', `        ${line}`));
    }
    const rest = messages.slice(SHOWN_MESSAGES).flatMap((m) => m.cases);
    if (rest.length > 0) {
      this.write(`      and ${rest.length} more case${rest.length === 1 ? '' : 's'} with other messages:`);
      for (const line of wrappedIds(rest.map((c) => c.id))) this.write(this.paint('dim', `        ${line}`));
    }
    const exchange = decidingExchange(first);
    if (exchange)
      this.write(
        this.paint(
          'dim',
          `      e.g. ${first.id}: ${exchange.request.method} ` +
            `${safeText(exchange.request.url)}${exchange.response ? ` → ${exchange.response.status}` : ''}`,
        ),
      );
    if (exchange?.reproduce !== undefined) this.write(this.paint('dim', `      reproduce: ${safeText(exchange.reproduce)}`));
    const where = problemLocation(first);
    if (where !== undefined) this.write(this.paint('dim', `      ${where}`));
  }

  onReportsWritten(files: readonly string[]): void {
    if (this.options.quiet) return;
    // As the report folder was given: relative to the working folder, or absolute.
    for (const file of files) this.write(`report: ${file}`);
  }

  /** The load's example request, of the report being printed. */
  private loadExample: string | undefined;

  private printProblem(result: CaseResult): void {
    this.write(
      `${this.paint(result.outcome, LABELS[result.outcome].padEnd(5))} ${this.paint('bold', result.id)}  ${safeText(result.title)}`,
    );
    for (const line of problemMessages(result)) this.write(`      ${safeText(oneLine(line, 300))}`);
    const exchange = decidingExchange(result);
    if (exchange)
      this.write(
        this.paint(
          'dim',
          `      ${exchange.request.method} ${safeText(exchange.request.url)}` +
            `${exchange.response ? ` → ${exchange.response.status}` : ''}`,
        ),
      );
    if (exchange?.reproduce !== undefined && result.outcome !== 'warned')
      this.write(this.paint('dim', `      reproduce: ${safeText(exchange.reproduce)}`));
    // The load's case keeps no exchange: its example is the first contradicting listing or wrong sample report.json holds.
    if (exchange === undefined && result.suite === 'load' && this.loadExample !== undefined)
      this.write(this.paint('dim', `      e.g. ${safeText(this.loadExample)}`));
    const where = problemLocation(result);
    if (where !== undefined) this.write(this.paint('dim', `      ${where}`));
  }
}

/** A load's first piece of evidence as one line: a listing that contradicted the store, else a sampled answer that broke the contract. */
function loadExampleLine(load: LoadReport | undefined): string | undefined {
  const listing = load?.listings?.evidence[0];
  if (listing !== undefined) return oneLine(`${listing.request} → ${listing.status}: ${listing.message}`, 300);
  const sample = load?.violations[0];
  if (sample !== undefined) return oneLine(`GET ${sample.target} → ${sample.status}: ${sample.problems.join('; ')}`, 300);
  return undefined;
}

/** What to do about the waits: --rate-limit paces the run under the server's limit (a lower one, when it was set). */
function paceHint(report: RunReport): string {
  const rate = report.meta.options['rateLimit'];
  return typeof rate === 'number'
    ? `; --rate-limit ${rate} is still above the server's limit: lower it`
    : "; --rate-limit N (requests a second) paces the run under the server's limit instead of waiting";
}
