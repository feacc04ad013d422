/**
 * The console, JUnit and Markdown of a real failing run against snapshots of them, kept as the files themselves in
 * test/snapshots/ (tap --snapshot, or TAP_SNAPSHOT=1, writes them anew): the same whichever process runs this file,
 * the fast tier's or its own, where a snapshot of tap's is keyed by the file the process started with.
 */
import t, { type Test } from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { loadCaseInputs } from '../../src/engine/inputs.js';
import { executePlan } from '../../src/engine/run.js';
import { DEFAULT_HTTP_OPTIONS } from '../../src/http/client.js';
import { plainSettings } from '../case-context.js';
import { PACKAGE_FOLDERS } from '../../tools/matrix/matrix.js';
import { ConsoleReporter } from '../../src/reporters/console-reporter.js';
import { renderJunit } from '../../src/reporters/junit-reporter.js';
import { renderMarkdown } from '../../src/reporters/markdown-reporter.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { VARIANTS, variantServerOptions } from '../../src/server/variants.js';
import { root } from '../helpers.js';

/** Compares `found` with the snapshot file `name`, or writes it in snapshot mode. */
async function matchSnapshotFile(t: Test, name: string, found: string): Promise<void> {
  const file = path.join(root, 'test', 'snapshots', name);
  if (process.env['TAP_SNAPSHOT'] === '1') {
    await writeFile(file, found);
    t.pass(`${name}: snapshot written`);
    return;
  }
  t.equal(
    found,
    await readFile(file, 'utf8').catch(() => `(no snapshot ${path.relative(root, file)}: run tap --snapshot)`),
    `${name} matches its snapshot`,
  );
}

/** What changes from run to run: run ids, ports, times, durations and the random ids a run makes up. */
function scrub(text: string): string {
  return text
    .replace(/pc-\d{8}T\d{6}-[0-9a-f]{4}/g, 'pc-RUN-ID')
    .replace(/^date: .*$/gm, 'date: HTTP-DATE')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?( UTC)?/g, 'TIMESTAMP')
    .replace(/clock \d{4}-\d{2}-\d{2}/g, 'clock DATE')
    .replace(/removed in \d+ days/g, 'removed in N days')
    .replace(/daysLeft=\d+|\d+ days? (left|ago)/g, 'N days')
    .replace(/time="[\d.]+"/g, 'time="T"')
    .replace(/\d+(\.\d+)? s\b/g, 'N s')
    .replace(/\b\d{16}\b/g, 'UNKNOWN-ID')
    .replace(/wrong-[0-9a-f]{24}/g, 'wrong-TOKEN')
    .replace(/petstore-conformance \d+\.\d+\.\d+/g, 'petstore-conformance VERSION');
}

t.test('console, JUnit and Markdown of a real failing run, noise scrubbed', async (t) => {
  const variant = VARIANTS.find((v) => v.name === 'auth-accepts-basic');
  if (variant === undefined) throw new Error('variant auth-accepts-basic is missing');
  const apiKey = 'snapshot-key-0123456789';
  const server = await startReferenceServer({ apiKey, ...variantServerOptions(variant) });
  t.teardown(() => server.close());
  const inputs = await loadCaseInputs(PACKAGE_FOLDERS, ['auth']);
  const stream = Object.assign(new PassThrough(), { isTTY: false });
  let consoleText = '';
  stream.on('data', (d: Buffer) => (consoleText += d.toString()));
  const report = await executePlan(
    {
      contract: inputs.contract,
      target: { baseUrl: server.baseUrl, apiKey },
      selection: { cases: inputs.cases, suites: ['auth'], ids: new Set(inputs.cases.map((c) => c.id)) },
      settings: plainSettings({
        concurrency: 1,
        consistencyWindowMs: 0,
        seed: 0,
        maxExamples: 0,
        requestTimeoutMs: DEFAULT_HTTP_OPTIONS.requestTimeoutMs,
        maxResponseBytes: DEFAULT_HTTP_OPTIONS.maxResponseBytes,
        excerptBytes: 512,
      }),
      disabled: [{ id: 'auth.www-authenticate', reason: 'our gateway strips it' }],
      recordedOptions: {},
    },
    new ConsoleReporter({ stream, color: false, quiet: false }),
  );
  t.equal(report.verdict, 'failed');
  for (const text of [consoleText, renderJunit(report, 'HOST'), renderMarkdown(report, ['report.json'])])
    t.notMatch(text, apiKey, 'the key is in no output');
  await matchSnapshotFile(t, 'console.txt', scrub(consoleText));
  await matchSnapshotFile(t, 'junit.xml', scrub(renderJunit(report, 'HOST')));
  await matchSnapshotFile(t, 'summary.md', scrub(renderMarkdown(report, ['report.json'])));
});
