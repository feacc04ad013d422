import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REGISTRY } from '../../../src/checks/registry.js';
import { PHASES, phaseCases } from '../../../src/engine/phases/index.js';
import { loadCaseInputs } from '../../../src/engine/inputs.js';
import { PACKAGE_FOLDERS } from '../../../tools/matrix/matrix.js';
import { renderCatalogue } from '../../../src/reporters/catalogue.js';
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
