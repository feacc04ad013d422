import t from 'tap';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileReporter } from '../dist/reporters/file-reporter.js';
import { HtmlReporter } from '../dist/reporters/html-reporter.js';
import { JsonReporter } from '../dist/reporters/json-reporter.js';
import { JunitReporter } from '../dist/reporters/junit-reporter.js';
import { MarkdownReporter } from '../dist/reporters/markdown-reporter.js';
import { ReporterFanOut, type Reporter } from '../dist/reporters/reporter.js';
import { tempDir } from './helpers.js';
import { hostileReport } from './report-fixture.js';

const throwing: Reporter = {
  name: 'broken',
  onRunStart() {
    throw new Error('cannot start');
  },
  onRunEnd() {
    throw new Error('never called: the reporter is already out');
  },
};

t.test('a reporter that throws loses nothing of the others', async (t) => {
  const dir = await tempDir();
  const fanOut = new ReporterFanOut([throwing, new JsonReporter(dir), new JunitReporter(dir), new HtmlReporter(dir), new MarkdownReporter(dir, ['report.json'])]);
  const report = hostileReport();
  await fanOut.onRunStart(report.meta, report.cases);
  for (const result of report.cases) fanOut.onCaseEnd(result);
  await fanOut.onRunEnd(report);
  t.same(fanOut.failures, [{ reporter: 'broken', event: 'onRunStart', message: 'cannot start' }]);
  t.same((await readdir(dir)).sort(), ['junit.xml', 'report.html', 'report.json', 'summary.md']);
  t.same(fanOut.files.map((f) => path.basename(f)), ['report.json', 'junit.xml', 'report.html', 'summary.md']);
});

t.test('a render that throws leaves the earlier file whole and no temporary file behind', async (t) => {
  const dir = await tempDir();
  const file = path.join(dir, 'report.html');
  await writeFile(file, 'the report of last night');
  const reporter = new FileReporter('html', file, () => {
    throw new Error('render failed');
  });
  await t.rejects(reporter.onRunEnd(hostileReport()), /render failed/);
  t.equal(await readFile(file, 'utf8'), 'the report of last night');
  t.same(await readdir(dir), ['report.html']);
  t.same(reporter.files, []);
});

t.test('a file that cannot be replaced fails that reporter alone', async (t) => {
  const dir = await tempDir();
  await mkdir(path.join(dir, 'junit.xml'));
  const fanOut = new ReporterFanOut([new JunitReporter(dir), new JsonReporter(dir)]);
  await fanOut.onRunEnd(hostileReport());
  t.equal(fanOut.failures.length, 1);
  t.equal(fanOut.failures[0]?.reporter, 'junit');
  t.same((await readdir(dir)).sort(), ['junit.xml', 'report.json'], 'no temporary file left');
});
