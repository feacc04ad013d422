import t from 'tap';
import { PassThrough } from 'node:stream';
import { ConsoleReporter } from '../dist/reporters/console-reporter.js';
import { hostileReport } from './report-fixture.js';

function capture(isTTY: boolean, color: boolean, quiet: boolean): { reporter: ConsoleReporter; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { reporter: new ConsoleReporter({ stream, color, quiet }), text: () => text };
}

async function play(reporter: ConsoleReporter): Promise<void> {
  const report = hostileReport();
  reporter.onRunStart(report.meta, report.cases);
  for (const result of report.cases) reporter.onCaseEnd(result);
  reporter.onRunEnd(report);
  await new Promise((resolve) => setImmediate(resolve));
}

t.test('on a terminal: progress suite by suite, then failures with reasons and a curl', async (t) => {
  const { reporter, text } = capture(true, true, false);
  await play(reporter);
  const out = text();
  t.match(out, /checking 1\/5 · contract 1\/3/, 'a live progress line');
  t.match(out, /\u001b\[31m✗\u001b\[39m contract\s+\u001b\[2m1 failed, 1 warned, 1 errored/, 'a line when a suite is done');
  t.match(out, /✓\u001b\[39m auth\s+\u001b\[2m1 passed, 1 skipped/);
  t.match(out, /\u001b\[31mFAIL \u001b\[39m/, 'coloured on a colour terminal');
  t.match(out, /reproduce: curl -sS -i -X GET/);
  t.match(out, /verdict: \u001b\[31mFAILED/);
});

t.test('without a terminal or with NO_COLOR: no progress, no escape sequences, no control characters', async (t) => {
  const { reporter, text } = capture(false, false, false);
  await play(reporter);
  const out = text();
  t.notMatch(out, /checking \d/);
  // eslint-disable-next-line no-control-regex
  t.notMatch(out, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, 'only newlines');
  t.match(out, /FAIL  contract\.fails/);
  t.match(out, /WARN  contract\.warns/);
  t.match(out, /ERROR contract\.errors/);
  t.match(out, /1 passed, 1 failed, 1 warned, 1 errored, 1 skipped/);
});

t.test('--quiet: failures and the verdict only, even on a terminal', async (t) => {
  const { reporter, text } = capture(true, false, true);
  await play(reporter);
  const out = text();
  t.notMatch(out, /petstore-conformance 0\.1\.0|checking|WARN/);
  t.match(out, /FAIL  contract\.fails/);
  t.match(out, /verdict: FAILED/);
});
