/** The trend check in every reporter: the two windows' figures (JSON, console, Markdown, JUnit, HTML) and their marks on the charts. */
import t from 'tap';
import { aggregateRuns } from '../../../src/load/aggregate.js';
import { PassThrough } from 'node:stream';
import { loadCaseInfo } from '../../../src/engine/phases/load.js';
import type { LatencyClock, LoadReport, RawLoadRun, WindowMetrics } from '../../../src/model/load.js';
import type { RunReport } from '../../../src/model/results.js';
import { renderHtml } from '../../../src/reporters/html-reporter.js';
import { renderJson } from '../../../src/reporters/json-reporter.js';
import { renderJunit } from '../../../src/reporters/junit-reporter.js';
import { LoadConsoleReporter } from '../../../src/reporters/load-console-reporter.js';
import { loadFigures } from '../../../src/reporters/load-figures.js';
import { renderMarkdown } from '../../../src/reporters/markdown-reporter.js';
import { latencyPercentileChart, loadChartData, throughputChart } from '../../../src/reporters/svg-charts.js';
import { reportSchemaProblems } from '../../helpers.js';
import { rawRunOf } from '../../load-fixtures.js';
import { hostileReport, SAMPLE_LOAD } from '../../report-fixture.js';

const FIRST: WindowMetrics = {
  from: 0,
  to: 7.5,
  offeredRate: 900,
  concurrency: 1.2,
  generatorBusy: 0.2,
  responses: 6750,
  rps: 900,
  latency: { p50: 0.41, p90: 1.2, p99: 3.9 },
  latencyFrom: 'actual-send',
};
const LAST: WindowMetrics = { ...FIRST, from: 22.5, to: 30, latency: { p50: 48.2, p90: 57.6, p99: 61.3 } };
const TREND_FAILED = 'p50 grew from 0.41 ms in the first window (0–7.5 s) to 48.2 ms in the last (22.5–30 s): more than +50 % + 5 ms';

/** The sample load with its windows, and a load case whose trend check failed (or was not judged, with `reason`). */
function reportWithTrend(windows: boolean, reason?: string): RunReport & { load: LoadReport } {
  const report = hostileReport();
  const trend =
    reason === undefined
      ? { id: 'load.trend', level: 'fail' as const, outcome: 'failed' as const, step: 0, message: TREND_FAILED }
      : { id: 'load.trend', level: 'fail' as const, outcome: 'not-judged' as const, step: 0, message: reason };
  const outcome = reason === undefined ? ('failed' as const) : ('passed' as const);
  report.cases.push({ ...loadCaseInfo(SAMPLE_LOAD.profile), outcome, durationMs: 30_000, checks: [trend], exchanges: [], retries: 0 });
  const metrics = windows ? { ...SAMPLE_LOAD.metrics, windows: { first: FIRST, last: LAST } } : SAMPLE_LOAD.metrics;
  return { ...report, load: { ...SAMPLE_LOAD, metrics } };
}

const FIRST_TEXT = '0–7.5 s: p50 0.41 ms · p90 1.2 ms · p99 3.9 ms · 900 responses/s (900/s offered)';
const LAST_TEXT = '22.5–30 s: p50 48.2 ms · p90 57.6 ms · p99 61.3 ms · 900 responses/s (900/s offered)';

t.test('the windows are figures of the load, in every reporter', async (t) => {
  const report = reportWithTrend(true);
  const { figures, thresholds } = loadFigures(report.load, report);
  t.same(
    figures.filter((f) => f.label.includes('window')),
    [
      { label: 'first window, latency from the actual send', value: FIRST_TEXT },
      { label: 'last window, latency from the actual send', value: LAST_TEXT },
    ],
    "each window's label says its latency is from the actual send",
  );
  t.same(
    figures.filter((f) => f.label.startsWith('latency')).map((f) => f.label),
    ['latency from the scheduled send, coordinated omission corrected'],
    "the stage's latency, at a target rate, says it is from the scheduled send: one clock per label",
  );
  t.ok(
    thresholds.some((c) => c.check === 'load.trend' && c.outcome === 'failed'),
    'the trend check is among the load checks',
  );
  const stream = new PassThrough();
  let consoleText = '';
  stream.on('data', (d: Buffer) => (consoleText += d.toString()));
  new LoadConsoleReporter({ stream, quiet: false }).onRunEnd(report);
  const rendered = {
    console: consoleText,
    markdown: renderMarkdown(report),
    junit: renderJunit(report),
    html: renderHtml(report),
  };
  for (const [name, text] of Object.entries(rendered)) {
    const times = (part: string): number => text.split(part).length - 1;
    t.ok(
      times(FIRST_TEXT) === 1 && times(LAST_TEXT) === 1,
      `${name} shows both windows, each once (the trend's line does not repeat them)`,
    );
    t.ok(text.includes('load.trend'), `${name} names the check`);
    t.ok(times(TREND_FAILED) >= 1, `${name} says what drifted`);
    t.ok(
      times('from the scheduled send, coordinated omission corrected') >= 1 && times('from the actual send') >= 1,
      `${name} names both clocks`,
    );
  }
  t.match(
    rendered.html,
    /Latency by percentile \(ms\): the bars from the scheduled send, coordinated omission corrected; the windows&#39; marks from the actual send/,
  );
  const json = JSON.parse(renderJson(report)) as RunReport & { load: LoadReport };
  t.same(json.load.metrics.windows, { first: FIRST, last: LAST }, 'report.json holds both windows');
  t.same(await reportSchemaProblems(json), [], 'and keeps to report.schema.json');
});

t.test('a stage too short to judge says so where the windows would be', async (t) => {
  const reason = 'the stage lasted 2 s: its windows (25 % of it each) would be shorter than 5 s; the trend needs a stage of at least 20 s';
  const report = reportWithTrend(false, reason);
  const { figures, thresholds } = loadFigures(report.load, report);
  t.same(
    figures.filter((f) => f.label.includes('trend') || f.label.includes('window')),
    [],
    'no window figures, and no trend figure beside the check',
  );
  t.same(
    thresholds.filter((c) => c.check === 'load.trend').map((c) => [c.outcome, c.figure]),
    [['not-judged', reason]],
    'the check says why, once',
  );
  const stream = new PassThrough();
  let consoleText = '';
  stream.on('data', (d: Buffer) => (consoleText += d.toString()));
  new LoadConsoleReporter({ stream, quiet: false }).onRunEnd(report);
  for (const [name, text] of Object.entries({ console: consoleText, markdown: renderMarkdown(report), junit: renderJunit(report) }))
    t.equal(text.split(reason).length - 1, 1, `${name} says it once`);
});

t.test('the charts mark the two windows: spans and throughput on one, p50, p90 and p99 on the other', async (t) => {
  const data = loadChartData(reportWithTrend(true).load);
  t.same(
    data?.windows?.map((w) => [w.name, w.from, w.to, w.rps]),
    [
      ['first', 0, 7.5, 900],
      ['last', 22.5, 30, 900],
    ],
  );
  const windows = data?.windows ?? [];
  const throughput = throughputChart(SAMPLE_LOAD.throughput, 30, windows);
  t.equal((throughput.match(/<rect [^>]*fill-opacity="0.1"/g) ?? []).length, 2, 'a shaded span per window');
  t.match(throughput, /first window 0–7\.5 s: 900 responses\/s/);
  t.match(throughput, /▬ last window 22\.5–30 s/);
  const latency = latencyPercentileChart(SAMPLE_LOAD.percentiles, windows);
  t.equal((latency.match(/<line [^>]*stroke-width="3"/g) ?? []).length, 6, 'p50, p90 and p99 of each window');
  t.match(latency, /last window p99: 61\.3 ms/);
  t.notMatch(latency, /NaN|Infinity/);
  t.equal(throughputChart(SAMPLE_LOAD.throughput, 30), throughputChart(SAMPLE_LOAD.throughput, 30, []), 'no windows, no marks');
  t.equal(loadChartData(SAMPLE_LOAD)?.windows, undefined, 'a load without windows draws none');
  const ramp = {
    ...reportWithTrend(true).load,
    judgedRate: 200,
    stages: [100, 200, 300].map((rate) => ({ rate, metrics: { ...SAMPLE_LOAD.metrics, durationSeconds: 30 }, breached: [], raw: [] })),
  };
  t.same(
    loadChartData(ramp)?.windows?.map((w) => [w.from, w.to]),
    [
      [30, 37.5],
      [52.5, 60],
    ],
    "a ramp's judged stage lies after the stages before it",
  );
  t.equal(
    loadChartData({ ...SAMPLE_LOAD, metrics: { ...SAMPLE_LOAD.metrics, windows: { first: FIRST, last: { ...LAST, rps: 'many' } } } })
      ?.windows,
    undefined,
    'an edited report whose windows are not figures draws none',
  );
});

t.test('a stage says which clock its latency is from: the scheduled send under a target rate, else the actual send', async (t) => {
  const rows: Array<[what: string, runs: RawLoadRun[], clock: LatencyClock]> = [
    ['open throttle', [rawRunOf()], 'actual-send'],
    ['a target rate', [rawRunOf({ rate: 200 })], 'scheduled-send'],
    ['merged runs at a rate', [rawRunOf({ rate: 100 }), rawRunOf({ rate: 100 })], 'scheduled-send'],
  ];
  for (const [what, runs, clock] of rows) t.equal(aggregateRuns(runs).latencyFrom, clock, what);
});
