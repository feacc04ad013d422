/** A name an option no longer goes by (`--phase`, `phases`) is still read, with one warning naming the new one. */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseFlags } from '../../../src/cli/args.js';
import { deprecatedKeyWarnings, fileValueProblems, settle } from '../../../src/cli/settings.js';
import { loadContract } from '../../../src/loader/contract.js';
import { loadConfig, root, tempDir } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));

t.test('--phase is --case-kind, said once on the warning channel, in every form the flag takes', async (t) => {
  const cases: [string[], string[]][] = [
    [['--phase', 'fuzz'], ['fuzz']],
    [['--phase=fuzz,stateful'], ['fuzz', 'stateful']],
    [
      ['--phase', 'fuzz', '--phase', 'coverage'],
      ['fuzz', 'coverage'],
    ],
  ];
  for (const [args, kinds] of cases) {
    const warnings: string[] = [];
    t.same(parseFlags('run', args, (line) => void warnings.push(line))['case-kind'], kinds, args.join(' '));
    t.same(warnings, ['--phase is deprecated: it is --case-kind now, and will be refused'], `${args.join(' ')}: one warning`);
  }
  const none: string[] = [];
  parseFlags('run', ['--case-kind', 'fuzz'], (line) => void none.push(line));
  t.same(none, [], 'the new name warns of nothing');
});

t.test("the file's phases is caseKinds, with a warning at its place; caseKinds wins when both are given", async (t) => {
  const dir = await tempDir();
  const file = path.join(dir, 'config.yaml');
  await writeFile(file, 'strict: true\nphases: [fuzz]\n');
  const config = fileValueProblems(await loadConfig(file, contract.fileValidator('config.schema.json'), dir)).config;
  t.same(settle('run', {}, {}, config).values['case-kind'], ['fuzz']);
  t.same(deprecatedKeyWarnings(config), [`config.yaml:2:1: phases is deprecated: it is caseKinds now, and will be refused`]);
  await writeFile(file, 'phases: [fuzz]\ncaseKinds: [stateful]\n');
  const both = await loadConfig(file, contract.fileValidator('config.schema.json'), dir);
  t.same(settle('run', {}, {}, both).values['case-kind'], ['stateful']);
});
