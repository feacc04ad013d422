/** summary.md: the verdict in a few lines for a CI step summary or a merge-request comment. */
import path from 'node:path';
import { sinceBaselineLine, unlikeLine, wasWords } from '../model/baseline.js';
import type { JudgementLedger, RunReport, SinceBaseline } from '../model/results.js';
import { changeGroups, rulesLine } from './baseline-view.js';
import { FileReporter } from './file-reporter.js';
import { REPORT_FILES } from './report-files.js';
import { ledgerLine, reasonsText, unjudgedRules } from './ledger-view.js';
import { loadFigures } from './load-figures.js';
import {
  casesWith,
  causeLines,
  countdownSentence,
  failureGroups,
  internalErrorLine,
  LABELS,
  oneLine,
  reasonLine,
  verdictLine,
} from './report-view.js';

/** How many failing cases the summary lists before it points to the full reports. */
const MAX_LISTED = 50;

const ICONS: Record<RunReport['verdict'], string> = { passed: '✅', failed: '❌', incomplete: '⚠️', 'internal-error': '🐞' };

/**
 * Text safe inside Markdown (and the HTML that Markdown renderers allow): entities for <, > and &,
 * a backslash before every mark that could format inside a line or a table cell, one line.
 */
export function escapeMarkdown(text: string, max = 200): string {
  return oneLine(text, max)
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Inline code that no backtick inside can close early. */
function code(text: string): string {
  return `\`${oneLine(text, 120).replace(/`/g, "'")}\``;
}

/** The failing cases, a table for each check and clause they broke (one fault of the server is one table), 50 cases at most. */
function failingCases(report: RunReport): string[] {
  const failed = casesWith(report, 'failed');
  if (failed.length === 0) return [];
  const groups = failureGroups(failed);
  const causes = causeLines(report);
  const lines = [
    ...(causes.length === 0
      ? []
      : [
          '',
          '**Causes**: the checks that failed, across the run (a case may fail several)',
          '',
          ...causes.map((c) => `- ${escapeMarkdown(c)}`),
        ]),
    '',
    `### Failing cases (${failed.length}) in ${groups.length} group${groups.length === 1 ? '' : 's'} by the check and clause they broke`,
  ];
  let listed = 0;
  for (const [i, group] of groups.entries()) {
    if (listed >= MAX_LISTED) {
      const rest = groups.slice(i).reduce((n, g) => n + g.cases.length, 0);
      lines.push('', `… ${rest} more cases in ${groups.length - i} more group${groups.length - i === 1 ? '' : 's'} in the full report`);
      break;
    }
    const n = group.cases.length;
    lines.push('', `**${code(group.check ?? 'failed')}** · ${escapeMarkdown(group.clause, 300)} (${n} case${n === 1 ? '' : 's'})`, '');
    lines.push('| case | reason |', '| --- | --- |');
    const shown = group.cases.slice(0, MAX_LISTED - listed);
    for (const result of shown) lines.push(`| ${code(result.id)} | ${escapeMarkdown(reasonLine(result))} |`);
    if (shown.length < n) lines.push(`| … | ${n - shown.length} more in the full report |`);
    listed += shown.length;
  }
  return lines;
}

/** Renders the summary; `links` are the other report files (names relative to the report folder). */
export function renderMarkdown(report: RunReport, links: readonly string[] = []): string {
  const { meta, counts } = report;
  const lines = [
    `## ${ICONS[report.verdict]} ${escapeMarkdown(verdictLine(report))} · Pet Store conformance`,
    '',
    `${code(meta.baseUrl)}${meta.embeddedServer ? ' (embedded reference server)' : ''} · ` +
      `${escapeMarkdown(meta.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))} · ${(report.durationMs / 1000).toFixed(1)} s · ` +
      `suite's clock ${escapeMarkdown(meta.clock.slice(0, 10))} · ${escapeMarkdown(`${meta.tool.name} ${meta.tool.version}`)}`,
    '',
    '| passed | failed | warned | not judged | could not test | internal error | findings |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${counts.passed} | ${counts.failed} | ${counts.warned} | ${counts['not-judged']} | ${counts['could-not-test']} | ` +
      `${counts['internal-error']} | ${report.findings.length} |`,
  ];
  if (report.sinceBaseline !== undefined) lines.push(...sinceBaselineMarkdown(report.sinceBaseline));
  if (report.judgement !== undefined) lines.push('', ...ledgerLines(report.judgement));
  if (report.internalErrors.length > 0)
    lines.push(
      '',
      '🐞 A check or phase of petstore-conformance threw: a bug to report, not a verdict on the server.',
      '',
      ...report.internalErrors.map((e) => `- ${escapeMarkdown(internalErrorLine(e), 500)}`),
    );
  if (report.stopped !== undefined) lines.push('', `⛔ ${escapeMarkdown(report.stopped.message, 500)}`);
  lines.push(...failingCases(report));
  for (const [outcome, title] of [
    ['internal-error', 'Cases an internal error stopped'],
    ['could-not-test', 'Cases that could not be tested'],
    ['warned', 'Warnings'],
  ] as const) {
    const cases = casesWith(report, outcome);
    if (cases.length === 0) continue;
    lines.push('', `### ${title} (${cases.length})`, '', '| case | reason |', '| --- | --- |');
    for (const result of cases.slice(0, MAX_LISTED)) lines.push(`| ${code(result.id)} | ${escapeMarkdown(reasonLine(result))} |`);
    if (cases.length > MAX_LISTED) lines.push(`| … | ${cases.length - MAX_LISTED} more in the full report |`);
  }
  if (report.findings.length > 0) {
    lines.push(
      '',
      `### Findings (${report.findings.length}): recommendations the responses did not follow`,
      '',
      '| check | found |',
      '| --- | --- |',
    );
    for (const f of report.findings) {
      const example = f.examples[0];
      const eg = example === undefined ? '' : `; e.g. ${code(example.caseId)} step ${example.step + 1}: ${escapeMarkdown(example.message)}`;
      lines.push(`| ${code(f.id)} | ${f.count} response${f.count === 1 ? '' : 's'}${eg} |`);
    }
  }
  if (report.load !== undefined) {
    const { heading, figures, thresholds } = loadFigures(report.load, report);
    lines.push('', `### ${escapeMarkdown(heading)}`, '', '| figure | value |', '| --- | --- |');
    for (const f of figures) lines.push(`| ${escapeMarkdown(f.label)} | ${escapeMarkdown(f.value, 400)} |`);
    if (thresholds.length > 0) {
      lines.push('', '| check | verdict | measured against the bound |', '| --- | --- | --- |');
      for (const c of thresholds) lines.push(`| ${code(c.check)} | ${LABELS[c.outcome]} | ${escapeMarkdown(c.message, 400)} |`);
    }
  }
  const disabled = report.meta.disabled.map((d) => `🔕 disabled by the configuration: ${code(d.id)} (${escapeMarkdown(d.reason)})`);
  if (disabled.length > 0) lines.push('', ...disabled);
  const countdowns = report.meta.deprecations.map((c) => `⏳ ${escapeMarkdown(countdownSentence(c))}`);
  if (countdowns.length > 0) lines.push('', ...countdowns);
  // Named, not linked: a relative link is dead where this file is pasted (a step summary, a merge-request comment).
  if (links.length > 0) lines.push('', `Reports written beside this summary: ${links.map(code).join(' · ')}`);
  return `${lines.join('\n')}\n`;
}

/** What changed since the baseline, for a pull-request comment: the headline, then a table of the cases, new failures first. */
function sinceBaselineMarkdown(since: SinceBaseline): string[] {
  const icon = since.newFailures.length > 0 ? '🆕' : '🔁';
  const lines = ['', `${icon} **${escapeMarkdown(sinceBaselineLine(since))}**`];
  const unlike = unlikeLine(since);
  if (unlike !== undefined) lines.push('', `⚠️ ${escapeMarkdown(unlike, 500)}`);
  const groups = changeGroups(since);
  if (groups.length > 0) lines.push('', '| change | case | was |', '| --- | --- | --- |');
  let listed = 0;
  for (const group of groups) {
    const shown = group.changes.slice(0, Math.max(0, MAX_LISTED - listed));
    for (const change of shown) lines.push(`| ${group.title} | ${code(change.id)} | ${escapeMarkdown(wasWords(change.was))} |`);
    if (shown.length < group.changes.length)
      lines.push(`| ${group.title} | … | ${group.changes.length - shown.length} more in report.json |`);
    listed += shown.length;
  }
  const rules = rulesLine(since);
  if (rules !== undefined) lines.push('', escapeMarkdown(rules, 600));
  return lines;
}

/** The ledger of judgement: its line, and a table of the rules the selection could have judged that nothing judged. */
function ledgerLines(ledger: JudgementLedger): string[] {
  const mark = ledger.belowMinimum === true ? '⚠️' : '⚖️';
  const lines = [`${mark} ${escapeMarkdown(ledgerLine(ledger))}`];
  const unjudged = unjudgedRules(ledger);
  if (unjudged.length === 0) return lines;
  lines.push('', `### Rules not judged (${unjudged.length})`, '', '| rule | why |', '| --- | --- |');
  for (const rule of unjudged.slice(0, MAX_LISTED)) lines.push(`| ${code(rule.id)} | ${escapeMarkdown(reasonsText(rule, 400), 400)} |`);
  if (unjudged.length > MAX_LISTED) lines.push(`| … | ${unjudged.length - MAX_LISTED} more in the full report |`);
  return lines;
}

/** Writes summary.md when the run ends, linking the other files written beside it. */
export class MarkdownReporter extends FileReporter {
  constructor(reportDir: string, links: readonly string[]) {
    super('markdown', path.join(reportDir, REPORT_FILES.markdown), (report) => renderMarkdown(report, links));
  }
}
