/** report.html: one self-contained page for people; the verdict at the top, failures first with evidence and a curl to reproduce. */
import path from 'node:path';
import {
  outcomeWords,
  type CaseResult,
  type ExchangeEvidence,
  type Outcome,
  type RuleLedgerEntry,
  type RunReport,
} from '../model/results.js';
import { FileReporter } from './file-reporter.js';
import { REPORT_FILES } from './report-files.js';
import { escapeHtml } from './html.js';
import { BASELINE_STYLE, newFailureIds, newMark, sinceBaselineSection } from './html-baseline.js';
import { ledgerLine, reasonsText, unjudgedRules } from './ledger-view.js';
import { latencyClockWords, loadFigures } from './load-figures.js';
import {
  bounded,
  casesWith,
  causeLines,
  countdownSentence,
  decidingChecks,
  decidingExchange,
  exchangeSections,
  failureGroups,
  type FailureGroup,
  failureLines,
  internalErrorLine,
  LABELS,
  located,
  MAX_DETAILS,
  oneLine,
  reasonLine,
  seconds,
  verdictLine,
} from './report-view.js';
import { CHART_CAPTIONS, latencyPercentileChart, loadChartData, throughputChart } from './svg-charts.js';

const SECTION_TITLES: Record<Outcome, string> = {
  failed: 'Failures',
  'internal-error': 'Internal errors (a bug of petstore-conformance)',
  'could-not-test': 'Could not be tested',
  warned: 'Warnings',
  passed: 'Passed',
  'not-judged': 'Not judged',
};

// A line that ends in a backslash goes on at the next (a template's line continuation): the style stays byte for byte what it was.
const STYLE = `
:root { --failed: #c62828; --internal-error: #6a1b9a; --could-not-test: #6a1b9a; --warned: #a15c00; \
--passed: #2e7d32; --not-judged: #616161; --line: #d7dbe0; --soft: #f5f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; \
color: #1d232a; background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 0 24px 48px; }
h3, dd, li, p, li code, p code, h3 code { overflow-wrap: anywhere; } td, th { overflow-wrap: break-word; }
header.verdict { color: #fff; padding: 18px 24px; }
header.verdict .inner { max-width: 1180px; margin: 0 auto; display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: baseline; }
header.verdict h1 { margin: 0; font-size: 34px; letter-spacing: .02em; }
header.verdict .what { font-size: 18px; }
header.verdict dl { flex-basis: 100%; display: flex; flex-wrap: wrap; gap: 4px 24px; margin: 4px 0 0; opacity: .95; }
header.verdict dt { font-weight: 600; } header.verdict dd { margin: 0 0 0 6px; min-width: 0; }
header.verdict div.meta { display: flex; min-width: 0; }
.v-passed { background: var(--passed); } .v-failed { background: var(--failed); } \
.v-incomplete { background: var(--could-not-test); } .v-internal-error { background: var(--internal-error); }
nav.summary { margin: 16px 0 8px; }
.counts { display: flex; flex-wrap: wrap; gap: 10px; margin: 0 0 8px; }
.counts a { text-decoration: none; color: inherit; border: 1px solid var(--line); border-left: 6px solid; \
border-radius: 6px; padding: 6px 14px; min-width: 110px; }
.counts b { font-size: 22px; display: block; }
.c-failed { border-left-color: var(--failed) !important; } \
.c-internal-error { border-left-color: var(--internal-error) !important; } \
.c-could-not-test { border-left-color: var(--could-not-test) !important; }
.c-warned { border-left-color: var(--warned) !important; } .c-passed { border-left-color: var(--passed) !important; } \
.c-not-judged { border-left-color: var(--not-judged) !important; }
.c-load { border-left-color: #1565c0 !important; }
.causes h2 { margin-top: 12px; } .causes ol { margin: 4px 0; padding-left: 24px; } \
.causes li { margin: 2px 0; } .causes .n { color: #555; white-space: nowrap; }
.causes summary { cursor: pointer; margin: 4px 0; }
.run-causes { border-left: 6px solid var(--failed); padding: 2px 12px; margin: 8px 0; background: var(--soft); border-radius: 6px; }
.run-causes p { margin: 4px 0; } .run-causes ul { margin: 4px 0; padding-left: 20px; }
.countdown { margin: 8px 0 0; padding: 8px 12px; background: var(--soft); border-radius: 6px; }
h2 { margin: 28px 0 10px; font-size: 20px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
section.cause { margin: 14px 0 22px; }
section.cause > h3 { font-size: 16px; margin: 0; } section.cause > .where { margin: 2px 0 6px; }
article { border: 1px solid var(--line); border-left: 6px solid; border-radius: 6px; padding: 8px 14px; margin: 8px 0; }
article h3 { margin: 0; font-size: 15px; display: inline; }
article > details > summary { margin: 0; } \
article > details > summary .line { display: block; color: #444; font-size: 13px; margin: 2px 0 0 18px; }
article > details[open] > summary .line { display: none; }
article > details > summary ~ * { margin-left: 18px; }
.badge { display: inline-block; color: #fff; font-size: 11px; font-weight: 700; padding: 1px 6px; \
border-radius: 3px; margin-right: 6px; vertical-align: 1px; }
.b-failed { background: var(--failed); } .b-internal-error { background: var(--internal-error); } \
.b-could-not-test { background: var(--could-not-test); } .b-warned { background: var(--warned); } \
.b-passed { background: var(--passed); } .b-not-judged { background: var(--not-judged); }
.where { color: #555; margin: 4px 0 6px; font-size: 13px; }
ul.reasons { margin: 4px 0 8px; padding-left: 20px; } ul.reasons ul { color: #444; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 8px 10px; margin: 4px 0 8px; \
white-space: pre-wrap; overflow-wrap: anywhere; font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; \
max-height: 320px; overflow: auto; }
pre.repro { background: #1d232a; color: #e8f0f8; border-color: #1d232a; }
h4 { margin: 8px 0 2px; font-size: 13px; }
details summary { cursor: pointer; color: #333; margin: 4px 0; }
.table { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
table.ledger { table-layout: fixed; } table.ledger td, table.ledger th { overflow-wrap: anywhere; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num { text-align: right; white-space: nowrap; } table.thresholds td:nth-child(2) { white-space: nowrap; }
table.figures th { width: 11em; } table.figures, table.thresholds { margin-bottom: 12px; }
table.thresholds tr.failed td:nth-child(2) { color: var(--failed); font-weight: 700; } \
table.thresholds tr.could-not-test td:nth-child(2), table.thresholds tr.internal-error td:nth-child(2) \
{ color: var(--could-not-test); font-weight: 700; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
.charts figure { margin: 0; flex: 1 1 480px; min-width: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px; }
.charts figcaption { font-weight: 600; margin: 0 0 4px; }
svg.chart { width: 100%; height: auto; font: 11px system-ui, sans-serif; }
svg .grid { stroke: #e5e8eb; } svg .axis { stroke: #888; } svg .bar { fill: #1565c0; } \
svg .line { fill: none; stroke: #1565c0; stroke-width: 2; }
svg .area { fill: #1565c0; opacity: .12; } svg .value { font-weight: 600; } svg .axis-label { fill: #555; }
footer { color: #666; margin-top: 32px; font-size: 12px; }
@media (max-width: 600px) {
  main { padding: 0 12px 32px; } header.verdict { padding: 14px 12px; } \
header.verdict h1 { font-size: 26px; } header.verdict .what { font-size: 16px; }
  .counts { gap: 6px; } .counts a { min-width: 0; flex: 1 1 96px; padding: 4px 8px; } .counts b { font-size: 18px; }
  article { padding: 6px 8px; } article > details > summary ~ * { margin-left: 0; }
  th, td { padding: 4px 4px; } table.figures th { width: auto; }
  table.cases thead { display: none; } table.cases tr, table.cases td { display: block; } table.cases td { border: 0; padding: 0 4px; }
  table.cases tr { border-bottom: 1px solid var(--line); padding: 4px 0; } table.cases td.num { text-align: left; }
}
`;

/** An id that may break after its dots on a narrow screen (a table column is no wider than its longest part), copied whole. */
function breakable(id: string): string {
  return escapeHtml(id).replace(/\./g, '.<wbr>');
}

function exchangeHtml(exchange: ExchangeEvidence, total: number, deciding: boolean): string {
  const attempts = exchange.attempts > 1 ? `, ${exchange.attempts} attempts` : '';
  const heading = `Step ${exchange.step + 1} of ${total}${deciding ? ' (judged)' : ''} · ${exchange.durationMs} ms${attempts}`;
  // The judged exchange's curl is already shown above the evidence; earlier steps keep theirs.
  const sections = exchangeSections(exchange, true)
    .filter((s) => !(deciding && s.title === 'Reproduce with'))
    .map((s) => `<h4>${escapeHtml(s.title)}</h4><pre${s.title === 'Reproduce with' ? ' class="repro"' : ''}>${escapeHtml(s.text)}</pre>`);
  return `<h4>${escapeHtml(heading)}</h4>${sections.join('')}`;
}

function reasonsHtml(result: CaseResult): string {
  const deciding = decidingChecks(result);
  if (deciding.length === 0)
    return result.reason === undefined ? '' : `<ul class="reasons"><li>${escapeHtml(bounded(result.reason))}</li></ul>`;
  const items = deciding.map((a) => {
    const lines = failureLines(a);
    const details = lines.length > 1 ? lines.slice(0, MAX_DETAILS).map((d) => `<li>${escapeHtml(bounded(d, 500))}</li>`) : [];
    const more = lines.length > MAX_DETAILS ? `<li>… ${lines.length - MAX_DETAILS} more</li>` : '';
    const at = located(a.source);
    return (
      `<li><b>${escapeHtml(a.id)}</b> (step ${a.step + 1}${at === undefined ? '' : `, ${escapeHtml(at)}`}): ` +
      `${escapeHtml(bounded(a.message))}${details.length > 0 ? `<ul>${details.join('')}${more}</ul>` : ''}</li>`
    );
  });
  return `<ul class="reasons">${items.join('')}</ul>`;
}

/**
 * One case: its heading and reason line (all a closed card shows), where it is declared, the checks that decided it,
 * the curl to reproduce it and its evidence, collapsed.
 */
function caseCard(result: CaseResult, open: boolean, isNew: ReadonlySet<string> = new Set()): string {
  const deciding = decidingExchange(result);
  const reproduce =
    deciding?.reproduce === undefined ? '' : `<h4>Reproduce with</h4><pre class="repro">${escapeHtml(deciding.reproduce)}</pre>`;
  const evidence = result.exchanges.map((e) => exchangeHtml(e, result.exchanges.length, e === deciding)).join('');
  return [
    `<article class="c-${result.outcome}" id="result-${escapeHtml(result.id)}"><details${open ? ' open' : ''}>`,
    `<summary><h3><span class="badge b-${result.outcome}">${LABELS[result.outcome]}</span>${newMark(result.id, isNew)}<code>${escapeHtml(result.id)}</code> ` +
      `${escapeHtml(result.title)}</h3><span class="line">${escapeHtml(reasonLine(result))}</span></summary>`,
    `<p class="where">${escapeHtml(result.clause)}` +
      `${result.source === undefined ? '' : ` · ${escapeHtml(located(result.source) ?? '')}`} ` +
      `· suite ${escapeHtml(result.suite)}</p>`,
    reasonsHtml(result),
    reproduce,
    evidence === ''
      ? ''
      : `<details class="evidence"><summary>Evidence (${result.exchanges.length} ` +
        `exchange${result.exchanges.length === 1 ? '' : 's'})</summary>${evidence}</details>`,
    '</details></article>',
  ].join('\n');
}

/** The id of a failure group's section, for the links at the top. */
function causeId(index: number): string {
  return `cause-${index + 1}`;
}

/** The failures, one section per check and clause they broke; the first case of each open, the others one line each. */
function failuresBody(groups: readonly FailureGroup[], isNew: ReadonlySet<string>): string {
  return groups
    .map((group, i) => {
      const n = group.cases.length;
      return [
        `<section class="cause" id="${causeId(i)}">`,
        `<h3><span class="badge b-failed">${LABELS.failed}</span><code>${escapeHtml(group.check ?? 'failed')}</code> · ${n} ` +
          `case${n === 1 ? '' : 's'}</h3>`,
        `<p class="where">${escapeHtml(group.clause)}</p>`,
        ...group.cases.map((c, j) => caseCard(c, j === 0, isNew)),
        '</section>',
      ].join('\n');
    })
    .join('\n');
}

function caseTable(cases: readonly CaseResult[], withReason: boolean): string {
  const rows = cases.map((c) => {
    const reason = withReason ? `<td>${escapeHtml(reasonLine(c))}</td>` : '';
    return (
      `<tr><td><code>${breakable(c.id)}</code></td><td>${escapeHtml(c.title)}</td><td>${escapeHtml(c.suite)}</td>${reason}<td ` +
      `class="num">${seconds(c.durationMs)} s</td></tr>`
    );
  });
  return (
    `<div class="table"><table ` +
    `class="cases"><thead><tr><th>case</th><th>title</th><th>suite</th>${withReason ? '<th>reason</th>' : ''}<th>time</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}

/** The load figures and the verdict of each threshold, as tables above the charts. */
function loadTables(report: RunReport): string {
  // A load section of another shape (an edited or foreign report.json) is pointed to, not read.
  if (typeof report.load?.metrics?.latency !== 'object' || typeof report.load.profile !== 'object') return '';
  const { figures, thresholds } = loadFigures(report.load, report);
  const rows = figures.map((f) => `<tr><th scope="row">${escapeHtml(f.label)}</th><td>${escapeHtml(f.value)}</td></tr>`);
  const verdicts = thresholds.map(
    (c) =>
      `<tr class="${c.outcome}"><td><code>${breakable(c.check)}</code></td><td>${LABELS[c.outcome]}</td>` +
      `<td>${escapeHtml(oneLine(c.message, 400))}</td></tr>`,
  );
  const judged =
    verdicts.length === 0
      ? ''
      : `<div class="table"><table class="thresholds"><thead><tr><th>check</th><th>verdict</th><th>measured against the ` +
        `bound</th></tr></thead><tbody>${verdicts.join('')}</tbody></table></div>`;
  return `<div class="table"><table class="figures"><tbody>${rows.join('')}</tbody></table></div>${judged}`;
}

/** The latency chart's caption, with the clock of its bars and (when drawn) of the windows' marks: they differ under a target rate. */
function latencyCaption(report: RunReport, windows: boolean): string {
  const clock = report.load?.metrics.latencyFrom;
  return (
    `${CHART_CAPTIONS.latency}: the bars ` +
    `${latencyClockWords(clock)}${windows ? `; the windows' marks ${latencyClockWords('actual-send')}` : ''}`
  );
}

function loadSection(report: RunReport): string {
  const load = (report as RunReport & { load?: unknown }).load;
  if (load === undefined) return '';
  const data = loadChartData(load);
  const charts =
    data === undefined
      ? '<p>This run has load results; report.json holds them.</p>'
      : `<div class="charts"><figure><figcaption>${escapeHtml(latencyCaption(report, data.windows !== undefined))}</figcaption>` +
        `${latencyPercentileChart(data.percentiles, data.windows)}</figure>` +
        `<figure><figcaption>${escapeHtml(CHART_CAPTIONS.throughput)}</figcaption>` +
        `${throughputChart(data.throughput, stageSeconds(load), data.windows)}</figure></div>`;
  return `<section id="load"><h2>Load</h2>${loadTables(report)}${charts}</section>`;
}

/** How long the measured stages ran together, when the section says so: the span of the throughput chart. */
function stageSeconds(load: unknown): number | undefined {
  const stages = (load as { stages?: unknown }).stages;
  if (!Array.isArray(stages)) return undefined;
  const total = stages.reduce(
    (sum: number, stage: { metrics?: { durationSeconds?: unknown } }) =>
      sum + (typeof stage.metrics?.durationSeconds === 'number' ? stage.metrics.durationSeconds : 0),
    0,
  );
  return total > 0 ? total : undefined;
}

/** The run's findings: each recommendation the responses did not follow, with how many and its examples. */
/** The listing states a rule was judged in, after its phases: ` (filtered, page full; unfiltered, page not full)`. */
function listings(rule: RuleLedgerEntry): string {
  return rule.states === undefined ? '' : ` (${escapeHtml(rule.states.join('; '))})`;
}

/** The ledger of judgement: its line, the rules not judged with why, and every rule folded (what judged it, or why not). */
function judgementSection(report: RunReport): string {
  const ledger = report.judgement;
  if (ledger === undefined) return '';
  const row = (rule: RuleLedgerEntry): string =>
    `<tr><td><code>${escapeHtml(rule.id)}</code></td><td>${escapeHtml(rule.status.replace('-', ' '))}</td>` +
    `<td>${rule.judged}</td><td>${escapeHtml(rule.phases.join(', '))}${listings(rule)}</td>` +
    `<td>${rule.status === 'judged' && rule.reasons === undefined ? '' : escapeHtml(reasonsText(rule))}</td></tr>`;
  const table = (rules: readonly RuleLedgerEntry[]): string =>
    '<table class="ledger"><thead><tr><th>rule</th><th>status</th><th>judged</th><th>phases (listings)</th><th>why not</th></tr></thead>' +
    `<tbody>${rules.map(row).join('')}</tbody></table>`;
  const unjudged = unjudgedRules(ledger);
  return (
    `<section id="judgement"><h2>Judgement: ${escapeHtml(ledgerLine(ledger))}</h2>` +
    `${unjudged.length === 0 ? '' : table(unjudged)}` +
    // Every registered rule, the selected ones counted apart: "judged 45 of 45" beside "every rule (52)" read as a mismatch.
    `<details><summary>Every registered rule (${ledger.rules.length}: the ${ledger.selected} this run selected, and ` +
    `${ledger.rules.length - ledger.selected} it did not): what judged each, or why nothing did</summary>${table(ledger.rules)}</details>` +
    '</section>'
  );
}

function findingsSection(report: RunReport): string {
  if (report.findings.length === 0) return '';
  const cards = report.findings.map((f) => {
    const examples = f.examples.map(
      (e) =>
        `<li><code>${escapeHtml(e.caseId)}</code> step ${e.step + 1}: ` +
        `${escapeHtml(bounded(e.message))}<br><code>${escapeHtml(e.request)}</code> → ${e.status}</li>`,
    );
    const more = f.count > f.examples.length ? `<li>… and ${f.count - f.examples.length} more responses</li>` : '';
    return [
      `<article class="c-warned" id="finding-${escapeHtml(f.id)}">`,
      `<h3><span class="badge b-warned">${LABELS.warned}</span><code>${escapeHtml(f.id)}</code> ${escapeHtml(f.title)}</h3>`,
      `<p class="where">${escapeHtml(f.clause)} · ${f.count} response${f.count === 1 ? '' : 's'}</p>`,
      `<ul class="reasons">${examples.join('')}${more}</ul>`,
      '</article>',
    ].join('\n');
  });
  return (
    `<section id="findings"><h2>Findings (${report.findings.length}): recommendations the responses did not follow; they decide no ` +
    `case</h2>${cards.join('\n')}</section>`
  );
}

/** The checks and phases that threw: a bug of this project, said first so that nobody reads it as the server's fault. */
function internalErrorsSection(report: RunReport): string {
  if (report.internalErrors.length === 0) return '';
  const items = report.internalErrors.map((e) => `<li>${escapeHtml(internalErrorLine(e, 1_000))}</li>`);
  return (
    `<section id="internal-errors"><h2>Internal errors: a bug of petstore-conformance to report, not a verdict on the ` +
    `server</h2><ul class="reasons">${items.join('')}</ul></section>`
  );
}

/** The load's card among the counts: the load case's verdict and how many of its checks failed, linking to the load section. */
function loadCard(report: RunReport): string {
  if ((report as RunReport & { load?: unknown }).load === undefined) return '';
  const loadCase = report.cases.find((c) => c.suite === 'load');
  if (loadCase === undefined) return '<a class="c-load" href="#load"><b>load</b>results</a>';
  const failed = loadCase.checks.filter((c) => c.outcome === 'failed').length;
  const words =
    failed > 0
      ? `load: ${failed} of ${loadCase.checks.length} checks failed`
      : `load: ${loadCase.checks.length} checks ${outcomeWords(loadCase.outcome)}`;
  return `<a class="c-load" href="#load"><b>${LABELS[loadCase.outcome]}</b>${escapeHtml(words)}</a>`;
}

function header(report: RunReport): string {
  const { meta } = report;
  const facts: Array<[string, string]> = [
    ['server', `${meta.baseUrl}${meta.embeddedServer ? ' (embedded reference server)' : ''}`],
    ['started', meta.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
    ['took', `${seconds(report.durationMs)} s`],
    ["suite's clock", meta.clock.slice(0, 10)],
    ['suites', meta.suites.join(', ')],
    ...(report.stopped === undefined ? [] : [['stopped', bounded(report.stopped.message, 500)] as [string, string]]),
  ];
  const verdict = report.verdict.replace('-', ' ').toUpperCase();
  return [
    `<header class="verdict v-${report.verdict}"><div class="inner">`,
    `<h1>${verdict}</h1><span class="what">${escapeHtml(verdictLine(report).replace(/^[A-Z ]+: /, ''))}</span>`,
    `<dl>${facts.map(([k, v]) => `<div class="meta"><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>`,
    '</div></header>',
  ].join('\n');
}

/** How many failure groups the index shows unfolded. */
const OPEN_INDEX_GROUPS = 5;

/** The failed checks of the whole run by how many answers, before the index: the cause that many groups share. */
function causesBlock(report: RunReport): string {
  const lines = causeLines(report);
  if (lines.length === 0) return '';
  return (
    `<div class="run-causes"><p><b>Causes</b>: the checks that failed, across the run (a case may fail ` +
    `several)</p><ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></div>`
  );
}

/** Renders the report as one self-contained HTML page (inline CSS and SVG, no scripts, no network). */
export function renderHtml(report: RunReport): string {
  const { meta } = report;
  const order: Outcome[] = ['failed', 'internal-error', 'could-not-test', 'warned', 'passed', 'not-judged'];
  const groups = failureGroups(casesWith(report, 'failed'));
  const counts = [
    ...order.map((o) => `<a class="c-${o}" href="#${o}"><b>${report.counts[o]}</b>${outcomeWords(o)}</a>`),
    `<a class="c-warned" href="#findings"><b>${report.findings.length}</b>findings</a>`,
    loadCard(report),
  ].join('');
  const causes = causesBlock(report);
  // A long index is folded: on a phone, 29 groups took 1,700 px before the first failure.
  const index =
    groups.length === 0
      ? ''
      : `<details class="causes"${groups.length <= OPEN_INDEX_GROUPS ? ' open' : ''}>` +
        `<summary><b>Failures by the check and clause they broke</b> (${groups.length} group${groups.length === 1 ? '' : 's'})</summary>` +
        `<ol>${groups
          .map(
            (g, i) =>
              `<li><a href="#${causeId(i)}"><code>${escapeHtml(g.check ?? 'failed')}</code>: ${escapeHtml(oneLine(g.clause, 300))}</a> ` +
              `<span class="n">${g.cases.length} case${g.cases.length === 1 ? '' : 's'}</span></li>`,
          )
          .join('')}</ol></details>`;
  const countdowns = report.meta.deprecations.map((c) => `<p class="countdown"><b>Deprecation</b> ${escapeHtml(countdownSentence(c))}</p>`);
  const disabled = report.meta.disabled.map(
    (d) => `<p class="countdown"><b>Disabled by the configuration</b> <code>${escapeHtml(d.id)}</code>: ${escapeHtml(d.reason)}</p>`,
  );
  const section = (outcome: Outcome): string => {
    const cases = casesWith(report, outcome);
    if (cases.length === 0) return '';
    const body =
      outcome === 'failed'
        ? failuresBody(groups, newFailureIds(report))
        : outcome === 'passed'
          ? `<details><summary>The ${cases.length} case${cases.length === 1 ? '' : 's'} that ` +
            `passed</summary>${caseTable(cases, false)}</details>`
          : outcome === 'not-judged'
            ? caseTable(cases, true)
            : cases.map((c) => caseCard(c, true)).join('\n');
    return `<section id="${outcome}"><h2>${SECTION_TITLES[outcome]} (${cases.length})</h2>${body}</section>`;
  };
  // Load results belong with the problems, before the long list of passes.
  const sections = [
    internalErrorsSection(report),
    section('failed'),
    section('internal-error'),
    section('could-not-test'),
    section('warned'),
    findingsSection(report),
    loadSection(report),
    judgementSection(report),
    section('passed'),
    section('not-judged'),
  ];
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${report.verdict.replace('-', ' ').toUpperCase()} · ${meta.tool.name} · ${meta.baseUrl}`)}</title>`,
    `<style>${STYLE}${BASELINE_STYLE}</style></head><body>`,
    header(report),
    '<main>',
    `<nav class="summary" aria-label="Summary"><div class="counts">${counts}</div>${causes}${index}</nav>`,
    sinceBaselineSection(report),
    ...countdowns,
    ...disabled,
    ...sections,
    `<footer>${escapeHtml(
      `${meta.tool.name} ${meta.tool.version} · run ${meta.runId}` +
        ` · finished ${report.finishedAt} · report.json is the canonical report`,
    )}</footer>`,
    '</main></body></html>',
    '',
  ].join('\n');
}

/** Writes report.html when the run ends. */
export class HtmlReporter extends FileReporter {
  constructor(reportDir: string) {
    super('html', path.join(reportDir, REPORT_FILES.html), renderHtml);
  }
}
