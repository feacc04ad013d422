/**
 * The slow tier's load tests (test/slow/load-*.test.ts), in this one process: a process of their own each spent about
 * a second and a half of CPU on tap, the TypeScript loader and the source before its first test. They run one after
 * another, as they did inside each file; each file still runs alone (npx tap --before=test/build-dist.ts test/slow/NAME.test.ts).
 */
import { checkoutReports, guardCheckoutReports } from './helpers.js';
import { slowFiles } from './slow-files.js';

const before = await checkoutReports();
for (const file of await slowFiles('load')) await import(file);
guardCheckoutReports(before);
