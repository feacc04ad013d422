/**
 * The fast tier (npm run test:fast): every file of test/fast/, unit and component tests, in this one process. Together they
 * load tap, the TypeScript loader and the source once, where each file of its own spends a second of CPU on that alone
 * before its first test. Each file still runs alone (npx tap test/fast/NAME.test.ts); none waits on the real clock for
 * more than a bound it sets, and none starts a process of the CLI: those are the slow tier's (test/slow/).
 */
import { readdir } from 'node:fs/promises';
import { checkoutReports, guardCheckoutReports } from './helpers.js';

const folder = new URL('./fast/', import.meta.url);
const before = await checkoutReports();
for (const name of (await readdir(folder)).filter((file) => file.endsWith('.test.ts')).sort()) await import(new URL(name, folder).href);
guardCheckoutReports(before);
