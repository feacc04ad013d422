import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadRunInputs } from '../src/engine/run.js';
import { renderCatalogue } from '../src/reporters/catalogue.js';
import { root } from './helpers.js';

t.test('docs/checks.md matches the registered checks (npm run catalogue regenerates it)', async (t) => {
  const inputs = await loadRunInputs(
    { schemasDir: path.join(root, 'schemas'), scenarioDirs: [path.join(root, 'scenarios')], suitesDir: path.join(root, 'suites'), displayRoot: root },
    [],
  );
  const onDisk = await readFile(path.join(root, 'docs', 'checks.md'), 'utf8');
  t.equal(renderCatalogue(inputs.checks), onDisk);
  for (const check of inputs.checks) t.ok(onDisk.includes(`\`${check.id}\``), `${check.id} is listed`);
});
