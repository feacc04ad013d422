import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REGISTRY } from '../../../src/checks/registry.js';
import { PHASES, phaseCases } from '../../../src/engine/phases/index.js';
import { loadCaseInputs } from '../../../src/engine/inputs.js';
import { PACKAGE_FOLDERS } from '../../../tools/matrix/matrix.js';
import { cell, MAX_CELL_CHARACTERS, renderCatalogue } from '../../../src/cli/catalogue.js';
import { SERVED_VARIANTS } from '../../../src/server/variants.js';
import { commandHelp } from '../../../src/cli/args.js';
import { root, runCli } from '../../helpers.js';

t.test('docs/checks.md matches the registry and the cases (npm run catalogue regenerates it)', async (t) => {
  const inputs = await loadCaseInputs(PACKAGE_FOLDERS, []);
  const onDisk = await readFile(path.join(root, 'docs', 'checks.md'), 'utf8');
  t.equal(renderCatalogue(inputs), onDisk);
  for (const id of [...REGISTRY.keys(), ...phaseCases(inputs).map((c) => c.id)]) t.ok(onDisk.includes(`\`${id}\``), `${id} is listed`);
  for (const phase of PHASES.filter((p) => p.idPattern !== undefined))
    t.ok(onDisk.includes(`\`${phase.idPattern ?? ''}\``), `the ${phase.id} phase's ids are listed`);
});

t.test('the catalogue lists every variant serve --variant takes, with what it does; an unknown one gets one short line', async (t) => {
  const onDisk = await readFile(path.join(root, 'docs', 'checks.md'), 'utf8');
  for (const variant of SERVED_VARIANTS) t.ok(onDisk.includes(`| \`${variant.name}\` |`), `${variant.name} is listed`);
  t.match(commandHelp('serve'), /petstore-conformance catalogue lists them/, 'serve --help says where they are');
  const result = await runCli(['serve', '--variant', 'intermitent-500']);
  t.equal(result.code, 2);
  t.equal(
    result.stderr,
    `petstore-conformance: unknown variant 'intermitent-500' (did you mean intermittent-500?); \`petstore-conformance catalogue\` lists the ${SERVED_VARIANTS.length} variants, with what each does\n`,
  );
});

t.test('docs/checks.md is readable: under 200 KB, no control character but line feed and tab, no line a screen cannot hold', async (t) => {
  const bytes = await readFile(path.join(root, 'docs', 'checks.md'));
  t.ok(bytes.length < 200 * 1024, `${bytes.length} bytes`);
  const text = bytes.toString('utf8');
  const control = [...text].filter((c) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(c));
  t.same(control, [], 'no raw control character (C0 but LF and TAB, DEL, C1)');
  const longest = Math.max(...text.split('\n').map((line) => line.length));
  t.ok(longest < 2_000, `the longest line has ${longest} characters`);
});

t.test('a catalogue cell: escaped, one line, cut to a readable length, and its code never closed early', async (t) => {
  const rows: Array<[string, string, string]> = [
    ['plain text stays', 'GET /pets?limit=20', 'GET /pets?limit=20'],
    ['NUL, DEL and a C1 control are escaped', 'a\u0000b\u007fc\u0085d', 'a\\u0000b\\u007fc\\u0085d'],
    ['a line break and a tab are a space', 'one\n\ttwo', 'one two'],
    ['a pipe would end the cell', 'a|b', 'a\\|b'],
    ['a backtick would end the code', 'a`b', "a'b"],
    ['a line separator is escaped', 'a\u2028b', 'a\\u2028b'],
  ];
  for (const [name, given, want] of rows) t.equal(cell(given), want, name);
  const huge = cell(`body {"name":"${'x'.repeat(1_048_576)}"}`);
  t.ok(huge.length < MAX_CELL_CHARACTERS + 40, `a 1 MiB value is cut (${huge.length} characters)`);
  t.match(huge, /… \(1048592 characters\)$/, 'and says how long it was');
});
