import t from 'tap';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadContract } from '../../src/loader/contract.js';
import { loadProfile } from '../../src/loader/load-profiles.js';
import { stageBreaks } from '../../src/checks/judge.js';
import { refuseProductionLoad } from '../../src/loader/config.js';
import { buildLoadReport } from '../../src/engine/load-report.js';
import { executeLoad } from '../../src/load/load-run.js';
import { loadCaseResult } from '../../src/engine/phases/load.js';
import { metricsOf } from '../load-fixtures.js';
import { DEFAULT_HTTP_OPTIONS } from '../../src/http/client.js';
import { openClient } from '../../src/http/open-client.js';
import { RunError } from '../../src/model/errors.js';
import { withLoadFaults, type LoadFault } from '../fixtures/load-faults.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { root, tempDir } from '../helpers.js';

const KEY = 'load-run-key-5a8e21';
const schemasDir = path.join(root, 'schemas');
const validateProfile = (await loadContract(schemasDir)).fileValidator('load-profile.schema.json');

async function profileFrom(text: string) {
  const file = path.join(await tempDir(), 'ramp.yaml');
  await writeFile(file, text);
  return loadProfile(file, validateProfile, root);
}

/**
 * A ramp of 1 s stages from 2/s, `step` at a time, to `to`. A stage holds at 90 % of its rate, so a stall of the process
 * near its end costs it the stage: at 2/s and 12/s a quarter of a second is spared (at 65/s, a tenth), and the slowest
 * answers (250 ms) still leave three quarters of one at 2/s. Latency is not what these tests judge: its bound is loose.
 */
const rampTo = (to: number, step: number): string => `title: ramp test
connections: 4
ramp: { from: 2, to: ${to}, step: ${step}, stageDuration: 1, require: 2 }
duration: 5
maxRequests: 3000
warmup: 0.3
timeout: 1
queries: [{ weight: 1 }]
thresholds:
  p99: { max: 5000 }
`;
const ramp = rampTo(62, 30);

/** Runs the ramp against the reference server with faults, and judges it as the engine does. */
async function rampAgainst(faults: LoadFault[], text = ramp) {
  const server = await startReferenceServer({ apiKey: KEY, wrap: withLoadFaults(faults) });
  try {
    const profile = await profileFrom(text);
    const http = { ...DEFAULT_HTTP_OPTIONS, baseUrl: server.baseUrl, apiKey: KEY };
    const stages = await executeLoad({
      profile,
      http,
      open: () => openClient({ ...http, connections: 1 }),
      contract: await loadContract(schemasDir),
      breaks: (stage) => stageBreaks(profile, stage),
    });
    const report = buildLoadReport(profile, server.baseUrl, stages, 1);
    return { report, result: loadCaseResult(report, new Map(), 0) };
  } finally {
    await server.close();
  }
}

// The two ramps mostly wait (32 requests a second at most): side by side, they take the time of one.
t.jobs = 2;

t.test('a ramp stops at the first stage that breaks a bound and reports the highest rate that held', async (t) => {
  const slow = await rampAgainst(['load-slow']);
  t.equal(slow.report.highestRateHeld, 2, 'four connections waiting 250 ms each cannot reach 32/s');
  t.same(
    slow.report.stages.map((s) => s.rate),
    [2, 32],
    'the ramp stopped at the first breach',
  );
  t.same(slow.report.stages.at(-1)?.breached, ['rps'], 'the 32/s stage did not reach its rate');
  t.ok(
    // Neither the trend (stages too short) nor listing-complete (no pet known) is judged here.
    slow.result.checks.filter((c) => c.id !== 'load.trend' && c.id !== 'load.listing-complete').every((c) => c.outcome === 'passed'),
    'the rate the profile requires (2/s) held',
  );
  t.equal(slow.result.checks.find((c) => c.id === 'load.trend')?.outcome, 'not-judged', 'a stage of a ramp is too short for a trend');
  t.match(slow.result.checks.find((c) => c.id === 'load.capacity')?.message, /the highest rate that held is 2\/s; 32\/s broke rps/);
});

t.test('a ramp that holds every stage reports the last rate', async (t) => {
  const fine = await rampAgainst([], rampTo(12, 10));
  t.same(
    fine.report.stages.map((s) => s.rate),
    [2, 12],
  );
  t.equal(fine.report.highestRateHeld, 12);
  t.ok(fine.report.stages.every((s) => s.breached.length === 0));
  t.ok(fine.report.metrics.requests <= 3000);
});

t.test('production is matched by origin and path prefix (the plan applies the rule, once)', async (t) => {
  const profile = await profileFrom(`${ramp}production: ["https://api.example.com/v1"]\n`);
  const refuseProduction = (p: typeof profile, baseUrl: string, allowed: boolean) =>
    refuseProductionLoad(baseUrl, p.production, p.file, allowed);
  t.throws(() => refuseProduction(profile, 'https://api.example.com/v1', false), RunError);
  t.doesNotThrow(() => refuseProduction(profile, 'https://api.example.com/v1', true));
  t.doesNotThrow(() => refuseProduction(profile, 'https://staging.example.com/v1', false));
  t.doesNotThrow(() => refuseProduction(profile, 'https://api.example.com/v10', false));
});

t.test('a ramp that ended before the rate it must hold cannot pass: the capacity check errors', async (t) => {
  const profile = await profileFrom(ramp.replace('require: 2', 'require: 62'));
  const stage = { rate: 2, metrics: metricsOf({ rps: 2, requests: 2, responses: 2 }), breached: [], raw: [] };
  const report = buildLoadReport(profile, 'http://127.0.0.1:9/v1', [stage], 1);
  t.equal(report.highestRateHeld, 2);
  const result = loadCaseResult(report, new Map(), 0);
  const capacity = result.checks.find((c) => c.id === 'load.capacity');
  t.equal(capacity?.outcome, 'could-not-test');
  t.match(capacity?.message, /the ramp ended before 62\/s/);
  t.equal(result.outcome, 'could-not-test', 'the load case could not be judged: the run is incomplete');
});
