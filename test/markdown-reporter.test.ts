import t from 'tap';
import { escapeMarkdown, renderMarkdown } from '../dist/reporters/markdown-reporter.js';
import { hostileReport } from './report-fixture.js';

t.test('verdict, counts, failing checks with one-line reasons, links to the other files', async (t) => {
  const md = renderMarkdown(hostileReport(), ['report.json', 'junit.xml', 'report.html']);
  t.match(md, /^## ❌ FAILED: 1 of 5 cases failed · Pet Store conformance\n/);
  t.match(md, '| passed | failed | warned | errored | skipped |\n| ---: | ---: | ---: | ---: | ---: |\n| 1 | 1 | 1 | 1 | 1 |');
  t.match(md, /### Failing cases \(1\)\n\n\| case \| reason \|\n\| --- \| --- \|\n\| `contract\.fails` \| status: &lt;script&gt;/);
  t.match(md, /### Cases that could not be tested \(1\)[\s\S]*`contract\.errors` \| step 1: connect ECONNREFUSED/);
  t.match(md, /### Warnings \(1\)/);
  t.match(md, "getPet is removed in 1475 days (2030-12-05, by the suite's clock)");
  t.match(md, 'Reports: [report.json](report.json) · [junit.xml](junit.xml) · [report.html](report.html)');
});

t.test('server text cannot break the table, add markup or links', async (t) => {
  const md = renderMarkdown(hostileReport());
  t.notMatch(md, /<script/i);
  // eslint-disable-next-line no-control-regex
  t.notMatch(md, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028]/, 'no control characters, one line per row');
  for (const row of md.split('\n').filter((l) => l.startsWith('| `'))) {
    t.equal(row.replace(/\\\|/g, '').split('|').length, 4, 'two cells in each row');
  }
  t.equal(escapeMarkdown('a|b*c_[x](y)`z`<i>&'), 'a\\|b\\*c\\_\\[x\\](y)\\`z\\`&lt;i&gt;&amp;');
  t.ok(escapeMarkdown('x'.repeat(1000)).length <= 200, 'a reason is one bounded line');
});

t.test('a passed run says so', async (t) => {
  const report = { ...hostileReport(), verdict: 'passed' as const, counts: { passed: 1, failed: 0, warned: 0, errored: 0, skipped: 0 } };
  report.cases = report.cases.filter((c) => c.outcome === 'passed');
  const md = renderMarkdown(report);
  t.match(md, /^## ✅ PASSED: 1 case\b/);
  t.notMatch(md, /###/);
});
