import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { JsonReporter } from '../dist/reporters/json-reporter.js';
import { reportSchemaProblems, tempDir } from './helpers.js';
import { hostileReport, SAMPLE_LOAD } from './report-fixture.js';

t.test('report.json is the report, exactly, and matches its schema', async (t) => {
  const dir = await tempDir();
  await new JsonReporter(dir).onRunEnd(hostileReport());
  const text = await readFile(path.join(dir, 'report.json'), 'utf8');
  const report = JSON.parse(text) as unknown;
  t.same(report, JSON.parse(JSON.stringify(hostileReport())));
  t.same(await reportSchemaProblems(report), []);
  const bytes = await readFile(path.join(dir, 'report.json'));
  t.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), 'valid UTF-8 even with lone surrogates in the input');
});

t.test('the schema accepts a load section and rejects what the format does not have', async (t) => {
  t.same(await reportSchemaProblems({ ...hostileReport(), load: SAMPLE_LOAD }), []);
  const report = hostileReport();
  t.not((await reportSchemaProblems({ ...report, verdict: 'maybe' })).length, 0, 'an unknown verdict');
  t.not((await reportSchemaProblems({ ...report, extra: 1 })).length, 0, 'an unknown top-level field');
  const { counts: _counts, ...withoutCounts } = report;
  t.not((await reportSchemaProblems(withoutCounts)).length, 0, 'missing counts');
  const badCurl = hostileReport();
  (badCurl.cases[0]?.exchanges[0] as { reproduce?: string }).reproduce = 'rm -rf /';
  t.not((await reportSchemaProblems(badCurl)).length, 0, 'a reproduction that is not a curl');
});
