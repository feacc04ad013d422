/**
 * A team's own cases and suites, from a folder outside the package: docs/scenarios.md's example runs as written (a folder, the file
 * itself, or the configuration's `scenarios`), and its mistakes are refused at file:line:col before anything is sent.
 */
import t from 'tap';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { runCli, tempDir, writeReadmeTeamExample } from '../helpers.js';

const KEY = 'team-scenarios-key-81c2';
const server = await startReferenceServer({ apiKey: KEY });
t.teardown(() => server.close());

t.test("docs/scenarios.md's two cases, in a new suite defined beside them, run from a folder outside the package", async (t) => {
  const dir = await tempDir();
  const folder = await writeReadmeTeamExample(dir);
  const config = path.join(dir, 'team.yaml');
  await writeFile(config, 'scenarios: [team-checks]\nsuites: [team]\n');
  const ways: Array<[what: string, args: string[]]> = [
    ['the folder', ['--scenarios', folder, '--suite', 'team']],
    ['the file, its suites/ beside it', ['--scenarios', path.join(folder, 'pets.yaml'), '--suite', 'team']],
    ["the configuration's scenarios, relative to it", ['--config', config]],
  ];
  for (const [what, args] of ways) {
    const reports = await tempDir();
    const result = await runCli(['run', '--base-url', server.baseUrl, ...args, '--report-dir', reports], { PETSTORE_API_KEY: KEY });
    t.equal(result.code, 0, `${what}: exit 0 (${result.stderr})`);
    t.match(result.stdout, /2 cases in team\n/, `${what}: the suite and its two cases`);
    t.match(result.stdout, /2 passed, 0 failed/, what);
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport;
    t.same(
      report.cases.map((c) => [c.id, c.suite, c.outcome, path.basename(c.source?.file ?? '')]),
      [
        ['team.listPets.three', 'team', 'passed', 'pets.yaml'],
        ['team.createPet.reads-back', 'team', 'passed', 'pets.yaml'],
      ],
      `${what}: both judged, each traced to the team's file`,
    );
  }
  const all = await runCli(['run', '--base-url', server.baseUrl, '--scenarios', folder, '--report-dir', await tempDir()], {
    PETSTORE_API_KEY: KEY,
  });
  t.equal(all.code, 0, 'without --suite, the team suite runs beside every shipped one');
  t.match(all.stdout, /✓ team +2 passed/);
});

t.test("a team's mistakes: each at file:line:col (or one line), exit 2, nothing sent", async (t) => {
  const dir = await tempDir();
  const folder = await writeReadmeTeamExample(dir);
  const pets = await readFile(path.join(folder, 'pets.yaml'), 'utf8');
  const write = async (name: string, text: string): Promise<string> => {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    return file;
  };
  const noClause = await write('no-clause/pets.yaml', pets.replace(/^ {4}clause: .*\n/m, ''));
  const typo = await write('typo/pets.yaml', pets.replace('suite: team ', 'suite: teem '));
  await write('typo/suites/team.yaml', 'name: team\ntitle: t\ndescription: d\n');
  const twice = await write('twice/suites/auth.yaml', 'name: auth\ntitle: t\ndescription: d\n');
  await write('twice/pets.yaml', pets.replace('suite: team ', 'suite: auth '));
  const onlySuites = await write('only-suites/suites/team.yaml', 'name: team\ntitle: t\ndescription: d\n');
  const rows: Array<[what: string, scenarios: string, message: string | RegExp]> = [
    ['a case without a clause', noClause, /no-clause\/pets\.yaml:3:5: \/cases\/0: must have required property 'clause'/],
    [
      'a suite no folder defines',
      typo,
      /typo\/pets\.yaml:1:8: unknown suite 'teem' \(did you mean team\?\): define it in .*typo\/suites\/ \(a YAML file with name, title and description/,
    ],
    [
      'a suite the package defines already',
      path.dirname(path.dirname(twice)),
      /twice\/suites\/auth\.yaml:1:7: suite 'auth' is already defined in suites\/auth\.yaml/,
    ],
    ['a path that is not there', path.join(dir, 'nowhere'), /^petstore-conformance: scenarios .*nowhere: no such file or folder/],
    [
      'a folder with suites but no scenario files',
      path.dirname(path.dirname(onlySuites)),
      /only-suites: no scenario files \(\*\.yaml, \*\.yml\) in this folder$/m,
    ],
  ];
  for (const [what, scenarios, message] of rows) {
    const result = await runCli(['run', '--scenarios', scenarios, '--report-dir', await tempDir()]);
    t.equal(result.code, 2, `${what}: exit 2`);
    t.match(result.stderr, message, what);
    t.equal(result.stdout, '', `${what}: nothing ran`);
  }
  const once = await runCli(['run', '--scenarios', typo, '--report-dir', await tempDir()]);
  t.equal(once.stderr.split('unknown suite').length - 1, 1, "the file's suite is told once, not once per case");
});
