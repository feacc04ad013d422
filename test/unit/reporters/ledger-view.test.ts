/** The ledger of judgement as the reporters show it: its line, the one line of --min-judged, and each reporter's rendering. */
import t from 'tap';
import { PassThrough } from 'node:stream';
import type { JudgementLedger, RuleLedgerEntry, RunReport } from '../../../src/model/results.js';
import { ConsoleReporter } from '../../../src/reporters/console-reporter.js';
import { renderHtml } from '../../../src/reporters/html-reporter.js';
import { renderJson } from '../../../src/reporters/json-reporter.js';
import { renderJunit } from '../../../src/reporters/junit-reporter.js';
import { ledgerLine, MAX_NAMED_RULES, minJudgedLine, reasonsText } from '../../../src/reporters/ledger-view.js';
import { renderMarkdown } from '../../../src/reporters/markdown-reporter.js';
import { reportSchemaProblems } from '../../helpers.js';
import { hostileReport } from '../../report-fixture.js';

const entry = (id: string, status: RuleLedgerEntry['status'], reasons?: RuleLedgerEntry['reasons']): RuleLedgerEntry => ({
  id,
  title: `the rule ${id}`,
  clause: 'a clause',
  scope: 'exchange',
  level: 'fail',
  status,
  judged: status === 'judged' ? 3 : 0,
  outcomes: status === 'judged' ? { passed: 3 } : {},
  phases: status === 'judged' ? ['cases'] : [],
  ...(reasons === undefined ? {} : { reasons }),
});

/** A ledger of `judged` rules judged and `unjudged` not, one not selected besides. */
function ledger(judged: number, unjudged: number, minJudged?: number): JudgementLedger {
  const rules = [
    ...Array.from({ length: judged }, (_, i) => entry(`rule.judged-${i}`, 'judged')),
    ...Array.from({ length: unjudged }, (_, i) =>
      entry(`rule.unjudged-${i}`, 'not-judged', [{ reason: 'the page is full (100); nothing can be concluded', count: 11 }]),
    ),
    entry('load.p50', 'not-selected', [{ reason: 'not selected: this run measures no load', count: 1 }]),
  ];
  const selected = judged + unjudged;
  const percent = selected === 0 ? 0 : Math.floor((judged * 1000) / selected) / 10;
  const below = minJudged !== undefined && judged * 100 < minJudged * selected;
  return {
    judged,
    selected,
    percent,
    ...(minJudged === undefined ? {} : { minJudged }),
    ...(below ? { belowMinimum: true as const } : {}),
    rules,
  };
}

t.test('the ledger line: N of M, the percent, the minimum, how many not judged', async (t) => {
  const rows: Array<[string, JudgementLedger, string]> = [
    ['all judged', ledger(3, 0), 'judged 3 of 3 rules (100 %)'],
    ['one not judged', ledger(37, 1), 'judged 37 of 38 rules (97.3 %); 1 not judged'],
    ['at the minimum', ledger(3, 1, 75), 'judged 3 of 4 rules (75 %), at least --min-judged 75 %; 1 not judged'],
    ['below the minimum', ledger(3, 1, 100), 'judged 3 of 4 rules (75 %), below --min-judged 100 %; 1 not judged'],
    ['one rule', ledger(1, 0), 'judged 1 of 1 rule (100 %)'],
  ];
  for (const [name, value, line] of rows) t.equal(ledgerLine(value), line, name);
});

t.test('the one line of --min-judged names the rules not judged, the first few, then how many more', async (t) => {
  const few = minJudgedLine(ledger(3, 2, 100));
  t.equal(
    few,
    'judged 3 of 5 rules (60 %), below --min-judged 100 %; not judged: rule.unjudged-0, rule.unjudged-1 ' +
      "(report.json's judgement says why)",
    'each named',
  );
  const many = minJudgedLine(ledger(0, MAX_NAMED_RULES + 4, 50));
  t.match(many, `rule.unjudged-${MAX_NAMED_RULES - 1} and 4 more`, 'the rest counted');
  t.notMatch(many, `rule.unjudged-${MAX_NAMED_RULES},`, 'not named beyond the first few');
  t.notMatch(many, '\n', 'one line');
});

t.test('reasonsText: each reason with its count, one line', async (t) => {
  t.equal(
    reasonsText(
      entry('r', 'not-judged', [
        { reason: 'a\nb', count: 1 },
        { reason: 'the page is full (100)', count: 11 },
      ]),
    ),
    'a b; the page is full (100) (×11)',
  );
  t.equal(reasonsText(entry('r', 'not-judged')), 'no reason recorded');
});

/** The hostile fixture with a ledger. */
function withLedger(value: JudgementLedger): RunReport {
  return { ...hostileReport(), judgement: value };
}

async function consoleEnd(report: RunReport, quiet: boolean): Promise<string> {
  const stream = Object.assign(new PassThrough(), { isTTY: false });
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  new ConsoleReporter({ stream, color: false, quiet }).onRunEnd(report);
  await new Promise((resolve) => setImmediate(resolve));
  return text;
}

t.test('every reporter shows the ledger: the line, and each rule not judged with why', async (t) => {
  const report = withLedger(ledger(3, 1, 100));
  const line = ledgerLine(ledger(3, 1, 100));
  const full = await consoleEnd(report, false);
  t.match(full, line, 'console: the line');
  t.match(full, 'RULE  rule.unjudged-0 not judged: the page is full (100); nothing can be concluded (×11)', 'console: the rule, why');
  const quiet = await consoleEnd(report, true);
  t.match(quiet, line, 'console --quiet: the line still, with the count not judged');
  t.notMatch(quiet, 'RULE ', 'console --quiet: not the rules');
  const markdown = renderMarkdown(report);
  t.match(markdown, `⚠️ ${line}`, 'markdown: the line, marked when below the minimum');
  t.match(markdown, '| `rule.unjudged-0` | the page is full (100); nothing can be concluded (×11) |', 'markdown: the rule, why');
  const html = renderHtml(report);
  t.match(html, `<h2>Judgement: ${line}</h2>`, 'html: the line');
  t.match(html, '<code>load.p50</code></td><td>not selected</td>', 'html: every rule, the unselected folded in');
  const junit = renderJunit(report, 'HOST');
  t.match(junit, `<property name="judgement" value="${line}"/>`, 'junit: the line');
  t.match(junit, '<property name="notJudged" value="rule.unjudged-0: the page is full (100)', 'junit: the rule, why');
  t.notMatch(junit, 'name="notJudged" value="load.p50', 'junit: a rule not selected is not one not judged');
  t.same(await reportSchemaProblems(JSON.parse(renderJson(report))), [], 'report.json with a ledger keeps to report.schema.json');
  t.notMatch(await consoleEnd(hostileReport(), false), 'judged ', 'a report without a ledger (an older run) shows none');
});
