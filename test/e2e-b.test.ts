/**
 * Whole runs in process (test/e2e/): the CLI's command or the engine against a server on 127.0.0.1 (the reference store, a
 * variant, a hostile one), for what only a whole run shows: exit codes, reports, redaction, the console. test/e2e/'s files
 * are shared by their measured time (slow-files.ts) between two processes, test/e2e-a.test.ts and this one: their runs wait on servers as
 * much as they compute, and two overlap those waits. Each file still runs alone (npx tap test/e2e/NAME.test.ts); real
 * processes of the CLI are the slow tier's (test/slow/).
 */
import { checkoutReports, guardCheckoutReports } from './helpers.js';
import { e2eFiles } from './slow-files.js';

const before = await checkoutReports();
for (const file of await e2eFiles(1)) await import(file);
guardCheckoutReports(before);
