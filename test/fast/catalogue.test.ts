import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REGISTRY } from '../../src/checks/registry.js';
import { PHASES, phaseCases } from '../../src/engine/phases.js';
import { loadCaseInputs } from '../../src/engine/plan.js';
import { PACKAGE_FOLDERS } from '../../src/matrix/matrix.js';
import { renderCatalogue } from '../../src/reporters/catalogue.js';
import { root } from '../helpers.js';

t.test('docs/checks.md matches the registry and the cases (npm run catalogue regenerates it)', async (t) => {
  const inputs = await loadCaseInputs(PACKAGE_FOLDERS, []);
  const onDisk = await readFile(path.join(root, 'docs', 'checks.md'), 'utf8');
  t.equal(renderCatalogue(inputs), onDisk);
  for (const id of [...REGISTRY.keys(), ...phaseCases(inputs).map((c) => c.id)]) t.ok(onDisk.includes(`\`${id}\``), `${id} is listed`);
  for (const phase of PHASES.filter((p) => p.idPattern !== undefined))
    t.ok(onDisk.includes(`\`${phase.idPattern ?? ''}\``), `the ${phase.id} phase's ids are listed`);
});
