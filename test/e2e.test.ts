/**
 * Whole runs in process (test/e2e/): the CLI's command or the engine against a server on 127.0.0.1 (the reference store, a
 * variant, a hostile one), for what only a whole run shows: exit codes, reports, redaction, the console. A process of its own
 * beside the fast tier and the slow tier's, in this one process for the reason test/slow-load.test.ts gives; each file still
 * runs alone (npx tap test/e2e/NAME.test.ts). Real processes of the CLI are the slow tier's (test/slow/).
 */
import { checkoutReports, guardCheckoutReports } from './helpers.js';
import { e2eFiles } from './slow-files.js';

const before = await checkoutReports();
for (const file of await e2eFiles()) await import(file);
guardCheckoutReports(before);
