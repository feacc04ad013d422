/**
 * The HTML report as a browser lays it out: headless Chromium draws the report of a real failed run, with a load section, at a
 * desktop window's width and a phone's, and measures it. A whole run and two browser processes: the slow tier's (it was 22 s of
 * the fast tier's on a busy machine); the HTML itself is tested in test/unit/reporters/reporters.test.ts.
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CaseResult, RunReport } from '../../src/model/results.js';
import { renderHtml } from '../../src/reporters/html-reporter.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { root, runCli, tempDir } from '../helpers.js';
import { SAMPLE_LOAD, withLoad } from '../report-fixture.js';

/** Where tests keep the last screenshots, for people to look at (never committed: .tap/ is ignored). */
const SCREENSHOTS = path.join(root, '.tap');

function chromiumMissing(): string | undefined {
  if (spawnSync('chromium', ['--version']).error === undefined) return undefined;
  return 'chromium is not installed and .ci/run could not install it (Debian package chromium): the screenshot test is skipped';
}

/** Runs headless Chromium on a page in a window `width` px wide; bounded in time, no network. */
function chromium(page: string, width: number, action: string[]): Promise<{ code: number | null; output: string }> {
  return tempDir('psc-chromium-').then(
    (profile) =>
      new Promise((resolve, reject) => {
        const args = [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--hide-scrollbars',
          `--user-data-dir=${profile}`,
          `--window-size=${width},${SCREEN_HEIGHT}`,
          ...action,
          `file://${page}`,
        ];
        const child = spawn('chromium', args, {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { PATH: process.env['PATH'] ?? '', HOME: profile },
        });
        let output = '';
        child.stdout.on('data', (d: Buffer) => (output += d.toString()));
        child.stderr.on('data', (d: Buffer) => (output += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      }),
  );
}

/** The widths the report is laid out at: a desktop window and a phone. */
const WIDTHS = [1440, 390] as const;
const SCREEN_HEIGHT = 900;
const GAP = 16;

/** What a frame measures of the report once laid out: widths, height, and where the link to the load section and the section are. */
interface Layout {
  width: number;
  innerWidth: number;
  scrollWidth: number;
  scrollHeight: number;
  loadLinkTop: number | null;
  loadTop: number | null;
  overflowing: string[];
}

/**
 * A page around the report: the report, unchanged (its CSP included), in a frame as wide as a desktop window and in
 * one as wide as a phone, side by side (Chromium's headless window is at least 500 px wide, and one screenshot shows
 * both), and a script of its own that measures each frame's document once laid out and writes what it measured into
 * the DOM, which --dump-dom prints.
 */
async function framed(page: string): Promise<string> {
  const probe = `addEventListener('load', () => {
    const layouts = [...document.querySelectorAll('iframe')].map((frame) => {
      const doc = frame.contentDocument;
      const view = frame.contentWindow;
      const top = (e) => (e === null ? null : Math.round(e.getBoundingClientRect().top + view.scrollY));
      const overflowing = [...doc.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > view.innerWidth + 0.5)
        .slice(0, 5)
        .map((e) => e.tagName.toLowerCase() + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
      return { width: Number(frame.width), innerWidth: view.innerWidth, scrollWidth: doc.documentElement.scrollWidth,
        scrollHeight: doc.documentElement.scrollHeight, loadLinkTop: top(doc.querySelector('a[href="#load"]')),
        loadTop: top(doc.getElementById('load')), overflowing };
    });
    const out = document.createElement('output');
    out.id = 'layouts';
    out.textContent = JSON.stringify(layouts);
    document.body.append(out);
  });`;
  const report = (await readFile(page, 'utf8')).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const frames = WIDTHS.map((w) => `<iframe width="${w}" height="${SCREEN_HEIGHT}" srcdoc="${report}"></iframe>`).join('');
  const wrapper = page.replace(/\.html$/, '-framed.html');
  await writeFile(
    wrapper,
    `<!doctype html><html><head><style>body { margin: 0; display: flex; gap: ${GAP}px; background: #888 } iframe { border: 0; display: block; flex: none; background: #fff }</style></head><body>${frames}<script>${probe}</script></body></html>`,
  );
  return wrapper;
}

/** The window wide enough for the frames side by side. */
const WINDOW_WIDTH = WIDTHS.reduce((sum, w) => sum + w, 0) + GAP * (WIDTHS.length - 1);

/** Measures the report in its frames. */
async function measure(wrapper: string): Promise<Layout[]> {
  const result = await chromium(wrapper, WINDOW_WIDTH, ['--dump-dom']);
  const found = /<output id="layouts">([^<]*)<\/output>/.exec(result.output)?.[1];
  if (found === undefined) throw new Error(`no measurements from Chromium (exit ${String(result.code)}): ${result.output.slice(-2000)}`);
  return JSON.parse(found) as Layout[];
}

t.test(
  'headless Chromium lays out the report of a failed run with load at 1440 and 390 px: no sideways scroll, the load section linked from the top',
  { skip: chromiumMissing() ?? false },
  async (t) => {
    const server = await startReferenceServer({
      apiKey: 'html-test-key-1234',
      wrap: (next, store) => (req) => next({ ...req, headers: { ...req.headers, authorization: `Bearer ${store.apiKey}` } }),
    });
    t.teardown(() => server.close());
    const dir = await tempDir();
    const run = await runCli(['--base-url', server.baseUrl, '--report-dir', dir, '--reporter', 'json,html'], {
      PETSTORE_API_KEY: 'html-test-key-1234',
    });
    t.equal(run.code, 1, run.stderr);
    const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunReport;
    const loadCase = withLoad().cases.find((c) => c.suite === 'load') as CaseResult;
    const page = path.join(dir, 'with-load.html');
    const counts = { ...report.counts, failed: report.counts.failed + 1 };
    await writeFile(page, renderHtml({ ...report, counts, cases: [...report.cases, loadCase], load: SAMPLE_LOAD } as unknown as RunReport));
    const wrapper = await framed(page);
    const png = path.join(dir, 'report.png');
    const [layouts, shot] = await Promise.all([measure(wrapper), chromium(wrapper, WINDOW_WIDTH, [`--screenshot=${png}`])]);
    t.same(
      layouts.map((l) => l.innerWidth),
      WIDTHS,
      'the report is laid out as wide as a desktop window and a phone',
    );
    for (const layout of layouts) {
      const { width } = layout;
      t.ok(
        layout.scrollWidth <= width,
        `at ${width} px the page is ${layout.scrollWidth} px wide and ${layout.scrollHeight} px tall: no sideways scroll (${layout.overflowing.join('; ') || 'nothing overflows'})`,
      );
      t.ok(
        layout.loadLinkTop !== null && layout.loadLinkTop < SCREEN_HEIGHT,
        `at ${width} px a link to #load is on the first screen (at ${String(layout.loadLinkTop)} px)`,
      );
      t.ok(layout.loadTop !== null, `at ${width} px the load section is at ${String(layout.loadTop)} px`);
    }
    t.equal(shot.code, 0, 'Chromium took the screenshot', { output: shot.output.slice(-2000) });
    const bytes = await readFile(png);
    t.same([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
    t.equal(bytes.readUInt32BE(16), WINDOW_WIDTH, 'as wide as the window: both widths side by side');
    t.ok(bytes.length > 30_000, `a page with content, not a blank one (${bytes.length} bytes)`);
    await mkdir(SCREENSHOTS, { recursive: true });
    await writeFile(path.join(SCREENSHOTS, 'report-screenshot.png'), bytes);
  },
);
