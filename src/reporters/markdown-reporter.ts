/** summary.md: the verdict in a few lines for a CI step summary or a merge-request comment. */
import path from 'node:path';
import type { RunReport } from '../model/results.js';
import { FileReporter, REPORT_FILES } from './file-reporter.js';
import { loadFigures } from './load-figures.js';
import { casesWith, countdownSentence, LABELS, oneLine, reasonLine, verdictLine } from './report-view.js';

/** How many failing cases the summary lists before it points to the full reports. */
const MAX_LISTED = 50;

const ICONS: Record<RunReport['verdict'], string> = { passed: '✅', failed: '❌', incomplete: '⚠️' };

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

/** Renders the summary; `links` are the other report files (names relative to the report folder). */
export function renderMarkdown(report: RunReport, links: readonly string[] = []): string {
  const { meta, counts } = report;
  const lines = [
    `## ${ICONS[report.verdict]} ${escapeMarkdown(verdictLine(report))} · Pet Store conformance`,
    '',
    `${code(meta.baseUrl)}${meta.embeddedServer ? ' (embedded reference server)' : ''} · ${escapeMarkdown(meta.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))} · ${(report.durationMs / 1000).toFixed(1)} s · suite's clock ${escapeMarkdown(meta.clock.slice(0, 10))} · ${escapeMarkdown(`${meta.tool.name} ${meta.tool.version}`)}`,
    '',
    '| passed | failed | warned | errored | skipped |',
    '| ---: | ---: | ---: | ---: | ---: |',
    `| ${counts.passed} | ${counts.failed} | ${counts.warned} | ${counts.errored} | ${counts.skipped} |`,
  ];
  if (report.stopped !== undefined) lines.push('', `⛔ ${escapeMarkdown(report.stopped.message, 500)}`);
  for (const [outcome, title] of [
    ['failed', 'Failing cases'],
    ['errored', 'Cases that could not be tested'],
    ['warned', 'Warnings'],
  ] as const) {
    const cases = casesWith(report, outcome);
    if (cases.length === 0) continue;
    lines.push('', `### ${title} (${cases.length})`, '', '| case | reason |', '| --- | --- |');
    for (const result of cases.slice(0, MAX_LISTED)) lines.push(`| ${code(result.id)} | ${escapeMarkdown(reasonLine(result))} |`);
    if (cases.length > MAX_LISTED) lines.push(`| … | ${cases.length - MAX_LISTED} more in the full report |`);
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

/** Writes summary.md when the run ends, linking the other files written beside it. */
export class MarkdownReporter extends FileReporter {
  constructor(reportDir: string, links: readonly string[]) {
    super('markdown', path.join(reportDir, REPORT_FILES.markdown), (report) => renderMarkdown(report, links));
  }
}
