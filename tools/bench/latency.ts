/**
 * `npm run bench:latency`: the whole functional run against a distant service: the reference server in this process,
 * every answer held back by a fixed delay (a staging in another region), the CLI run against it at each concurrency;
 * wall time from process start to exit, medians of interleaved rounds, and the requests in flight on average.
 *
 *   npm run bench:latency -- --delay 100 --concurrency 4,8 --runs 3
 */
import { parseArgs } from 'node:util';
import { DEVELOPMENT_API_KEY, startReferenceServer } from '../../src/server/reference-server.js';
import { cliOnce, median } from './bench-tools.js';

const { values } = parseArgs({
  options: {
    delay: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '4,8' },
    runs: { type: 'string', default: process.env['BENCH_RUNS'] ?? '3' },
    seed: { type: 'string', default: '1' },
  },
});
const delayMs = Number(values.delay);
const levels = values.concurrency.split(',').map(Number);
const runs = Number(values.runs);
if (!(delayMs >= 0) || levels.some((n) => !(n >= 1)) || !(runs >= 1))
  throw new Error('usage: npm run bench:latency -- [--delay MS] [--concurrency N,N] [--runs N] [--seed N]');

/** One CLI run against `baseUrl`: wall time, and what its report counted. */
async function run(baseUrl: string, concurrency: number): Promise<{ wallMs: number; requests: number; verdict: string }> {
  const args = ['run', '--quiet', '--reporter', 'json', '--base-url', baseUrl, '--concurrency', String(concurrency), '--seed', values.seed];
  const { code, wallMs, stderr, report } = await cliOnce(args, DEVELOPMENT_API_KEY);
  if (code !== 0 || report === undefined) throw new Error(`the run at --concurrency ${concurrency} exited ${String(code)}: ${stderr}`);
  return { wallMs, requests: report.requests, verdict: report.verdict };
}

// One fresh store per round: each run adds its pets, and a store that grew would make later runs list more.
const walls = new Map<number, number[]>(levels.map((n) => [n, []]));
const counts = new Map<number, number[]>(levels.map((n) => [n, []]));
for (let round = 0; round < runs; round++) {
  for (const concurrency of levels) {
    const server = await startReferenceServer({
      apiKey: DEVELOPMENT_API_KEY,
      wrap: (next) => async (request) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return next(request);
      },
    });
    try {
      const { wallMs, requests } = await run(server.baseUrl, concurrency);
      walls.get(concurrency)?.push(wallMs);
      counts.get(concurrency)?.push(requests);
    } finally {
      await server.close();
    }
  }
}
const lines = [`functional run, every answer ${delayMs} ms late, --seed ${values.seed}, ${runs} interleaved rounds:`];
for (const concurrency of levels) {
  const wall = median(walls.get(concurrency) ?? []);
  const requests = median(counts.get(concurrency) ?? []);
  const all = walls.get(concurrency) ?? [];
  lines.push(
    `  --concurrency ${concurrency}: median ${(wall / 1000).toFixed(2)} s (min ${(Math.min(...all) / 1000).toFixed(2)}, max ${(Math.max(...all) / 1000).toFixed(2)}) for ${requests} requests; ${delayMs > 0 ? ((requests * delayMs) / wall).toFixed(1) : '-'} in flight on average`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
