/**
 * The rest of the slow tier (the CLI as real processes, its packaging, deployment, Prometheus, real servers' stores, a browser), in
 * this one process, for the reason test/slow-load.test.ts gives; the matrix (test/matrix.test.ts) and the CI templates
 * (slow-files.ts: OWN_PROCESS) run beside them, each a process of its own, whose runs and builds take a budget of their own.
 */
import { checkoutReports, guardCheckoutReports } from './helpers.js';
import { slowFiles } from './slow-files.js';

const before = await checkoutReports();
for (const file of await slowFiles('other')) await import(file);
guardCheckoutReports(before);
