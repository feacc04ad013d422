/**
 * What no output failure or late stop may cost: a standard output that fails (a reader gone: EPIPE; a full device: ENOSPC)
 * stops the output and never the run, whose reports are written and whose verdict is its exit code; a run that stops once
 * it began exits with its report's verdict (a broken contract stays 1); a signal while the reports are written is 128+n.
 * The real process's streams (`run | head -1`, `> /dev/full`) are in test/slow/output-streams.test.ts.
 */
import t from 'tap';
import { readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { cli } from '../../src/cli/command.js';
import type { RunReport } from '../../src/model/results.js';
import { guardOutput, outputFailureLine } from '../../src/reporters/output-streams.js';
import { StdoutJsonReporter } from '../../src/reporters/json-reporter.js';
import { createPetStore, toNodeHandler } from '../../src/server/reference-server.js';
import { listenLocally, tempDir, textSink } from '../helpers.js';

const KEY = 'output-and-exit-key-5d1e';

/** A stream that takes `accepted` writes, then fails every later one with `code`, as a closed pipe or a full disk does. */
function failingAfter(accepted: number, code: string): Writable & { writes: number } {
  let writes = 0;
  const stream = new Writable({
    write(_chunk, _encoding, done) {
      writes += 1;
      stream.writes = writes;
      if (writes <= accepted) done();
      else done(Object.assign(new Error(`write ${code}`), { code }));
    },
  }) as Writable & { writes: number };
  stream.writes = 0;
  return stream;
}

t.test('a guarded stream: its target failing stops the output, is remembered, and never throws or emits an error', async (t) => {
  for (const code of ['EPIPE', 'ENOSPC']) {
    const target = failingAfter(1, code);
    const guarded = guardOutput(target);
    let errors = 0;
    guarded.on('error', () => {
      errors += 1;
    });
    for (let i = 0; i < 5; i += 1) guarded.write(`line ${i}\n`);
    await new Promise<void>((resolve) => guarded.write('last\n', () => resolve()));
    t.equal(guarded.failure?.code, code, `${code}: the failure is kept`);
    t.equal(errors, 0, `${code}: the guarded stream never fails`);
    t.equal(target.writes, 2, `${code}: nothing is written after the failure`);
  }
  t.equal(outputFailureLine('standard output', guardOutput(failingAfter(9, 'EPIPE'))), undefined, 'no failure, no line');
  const full = guardOutput(failingAfter(0, 'ENOSPC'));
  await new Promise<void>((resolve) => full.write('x', () => resolve()));
  t.match(outputFailureLine('standard output', full), /^standard output failed \(ENOSPC\): .* wrote its reports$/, 'ENOSPC says so');
  const closed = guardOutput(failingAfter(0, 'EPIPE'));
  await new Promise<void>((resolve) => closed.write('x', () => resolve()));
  t.equal(outputFailureLine('standard output', closed), undefined, 'a reader that went away asks for nothing');
});

t.test('the JSON report on a standard output that failed is a report lost, not one delivered', async (t) => {
  const guarded = guardOutput(failingAfter(0, 'ENOSPC'));
  const reporter = new StdoutJsonReporter(guarded);
  const report = { reportVersion: 3 } as unknown as RunReport;
  await t.rejects(reporter.onRunEnd(report), /standard output failed \(ENOSPC\): the report was not delivered/);
});

/** Runs the command in this process with the given standard output; a clean environment with the key. */
async function runWith(args: string[], stdout: Writable, signal = new AbortController().signal) {
  const stderr = textSink();
  const code = await cli(args, { stdout, stderr, env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', PETSTORE_API_KEY: KEY }, signal });
  return { code, stderr: stderr.text() };
}

t.test('a standard output that fails after its first line: the run finishes, writes every report and exits with its verdict', async (t) => {
  for (const code of ['EPIPE', 'ENOSPC']) {
    const dir = await tempDir();
    const run = await runWith(['run', '--suite', 'limits', '--report-dir', dir], guardOutput(failingAfter(1, code)));
    t.equal(run.code, 0, `${code}: exit 0, as the run passed`);
    t.same((await readdir(dir)).sort(), ['junit.xml', 'report.html', 'report.json', 'summary.md'], `${code}: every report written`);
    t.match(JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')), { verdict: 'passed' });
    t.notMatch(run.stderr, /\n\s+at /, `${code}: no stack trace`);
    if (code === 'ENOSPC') t.match(run.stderr, /standard output failed \(ENOSPC\)/, 'a full device is named on stderr');
    else t.equal(run.stderr, '', 'a reader that went away: nothing said');
  }
});

t.test('a signal while the reports are written: exit 128+n, and the report is whole', async (t) => {
  const stop = new AbortController();
  // The JSON on standard output is written while the run ends: the signal comes with its first byte.
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      stop.abort('SIGTERM');
      done();
    },
  });
  let text = '';
  const run = await runWith(['run', '--suite', 'limits', '--reporter', 'json:-'], stdout, stop.signal);
  t.equal(run.code, 143, 'SIGTERM: 143');
  const report = JSON.parse(text) as RunReport;
  t.equal(report.verdict, 'passed', 'the report is whole: the run had ended');
  t.equal(report.interrupted, undefined, 'and it claims no interruption it did not have');
});

t.test('a run that broke the contract and then stopped (a 301 to everything, the load cannot start): exit 1', async (t) => {
  const store = createPetStore({ apiKey: KEY });
  const handle = toNodeHandler(store.handle);
  let answered = 0;
  const server = createServer((req, res) => {
    answered += 1;
    // The preflight and the first cases are answered; the rest are sent elsewhere.
    if (answered <= 40) return handle(req, res);
    res.writeHead(301, { location: 'http://127.0.0.1:9/v1/pets' }).end();
  });
  const base = await listenLocally(server);
  const dir = await tempDir();
  // A short consistency window: the reads that look for a write answered 301 give up in 200 ms, not the default's seconds.
  const run = await runWith(['run', '--base-url', base, '--load', 'smoke', '--consistency-window', '200', '--report-dir', dir], textSink());
  const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunReport;
  t.equal(report.verdict, 'failed', 'the report says the contract is broken');
  t.ok(report.stopped !== undefined, `and that the run stopped (${report.stopped?.message ?? ''})`);
  t.equal(run.code, 1, 'the exit code is the report verdict: 1, not 2');
  t.match(run.stderr, /^petstore-conformance: /m, 'what stopped it is said on stderr');
});
