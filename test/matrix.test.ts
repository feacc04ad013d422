import t from 'tap';
import path from 'node:path';
import { EXCHANGE_CHECKS } from '../src/checks/exchange-checks.js';
import { CREATED_PET_CHECKS } from '../src/engine/created-pets.js';
import { loadRunInputs } from '../src/engine/run.js';
import { runMatrix } from '../src/matrix/matrix.js';
import { VARIANTS } from '../src/server/variants.js';
import { root } from './helpers.js';

t.test('the suite tells every broken variant from every conformant one', async (t) => {
  const broken = VARIANTS.filter((v) => v.verdict === 'broken');
  const conformant = VARIANTS.filter((v) => v.verdict === 'conformant');
  t.ok(broken.length >= 40, `${broken.length} broken variants`);
  t.ok(conformant.length >= 10, `${conformant.length} conformant variants`);
  t.equal(new Set(VARIANTS.map((v) => v.name)).size, VARIANTS.length, 'variant names are unique');

  const rows = await runMatrix(VARIANTS, 4);
  for (const row of rows) {
    if (row.expected === 'broken') t.equal(row.exitCode, 1, `${row.variant} exits 1`);
    else t.equal(row.exitCode, 0, `${row.variant} exits 0`);
    t.ok(row.correct, `${row.variant}: ${row.problem ?? 'told apart'}`);
  }

  const inputs = await loadRunInputs(
    { schemasDir: path.join(root, 'schemas'), scenarioDirs: [path.join(root, 'scenarios')], suitesDir: path.join(root, 'suites'), displayRoot: root },
    [],
  );
  const provoked = new Set(rows.flatMap((r) => [...(r.expected === 'broken' ? r.failed : []), ...r.warned]));
  const catalogue = [...inputs.checks.map((c) => c.id), ...CREATED_PET_CHECKS.map((c) => c.id), ...EXCHANGE_CHECKS.map((c) => c.id)];
  for (const id of catalogue) t.ok(provoked.has(id), `some variant makes ${id} fail or warn`);
  for (const variant of VARIANTS) for (const id of [...variant.caughtBy, ...(variant.warnedBy ?? [])]) t.ok(catalogue.includes(id) || !id.includes('.'), `${variant.name} names a real check: ${id}`);
});
