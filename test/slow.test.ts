/**
 * The rest of the slow tier (end-to-end tests of the CLI, its packaging, CI templates and deployment, real servers'
 * stores), in this one process, for the reason test/slow-load.test.ts gives; the typecheck runs beside them, in a file
 * of its own (test/slow/typecheck.test.ts), its compiler a process of its own.
 */
import { checkoutReports, guardCheckoutReports } from './helpers.js';
import { slowFiles } from './slow-files.js';

const before = await checkoutReports();
for (const file of await slowFiles('other')) await import(file);
guardCheckoutReports(before);
