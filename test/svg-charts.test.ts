import t from 'tap';
import { latencyPercentileChart, loadChartData, niceScale, throughputChart } from '../dist/reporters/svg-charts.js';
import { SAMPLE_LOAD } from './report-fixture.js';

t.test('axes end on round numbers just above the data', async (t) => {
  t.same(niceScale(118.2), { top: 125, step: 25 });
  t.same(niceScale(1150), { top: 1250, step: 250 });
  t.same(niceScale(4), { top: 4, step: 1 });
  t.same(niceScale(0), { top: 1, step: 0.25 }, 'an empty series still has an axis');
});

t.test('chart data is read only when both series have the chart shape', async (t) => {
  t.same(loadChartData(SAMPLE_LOAD), SAMPLE_LOAD);
  t.equal(loadChartData({ percentiles: [{ p: 50, ms: 'fast' }], throughput: [] }), undefined);
  t.equal(loadChartData({ percentiles: [] }), undefined);
  t.equal(loadChartData(null), undefined);
});

t.test('the charts are standalone SVG with a bar per percentile and a line over time', async (t) => {
  const latency = latencyPercentileChart(SAMPLE_LOAD.percentiles);
  t.match(latency, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  t.equal((latency.match(/<rect /g) ?? []).length, SAMPLE_LOAD.percentiles.length);
  t.match(latency, />118\.2</, 'values are labelled');
  const throughput = throughputChart(SAMPLE_LOAD.throughput);
  t.equal((throughput.match(/<polyline points="([^"]+)"/)?.[1] ?? '').split(' ').length, SAMPLE_LOAD.throughput.length);
  t.notMatch(`${latency}${throughput}`, /NaN|Infinity/);
  t.notMatch(throughputChart([]), /NaN|Infinity/, 'no data draws an empty chart');
});
