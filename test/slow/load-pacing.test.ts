/**
 * The load honours the server's pacing: a store that answers every 97th request 429 with `Retry-After: 1` and closes idle
 * keep-alive connections at 300 ms passes the release gate (nightly, shortened to 6 s after a 1 s warm-up): its 429s
 * are counted apart (load.rate-limited), never as non-2xx or errors, and each pauses its own connection. At most 1,400
 * requests, 7 s of load.
 */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadReport } from '../../src/model/load.js';
import type { RunReport } from '../../src/model/results.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { RATE_LIMITED_EVERY, RATE_LIMITED_KEEP_ALIVE_MS, withLoadFaults } from '../fixtures/load-faults.js';
import { root, runCli, tempDir } from '../helpers.js';

const KEY = 'pacing-key-4d1a7c';

/**
 * The shipped nightly profile shortened to `duration` s after a 1 s warm-up (its pressure step the last quarter of them),
 * with `extra` thresholds.
 */
async function shortNightly(duration: number, extra = ''): Promise<string> {
  const shipped = await readFile(path.join(root, 'scenarios', 'load', 'nightly.yaml'), 'utf8');
  const text = shipped
    .replace(/^duration: \d+$/m, `duration: ${duration}`)
    .replace(/^warmup: \d+$/m, 'warmup: 1')
    .replace(/^pressure: \{ connections: (\d+), duration: \d+ \}/m, `pressure: { connections: $1, duration: ${duration / 4} }`)
    .replace(/^timeout: \d+$/m, `timeout: ${Math.min(5, duration)}`)
    .replace(/^thresholds:$/m, `thresholds:\n${extra}`);
  const file = path.join(await tempDir(), 'nightly.yaml');
  await writeFile(file, text);
  return file;
}

async function loadRateLimited(
  profile: string,
): Promise<{ code: number | null; stdout: string; report: RunReport & { load: LoadReport } }> {
  const server = await startReferenceServer({ apiKey: KEY, wrap: withLoadFaults(['load-rate-limited']) });
  server.server.keepAliveTimeout = RATE_LIMITED_KEEP_ALIVE_MS;
  try {
    const reports = await tempDir();
    const result = await runCli(['load', profile, '--base-url', server.baseUrl, '--report-dir', reports], { PETSTORE_API_KEY: KEY });
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as RunReport & { load: LoadReport };
    return { code: result.code, stdout: result.stdout, report };
  } finally {
    await server.close();
  }
}

function outcomes(report: RunReport): Record<string, string> {
  return Object.fromEntries((report.cases.find((c) => c.suite === 'load')?.checks ?? []).map((c) => [c.id, c.outcome]));
}

t.test(`a store that answers every ${RATE_LIMITED_EVERY}th request 429 with Retry-After: 1 passes the release gate`, async (t) => {
  const { code, stdout, report } = await loadRateLimited(await shortNightly(6));
  const m = report.load.metrics;
  t.equal(code, 0, stdout);
  t.ok(m.rateLimited >= 5, `${m.rateLimited} answers 429 of ${m.responses}`);
  t.equal(m.non2xx, 0, 'a 429 is not a non-2xx answer');
  t.equal(m.errors, 0, `no error (${JSON.stringify(m.errorCauses)})`);
  t.equal(m.resets, 0, 'no reset: an idle close is a connection retry');
  t.equal(m.statusCodes['429'], m.rateLimited, 'the status codes show them');
  const checks = outcomes(report);
  for (const id of ['load.non2xx', 'load.errors', 'load.resets', 'load.rps', 'load.p99', 'load.pressure'])
    t.equal(checks[id], 'passed', `${id}: ${JSON.stringify(checks)}`);
  t.equal(checks['load.rate-limited'], undefined, 'nightly does not bound them: no check judged them');
  t.match(stdout, `  rate-limited: ${m.rateLimited} answers 429 or 503`);
  t.comment(
    `nightly 6 s: ${m.requests} requests, ${m.rateLimited} rate-limited, ${m.connectionRetries} connection retries, ${m.rps} responses/s`,
  );
});

t.test('a profile may bound them: load.rate-limited fails past its bound, and says how many', async (t) => {
  const { code, report } = await loadRateLimited(await shortNightly(2, '  rateLimited: { max: 0 }'));
  const m = report.load.metrics;
  t.equal(code, 1);
  const check = report.cases.find((c) => c.suite === 'load')?.checks.find((c) => c.id === 'load.rate-limited');
  t.equal(check?.outcome, 'failed');
  t.match(check?.message, new RegExp(`^${m.rateLimited} rate-limited answers \\(429, 503\\) \\(at most 0 allowed\\)`));
  t.equal(outcomes(report)['load.non2xx'], 'passed');
});
