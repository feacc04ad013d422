import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startReferenceServer } from '../dist/server/reference-server.js';
import type { RunReport } from '../dist/model/results.js';
import { HtmlReporter, renderHtml } from '../dist/reporters/html-reporter.js';
import { root, runCli, tempDir } from './helpers.js';
import { hostileReport, SAMPLE_LOAD } from './report-fixture.js';

/** Where tests keep the last screenshot, for people to look at. */
const SCREENSHOT = path.join(root, '.tap/report-screenshot.png');

function chromiumMissing(): string | undefined {
  if (spawnSync('chromium', ['--version']).error === undefined) return undefined;
  return 'chromium is not installed and .ci/run could not install it (Debian package chromium): the screenshot test is skipped';
}

/** Renders a page in headless Chromium and saves a screenshot; bounded in time, no network. */
function screenshot(page: string, png: string, profile: string): Promise<{ code: number | null; output: string }> {
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, `--screenshot=${png}`, '--window-size=1280,900', `file://${page}`];
  return new Promise((resolve, reject) => {
    const child = spawn('chromium', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '', HOME: profile } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

t.test('the verdict, the counts and the countdown come first; failures before warnings before passes', async (t) => {
  const html = renderHtml(hostileReport());
  t.match(html, /<header class="verdict v-failed">[\s\S]*<h1>FAILED<\/h1><span class="what">1 of 5 cases failed<\/span>/);
  t.match(html, /getPet is removed in 1475 days \(2030-12-05, by the suite&#39;s clock\)/);
  const order = ['id="failed"', 'id="errored"', 'id="warned"', 'id="passed"', 'id="skipped"'].map((s) => html.indexOf(s));
  t.ok(order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] as number))), 'sections in order of urgency');
  t.match(html, /<pre class="repro">curl -sS -i -X GET &#39;http:\/\/127\.0\.0\.1:9\/v1\/pets\?limit=5&#39; -H &#39;accept: application\/json&#39; -H &quot;Authorization: Bearer \$PETSTORE_API_KEY&quot;<\/pre>/);
  t.notMatch(html, /id="load"/, 'no load section without load results');
});

t.test('every server-supplied string is escaped; the page needs nothing from outside', async (t) => {
  const html = renderHtml(hostileReport());
  t.equal((html.match(/<script/gi) ?? []).length, 0, 'no script element');
  t.match(html, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  t.notMatch(html, /<\/pre><!--/, 'a server cannot close our elements');
  // eslint-disable-next-line no-control-regex
  t.notMatch(html, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/, 'no control characters');
  t.notMatch(html, /(src|href)=["']?(https?:)?\/\//i, 'no external asset');
  t.match(html, `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`, 'a CSP forbids any request even if escaping failed');
});

t.test('load results become a percentile chart and a throughput chart, as inline SVG', async (t) => {
  const html = renderHtml({ ...hostileReport(), load: SAMPLE_LOAD } as unknown as RunReport);
  t.match(html, /<section id="load"><h2>Load<\/h2><div class="charts"><figure><svg[^>]*aria-label="Latency by percentile"/);
  t.match(html, /aria-label="Throughput over time"[\s\S]*<polyline points="[\d., ]+"/);
  t.match(html, />p99\.9</);
  t.ok(html.indexOf('id="load"') < html.indexOf('id="passed"'), 'load before the list of passes');
  const unknownShape = renderHtml({ ...hostileReport(), load: { requests: 5 } } as unknown as RunReport);
  t.match(unknownShape, /report\.json holds them/, 'load results in another shape are pointed to, not drawn');
});

t.test('headless Chromium renders the report of a failing run; the screenshot is kept', { skip: chromiumMissing() ?? false }, async (t) => {
  const server = await startReferenceServer({ apiKey: 'html-test-key-1234', wrap: (next, store) => (req) => next({ ...req, headers: { ...req.headers, authorization: `Bearer ${store.apiKey}` } }) });
  t.teardown(() => server.close());
  const dir = await tempDir();
  const run = await runCli(['--base-url', server.baseUrl, '--report-dir', dir, '--reporter', 'json,html'], { PETSTORE_API_KEY: 'html-test-key-1234' });
  t.equal(run.code, 1, run.stderr);
  const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunReport;
  const page = path.join(dir, 'with-load.html');
  await writeFile(page, renderHtml({ ...report, load: SAMPLE_LOAD } as unknown as RunReport));
  const png = path.join(dir, 'report.png');
  const result = await screenshot(page, png, await tempDir('psc-chromium-'));
  t.equal(result.code, 0, result.output);
  const bytes = await readFile(png);
  t.same([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  t.equal(bytes.readUInt32BE(16), 1280, 'as wide as the window');
  t.ok(bytes.length > 30_000, `a page with content, not a blank one (${bytes.length} bytes)`);
  await mkdir(path.dirname(SCREENSHOT), { recursive: true });
  await writeFile(SCREENSHOT, bytes);
  t.ok((await stat(SCREENSHOT)).size > 0, `kept at ${path.relative(root, SCREENSHOT)}`);
});

t.test('the reporter writes report.html', async (t) => {
  const dir = await tempDir();
  const reporter = new HtmlReporter(dir);
  await reporter.onRunEnd(hostileReport());
  t.same(reporter.files, [path.join(dir, 'report.html')]);
  t.match(await readFile(path.join(dir, 'report.html'), 'utf8'), /^<!doctype html>/);
});
