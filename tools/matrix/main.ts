/** `npm run matrix`: prints the verdict matrix; exits 1 unless every variant was told apart. */
import { VARIANTS } from '../../src/server/variants.js';
import { matrixRates, renderMatrix, runMatrix } from './matrix.js';

const started = performance.now();
const only = process.argv.slice(2);
const rows = await runMatrix(only.length > 0 ? VARIANTS.filter((v) => only.includes(v.name)) : VARIANTS);
process.stdout.write(`${renderMatrix(rows)}\n(${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
const rates = matrixRates(rows);
process.exitCode = rates.caught === rates.broken && rates.passed === rates.conformant ? 0 : 1;
