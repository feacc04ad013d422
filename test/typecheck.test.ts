/**
 * The sources, the tests and the benches typecheck (npm run typecheck: tsc -b tsconfig.test.json). The tests run on swc,
 * which only strips the types; checking them is a test of its own, so that the compiler's seconds run beside the other
 * tests rather than before them all. The compiler keeps what it checked (typecheck.tsbuildinfo): in build mode, a check
 * when no file changed since the last one is a second, not five.
 */
import t from 'tap';
import { createRequire } from 'node:module';
import { spawnNode } from './helpers.js';

t.test('tsc -b tsconfig.test.json finds no error', async (t) => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const checked = await spawnNode([tsc, '-b', 'tsconfig.test.json', '--pretty', 'false'], {}, 240_000);
  t.equal(`${checked.stdout}${checked.stderr}`, '', 'no diagnostic');
  t.equal(checked.code, 0, 'tsc exits 0');
});
