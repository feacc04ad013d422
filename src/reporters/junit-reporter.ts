/** junit.xml: one testsuite per suite, one testcase per case, for CI systems. Built as an escaped XML tree. */
import { hostname } from 'node:os';
import path from 'node:path';
import { sinceBaselineLine, unlikeLine } from '../model/baseline.js';
import type { CaseResult, RunReport, SinceBaseline } from '../model/results.js';
import { changeText } from './baseline-view.js';
import { FileReporter } from './file-reporter.js';
import { REPORT_FILES } from './report-files.js';
import { loadFigures } from './load-figures.js';
import { ledgerLine, reasonsText, unjudgedRules } from './ledger-view.js';
import { casesBySuite, findingLine, internalErrorLine, LABELS, oneLine, problemText, reasonLine, seconds } from './report-view.js';
import { serialiseXml, type XmlElement, type XmlNode } from './xml.js';

function warningsText(result: CaseResult, report: RunReport): string | undefined {
  const warnings = result.checks
    .filter((a) => a.outcome === 'warned')
    .map((a) => `WARNING step ${a.step + 1}, ${a.id}: ${oneLine(a.message, 1_000)}`);
  // The run findings this case's responses are examples of: shown beside it, never its outcome.
  const findings = report.findings.flatMap((f) =>
    f.examples
      .filter((e) => e.caseId === result.id)
      .map((e) => `FINDING step ${e.step + 1}, ${f.id} (a run finding, ${f.count} in all): ${oneLine(e.message, 1_000)}`),
  );
  const lines = [...warnings, ...findings];
  return lines.length === 0 ? undefined : lines.join('\n');
}

function outcomeElement(result: CaseResult): XmlNode | undefined {
  switch (result.outcome) {
    case 'failed': {
      const first = result.checks.find((a) => a.outcome === 'failed');
      return {
        name: 'failure',
        attributes: { message: reasonLine(result, 500), type: first?.id ?? 'failed' },
        children: [{ cdata: problemText(result) }],
      };
    }
    case 'could-not-test':
    case 'internal-error': {
      const code = result.outcome === 'could-not-test' ? result.exchanges.find((e) => e.error !== undefined)?.error?.code : undefined;
      return {
        name: 'error',
        attributes: { message: reasonLine(result, 500), type: code ?? result.outcome },
        children: [{ cdata: problemText(result) }],
      };
    }
    case 'not-judged':
      return { name: 'skipped', attributes: { message: reasonLine(result, 500) } };
    default:
      return undefined;
  }
}

/** The load case's figures and every threshold measured against its bound, passed ones included: what a CI page shows of the load. */
function loadText(result: CaseResult, report: RunReport): string | undefined {
  if (result.suite !== 'load' || report.load === undefined) return undefined;
  const { heading, figures, thresholds } = loadFigures(report.load, report);
  return [
    heading,
    ...figures.map((f) => `  ${f.label}: ${f.value}`),
    '',
    ...thresholds.map((c) => `${LABELS[c.outcome]} ${c.check}: ${oneLine(c.message, 1_000)}`),
  ].join('\n');
}

function testcase(result: CaseResult, report: RunReport): XmlElement {
  const children: XmlNode[] = [];
  const outcome = outcomeElement(result);
  if (outcome) children.push(outcome);
  // Warnings never fail a case; CI systems show system-out beside it.
  const warnings = warningsText(result, report);
  const out = [
    loadText(result, report),
    warnings,
    warnings !== undefined && result.outcome === 'warned' ? problemText(result) : undefined,
  ].filter((text): text is string => text !== undefined && text !== '');
  if (out.length > 0) children.push({ name: 'system-out', children: [{ cdata: out.join('\n\n') }] });
  return {
    name: 'testcase',
    attributes: { name: result.id, classname: `${result.suite}.${result.operation}`, time: seconds(result.durationMs) },
    children,
  };
}

function count(checks: readonly CaseResult[], outcome: CaseResult['outcome']): number {
  return checks.filter((c) => c.outcome === outcome).length;
}

/**
 * How long a suite ran: the time any of its cases was running. Cases run side by side, so the sum of their durations
 * exceeded the run's; a case is placed by its first request (one without is added on its own), never beyond the run.
 */
function suiteMs(cases: readonly CaseResult[], runMs: number): number {
  const spans: Array<[number, number]> = [];
  let unplaced = 0;
  for (const c of cases) {
    const starts = c.exchanges
      .map((e) => (e.startedAt === undefined ? Number.NaN : Date.parse(e.startedAt)))
      .filter((ms) => !Number.isNaN(ms));
    if (starts.length === 0) unplaced += c.durationMs;
    else spans.push([Math.min(...starts), Math.min(...starts) + c.durationMs]);
  }
  let covered = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const [from, to] of spans.sort((a, b) => a[0] - b[0])) {
    covered += Math.max(0, to - Math.max(from, reach));
    reach = Math.max(reach, to);
  }
  return Math.min(runMs, covered + unplaced);
}

/** The comparison with the baseline as properties: its headline, how the runs differ, and each case failing anew. */
function sinceBaselineProperties(since: SinceBaseline): string[][] {
  const unlike = unlikeLine(since);
  return [
    ['sinceBaseline', sinceBaselineLine(since)],
    ...(unlike === undefined ? [] : [['baselineUnlike', unlike]]),
    ...since.newFailures.map((c) => ['newFailure', changeText(c)]),
  ];
}

/** Renders the report as JUnit XML (the Jenkins/Ant schema); `host` is the machine that ran the tests, as the schema means it. */
export function renderJunit(report: RunReport, host: string = hostname()): string {
  const { meta } = report;
  const properties: XmlElement = {
    name: 'properties',
    children: [
      ['tool', `${meta.tool.name} ${meta.tool.version}`],
      ['baseUrl', meta.baseUrl],
      ['runId', meta.runId],
      ['clock', meta.clock],
      // The run's verdict, named so: a suite of passing cases in a failed run must not read as failed itself.
      ['runVerdict', report.verdict],
      ...(report.sinceBaseline === undefined ? [] : sinceBaselineProperties(report.sinceBaseline)),
      ...report.meta.disabled.map((d) => ['disabled', `${d.id}: ${d.reason}`]),
      ...report.findings.map((f) => ['finding', findingLine(f, 1_000)]),
      ...report.internalErrors.map((e) => ['internalError', internalErrorLine(e, 1_000)]),
      // The ledger of judgement: how much of the contract the run judged, and each rule it could have judged and did not.
      ...(report.judgement === undefined
        ? []
        : [
            ['judgement', ledgerLine(report.judgement)],
            ...unjudgedRules(report.judgement).map((rule) => ['notJudged', `${rule.id}: ${reasonsText(rule, 1_000)}`]),
          ]),
    ].map(([name, value]) => ({ name: 'property', attributes: { name, value } })),
  };
  // A suite without a case of the run (one --check left out) is no test suite: eleven empty ones read as noise.
  const suites = [...casesBySuite(report)]
    .filter(([, checks]) => checks.length > 0)
    .map(
      ([suite, checks], index): XmlElement => ({
        name: 'testsuite',
        attributes: {
          name: suite,
          tests: checks.length,
          failures: count(checks, 'failed'),
          errors: count(checks, 'could-not-test') + count(checks, 'internal-error'),
          skipped: count(checks, 'not-judged'),
          time: seconds(suiteMs(checks, report.durationMs)),
          timestamp: meta.startedAt.replace(/\.\d+Z$/, 'Z'),
          hostname: host,
          id: index,
          package: meta.tool.name,
        },
        children: [properties, ...checks.map((c) => testcase(c, report))],
      }),
    );
  // No `skipped` here: the Jenkins JUnit XSD the file is validated against allows it on each testsuite only.
  return serialiseXml({
    name: 'testsuites',
    attributes: {
      name: meta.tool.name,
      tests: report.cases.length,
      failures: report.counts.failed,
      errors: report.counts['could-not-test'] + report.counts['internal-error'],
      time: seconds(report.durationMs),
    },
    children: suites,
  });
}

/** Writes junit.xml when the run ends. */
export class JunitReporter extends FileReporter {
  constructor(reportDir: string) {
    super('junit', path.join(reportDir, REPORT_FILES.junit), renderJunit);
  }
}
