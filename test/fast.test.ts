/**
 * The fast tier (npm run test:fast): every file under test/unit/, unit and component tests, in this one process. Together they
 * load tap, the TypeScript loader and the source once, where each file of its own spends a second of CPU on that alone
 * before its first test. test/unit/ mirrors src/: test/unit/<folder>/<name>.test.ts tests src/<folder>/<name>.ts, and
 * test/unit/project/ the repository itself. Each file still runs alone (npx tap test/unit/FOLDER/NAME.test.ts); none waits on
 * the real clock for more than a bound it sets, and none starts a process of the CLI: those are the slow tier's (test/slow/).
 */
import { checkoutReports, guardCheckoutReports } from './helpers.js';
import { unitFiles } from './slow-files.js';

const before = await checkoutReports();
for (const file of await unitFiles()) await import(file);
guardCheckoutReports(before);
