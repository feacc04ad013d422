/**
 * --min-judged against the embedded reference server: a selection that cannot judge every rule it selects (the auth suite
 * sends no filtered listing) ends incomplete with exit 2 and one line naming the rules not judged under --min-judged 100,
 * and as usual under --min-judged 0; a value out of bounds is one line, exit 2, before anything is sent.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cli } from '../../src/cli/command.js';
import type { RunReport } from '../../src/model/results.js';
import { tempDir, textSink } from '../helpers.js';

/** Runs the command in this process, quiet, against the embedded server; its exit code, standard error and report. */
async function run(args: string[]): Promise<{ code: number; stderr: string; report: RunReport | undefined }> {
  const dir = await tempDir();
  const stderr = textSink();
  const code = await cli(['run', '--suite', 'auth', '--quiet', '--report-dir', dir, ...args], {
    stdout: textSink(),
    stderr,
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
    signal: new AbortController().signal,
  });
  const report = await readFile(path.join(dir, 'report.json'), 'utf8').then(
    (text) => JSON.parse(text) as RunReport,
    () => undefined,
  );
  return { code, stderr: stderr.text(), report };
}

t.test('--min-judged 100 with a selection that cannot judge every rule: incomplete, exit 2, one line naming them', async (t) => {
  const { code, stderr, report } = await run(['--min-judged', '100']);
  t.equal(code, 2, 'exit 2: could not judge enough, not a broken contract');
  t.equal(report?.verdict, 'incomplete', 'the report says incomplete');
  t.equal(report?.counts.failed, 0, 'nothing failed');
  const ledger = report?.judgement;
  t.equal(ledger?.belowMinimum, true, 'the ledger says below the minimum');
  t.equal(ledger?.minJudged, 100);
  const unjudged = ledger?.rules.filter((r) => r.status === 'not-judged').map((r) => r.id) ?? [];
  t.ok(unjudged.includes('store.listing-status'), 'the auth suite sends no filtered listing: store.listing-status is not judged');
  t.ok(
    ledger?.rules.filter((r) => r.status === 'not-judged').every((r) => (r.reasons?.length ?? 0) > 0),
    'each rule not judged says why',
  );
  const lines = stderr.split('\n').filter((line) => line !== '');
  t.equal(lines.length, 1, `one line on stderr: ${stderr}`);
  t.match(
    lines[0],
    new RegExp(
      `^petstore-conformance: exit 2: judged ${ledger?.judged} of ${ledger?.selected} rules \\(.* %\\)` +
        // The auth suite holds the request space's key-first cells: the line counts them too.
        ` and ${ledger?.cells?.judged} of ${ledger?.cells?.of} request-space cells, below --min-judged 100 %; ` +
        `not judged: ${unjudged.join(', ')} \\(report.json's judgement says why\\)$`,
    ),
    'naming the rules not judged',
  );
});

t.test('--min-judged 0: the run ends as it would without it', async (t) => {
  const { code, stderr, report } = await run(['--min-judged', '0']);
  t.equal(code, 0, 'exit 0');
  t.equal(report?.verdict, 'passed');
  t.equal(report?.judgement?.belowMinimum, undefined, 'not below');
  t.equal(report?.meta.options['minJudged'], 0, 'recorded in meta.options');
  t.equal(stderr, '', 'nothing on stderr');
});

t.test('--min-judged out of bounds: one line, exit 2, no report', async (t) => {
  for (const value of ['101', '12.5', 'most']) {
    const { code, stderr, report } = await run(['--min-judged', value]);
    t.equal(code, 2, `${value}: exit 2`);
    t.equal(stderr, `petstore-conformance: --min-judged must be a whole number from 0 to 100, got '${value}'\n`, `${value}: one line`);
    t.equal(report, undefined, `${value}: nothing run`);
  }
});
