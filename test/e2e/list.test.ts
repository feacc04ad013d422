/**
 * `list` and `explain` send nothing: `list` prints every case id a run with the same selection runs (the run's report
 * holds the same ids), `list --json` parses; `explain` prints a check's or a case's clause, what it demands and why.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli, tempDir } from '../helpers.js';

interface Listed {
  count: number;
  cases: Array<{ id: string; suite: string; operation: string; level: string; clause: string }>;
}

t.test('list --json gives the ids a run with the same --check runs', async (t) => {
  const listed = await runCli(['list', '--check', 'listPets.limit.*', '--json']);
  t.equal(listed.code, 0, listed.stderr);
  const list = JSON.parse(listed.stdout) as Listed;
  t.equal(list.count, list.cases.length);
  t.ok(list.count > 0);
  for (const c of list.cases) t.ok(c.suite !== '' && c.operation !== '' && c.clause !== '' && /^(fail|warn)$/.test(c.level), c.id);
  const reports = await tempDir();
  const run = await runCli(['--check', 'listPets.limit.*', '--reporter', 'json', '--report-dir', reports]);
  t.equal(run.code, 0, run.stderr);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as { cases: Array<{ id: string }> };
  t.same(
    list.cases.map((c) => c.id),
    report.cases.map((c) => c.id),
    'the same ids, in the order of the report',
  );
});

t.test('list: every case, one a line, and a count; --suite narrows it; a glob that names nothing is exit 2', async (t) => {
  const all = await runCli(['list']);
  t.equal(all.code, 0, all.stderr);
  const json = JSON.parse((await runCli(['list', '--json'])).stdout) as Listed;
  const lines = all.stdout.trim().split('\n');
  t.match(lines[0], /^case\s+suite\s+operation\s+level\s+clause$/);
  t.match(lines.at(-1), new RegExp(`^${json.count} cases in \\d+ suites; nothing was sent$`));
  t.equal(lines.length, json.count + 2, 'a header, a line a case, the count');
  t.equal(all.stdout.includes('\u0000'), false);
  const auth = JSON.parse((await runCli(['list', '--suite', 'auth', '--json'])).stdout) as Listed;
  t.ok(auth.count > 0 && auth.cases.every((c) => c.suite === 'auth'));
  const none = await runCli(['list', '--check', 'no.such.case.*']);
  t.equal(none.code, 2);
  t.equal(none.stderr.trim().split('\n').length, 1);
});

t.test('explain: a check, a case, and an unknown id with the closest', async (t) => {
  const check = await runCli(['explain', 'errors.error-body']);
  t.equal(check.code, 0, check.stderr);
  t.match(check.stdout, /^errors\.error-body: /);
  t.match(check.stdout, /\n {2}why: {5}\S/);
  t.match(check.stdout, /docs[/\\]checks\.md/);
  t.ok(
    check.stdout
      .split('\n')
      .some((line) => line.includes(`${path.sep}docs${path.sep}checks.md`) && path.isAbsolute(line.split(/:\s+/)[1]?.split(' ')[0] ?? '')),
    'a full path',
  );
  const listed = JSON.parse((await runCli(['list', '--check', 'listPets.limit.default', '--json'])).stdout) as Listed;
  t.equal(listed.count, 1);
  const one = await runCli(['explain', 'listPets.limit.default']);
  t.equal(one.code, 0, one.stderr);
  t.match(one.stdout, /run it: {2}petstore-conformance run --check 'listPets\.limit\.default'/);
  const unknown = await runCli(['explain', 'errors.error-bdy']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /no check or case 'errors\.error-bdy' \(did you mean errors\.error-body\?\)/);
});
