/** `npm run bench -- --against CHECKOUT`: which CLI of another build it runs, and time per request compared across builds. */
import t from 'tap';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BenchUsageError, builtCli, perRequest, renderSideBySide, type RunCost } from '../../../tools/bench/side-by-side.js';
import { tempDir } from '../../helpers.js';

t.test('the CLI of a checkout: dist/src/ first, dist/ in a build from before tools/ moved out; none is one line', async (t) => {
  const rows: Array<[string, string[], string | undefined]> = [
    ['this layout', ['dist/src/cli/main.js'], 'dist/src/cli/main.js'],
    ['the layout before', ['dist/cli/main.js'], 'dist/cli/main.js'],
    ['both', ['dist/cli/main.js', 'dist/src/cli/main.js'], 'dist/src/cli/main.js'],
    ['not built', [], undefined],
  ];
  for (const [name, files, found] of rows) {
    const checkout = await tempDir();
    for (const file of files) {
      await mkdir(path.dirname(path.join(checkout, file)), { recursive: true });
      await writeFile(path.join(checkout, file), '');
    }
    if (found === undefined) {
      const thrown = ((): unknown => {
        try {
          return builtCli(checkout);
        } catch (error) {
          return error;
        }
      })();
      t.ok(thrown instanceof BenchUsageError, `${name}: a usage error (exit 2)`);
      t.match(
        String((thrown as Error).message),
        /^--against .*: no built CLI there \(.*\); run npm ci and npm run build in it$/,
        `${name}: one line`,
      );
    } else t.equal(builtCli(checkout), path.join(checkout, found), name);
  }
});

t.test('time per request: each run by its own count, medians of each build, their ratio and the per-round ratios', async (t) => {
  const run = (wallMs: number, requests: number, inRunMs = wallMs / 2): RunCost => ({ wallMs, inRunMs, requests });
  const rows: Array<[string, RunCost[], RunCost[], { before: number; after: number; ratio: number; roundRatio: number }]> = [
    ['the same', [run(1000, 100)], [run(1000, 100)], { before: 10, after: 10, ratio: 1, roundRatio: 1 }],
    ['more requests in the same time: cheaper', [run(1000, 100)], [run(1000, 200)], { before: 10, after: 5, ratio: 0.5, roundRatio: 0.5 }],
    [
      'medians over rounds, not means',
      [run(1000, 100), run(1100, 100), run(9000, 100)],
      [run(1200, 100), run(1100, 100), run(1000, 100)],
      { before: 11, after: 11, ratio: 1, roundRatio: 1 },
    ],
    ['a run with no request counts as one', [run(10, 0)], [run(20, 0)], { before: 10, after: 20, ratio: 2, roundRatio: 2 }],
  ];
  for (const [name, before, after, expected] of rows)
    t.same(
      perRequest({ before, after }, (r) => r.wallMs),
      expected,
      name,
    );
  const text = renderSideBySide({ before: [run(1000, 100)], after: [run(900, 100)] }, { before: 'old/main.js', after: 'new/main.js' });
  t.match(text, /this build \(new\/main\.js\) against old\/main\.js/, 'names both builds');
  t.match(text, /whole process: before 10\.000 ms, this build 9\.000 ms per request; ratio 0\.90/, 'the whole process per request');
  t.match(text, /checks phase : before 5\.000 ms, this build 4\.500 ms per request; ratio 0\.90/, 'the checks phase per request');
});
