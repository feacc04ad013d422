/**
 * The first week's slips of issue 46, each held: "1 cases", exit 3 in every --help, the noise of a narrow --check (RULE
 * lines, empty JUnit suites), the HTML's rule counts, the packed tarball ignored by git, a load failure's example request
 * on the console, and a rate-limited run's hint of --rate-limit.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { commandHelp, HELP } from '../../../src/cli/args.js';
import type { JudgementLedger, RuleLedgerEntry, RunReport } from '../../../src/model/results.js';
import { ConsoleReporter } from '../../../src/reporters/console-reporter.js';
import { renderHtml } from '../../../src/reporters/html-reporter.js';
import { renderJunit } from '../../../src/reporters/junit-reporter.js';
import { verdictLine } from '../../../src/reporters/report-view.js';
import { root } from '../../helpers.js';
import { hostileReport, withLoad } from '../../report-fixture.js';

async function consoleEnd(report: RunReport): Promise<string> {
  const stream = Object.assign(new PassThrough(), { isTTY: false });
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  new ConsoleReporter({ stream, color: false, quiet: false }).onRunEnd(report);
  await new Promise((resolve) => setImmediate(resolve));
  return text;
}

function rule(id: string, status: RuleLedgerEntry['status']): RuleLedgerEntry {
  return {
    id,
    title: id,
    clause: 'c',
    scope: 'exchange',
    level: 'fail',
    status,
    judged: status === 'judged' ? 1 : 0,
    outcomes: {},
    phases: [],
  };
}

function ledger(rules: RuleLedgerEntry[]): JudgementLedger {
  const selected = rules.filter((r) => r.status !== 'not-selected').length;
  const judged = rules.filter((r) => r.status === 'judged').length;
  return { judged, selected, percent: Math.round((1000 * judged) / selected) / 10, rules };
}

t.test('one case is "1 case", in every verdict', async (t) => {
  const one = { ...hostileReport() };
  one.cases = one.cases.slice(0, 1).map((c) => ({ ...c, outcome: 'failed' as const }));
  one.counts = { passed: 0, failed: 1, warned: 0, 'not-judged': 0, 'could-not-test': 0, 'internal-error': 0 };
  one.verdict = 'failed';
  t.equal(verdictLine(one), 'FAILED: 1 of 1 case failed');
  t.equal(verdictLine({ ...one, verdict: 'passed', counts: { ...one.counts, failed: 0, passed: 1 }, findings: [] }), 'PASSED: 1 case');
});

t.test('exit 3 is in the whole help and in the help of every command that judges', async (t) => {
  for (const help of [HELP, commandHelp('run'), commandHelp('load'), commandHelp('merge')])
    t.match(help, /\b3 internal error \(a bug of petstore-conformance/, help.split('\n')[0] ?? '');
});

t.test('a run narrowed by --check: one RULE line for the rules it did not reach, and no empty JUnit suite', async (t) => {
  const report = hostileReport();
  report.judgement = ledger([rule('a', 'judged'), rule('b', 'not-judged'), rule('c', 'not-judged'), rule('d', 'not-judged')]);
  report.meta.options = { ...report.meta.options, checks: ['listPets.limit.default'] };
  report.meta.suites = [...new Set([...report.meta.suites, 'empty-one', 'empty-two'])];
  const text = await consoleEnd(report);
  const rules = text.split('\n').filter((line) => line.startsWith('RULE '));
  t.same(rules, ["RULE  3 rules not judged by the cases --check selected: b, c, d (report.json's judgement says why)"]);
  const junit = renderJunit(report, 'host');
  t.notMatch(junit, /<testsuite name="empty-one"/, 'no suite without a case');
  t.match(junit, /<testsuite /, 'the suites with cases are there');
  const unnarrowed = await consoleEnd({ ...report, meta: { ...report.meta, options: {} } });
  t.equal(unnarrowed.split('\n').filter((line) => line.startsWith('RULE ')).length, 3, 'a whole run names each rule');
});

t.test('the HTML counts every registered rule and the selected ones apart', async (t) => {
  const report = { ...hostileReport(), judgement: ledger([rule('a', 'judged'), rule('b', 'judged'), rule('c', 'not-selected')]) };
  const html = renderHtml(report);
  t.match(html, /Judgement: judged 2 of 2 rules/);
  t.match(html, /Every registered rule \(3: the 2 this run selected, and 1 it did not\)/);
});

t.test('the packed tarball is ignored by git', async (t) => {
  const ignored = (await readFile(path.join(root, '.gitignore'), 'utf8')).split('\n');
  t.ok(ignored.includes('*.tgz'));
});

t.test("a load failure on the console shows an example request from the load's evidence", async (t) => {
  const report = withLoad();
  const load = report.load;
  if (load === undefined) throw new Error('no load');
  load.violations = [{ target: '/v1/pets?limit=100', status: 200, problems: ['/0/id must be integer'], bodyExcerpt: '[]' }];
  const text = await consoleEnd(report);
  t.match(text, /FAIL {2}load\.nightly[^\n]*\n(?: {6}[^\n]*\n)*? {6}e\.g\. GET \/v1\/pets\?limit=100 → 200: \/0\/id must be integer\n/);
});

t.test('a run the server rate-limited hints --rate-limit', async (t) => {
  const report = hostileReport();
  report.traffic = { throttledResponses: 40, waitedMs: 78_000, connectionRetries: 0, waits: [] };
  t.match(
    await consoleEnd(report),
    /rate limits: 40 responses asked the suite to wait; .*--rate-limit N \(requests a second\) paces the run/,
  );
  report.meta.options = { ...report.meta.options, rateLimit: 20 };
  t.match(await consoleEnd(report), /--rate-limit 20 is still above the server's limit: lower it/);
});
