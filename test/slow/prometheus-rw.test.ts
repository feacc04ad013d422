/**
 * --out prometheus-rw=URL against a real Prometheus (Debian's `prometheus`; .ci/run installs it): an instance of this
 * test's own on a free 127.0.0.1 port, its remote-write receiver on and its storage in a temporary folder, receives what
 * A light load pushes, and its HTTP API is asked for the petstore_ series. Then, with that Prometheus stopped, the same run
 * still writes its report, says in one line that the push failed, and exits 2. Skipped, saying why, without Prometheus.
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { root, runCli, tempDir } from '../helpers.js';
import { LIGHT_PROFILE } from '../load-fixtures.js';

const installed = spawnSync('prometheus', ['--version'], { encoding: 'utf8' }).status === 0;

/** A port free on 127.0.0.1 a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** Starts Prometheus and resolves once it logs that it is ready (within 60 s, or it is killed and this rejects). */
async function startPrometheus(dir: string, port: number): Promise<() => Promise<void>> {
  await writeFile(path.join(dir, 'prometheus.yml'), 'global: {}\n');
  const child = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prometheus was not ready within 60 s: ${log.slice(-2000)}`)), 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server is ready to receive web requests')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prometheus exited (${code}) before it was ready: ${log.slice(-2000)}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return stop;
}

interface Vector {
  status: string;
  data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

t.test(
  'load --out prometheus-rw: the run and its stage in a real Prometheus; with Prometheus gone, one line and exit 2',
  { skip: installed ? false : 'no prometheus here (Debian: apt-get install prometheus; .ci/run installs it when it is missing)' },
  async (t) => {
    const dir = await tempDir();
    const port = await freePort();
    const stop = await startPrometheus(dir, port);
    t.teardown(stop);
    const url = `http://127.0.0.1:${port}/api/v1/write`;
    const key = 'prom-key-5c0ffee91';
    const reports = path.join(dir, 'reports');
    // Both nights run a light profile of 300 requests (smoke keeps both cores busy for 2.5 s); a baseline is only
    // comparable with a load of the same profile and request mix.
    const light = path.join(dir, 'light.yaml');
    await writeFile(light, LIGHT_PROFILE);
    const pushed = await runCli(['load', light, '--out', url.replace('http://', 'prometheus-rw=http://'), '--report-dir', reports, '-q'], {
      PETSTORE_API_KEY: key,
    });
    t.equal(pushed.code, 0, pushed.stderr);
    t.equal(pushed.stderr, '', 'nothing said: the push worked');
    const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as {
      meta: { runId: string };
      load: { stages: Array<{ metrics: { requests: number; latency: { p99: number } } }> };
    };
    const query = async (promql: string): Promise<Vector> => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`, {
        signal: AbortSignal.timeout(10_000),
      });
      return (await response.json()) as Vector;
    };
    const all = await query(`{__name__=~"petstore_.+", run_id="${report.meta.runId}"}`);
    t.equal(all.status, 'success');
    const names = new Set(all.data.result.map((r) => r.metric['__name__']));
    for (const name of [
      'petstore_run_cases',
      'petstore_run_passed',
      'petstore_load_requests',
      'petstore_load_latency_seconds',
      'petstore_load_throughput_rps',
    ])
      t.ok(names.has(name), `${name} is in Prometheus`);
    t.notMatch(JSON.stringify(all), key, 'the key is in no series');
    const stage = report.load.stages[0]?.metrics;
    const requests = await query(`petstore_load_requests{run_id="${report.meta.runId}", profile="light", stage="1"}`);
    t.same(
      requests.data.result.map((r) => Number(r.value[1])),
      [stage?.requests],
      "the stage's requests, as report.json has them",
    );
    const p99 = await query(`petstore_load_latency_seconds{run_id="${report.meta.runId}", stage="1", quantile="0.99"}`);
    t.same(
      p99.data.result.map((r) => Number(r.value[1])),
      [(stage?.latency.p99 ?? Number.NaN) / 1000],
      'its p99, in seconds',
    );
    const passed = await query(`petstore_run_passed{run_id="${report.meta.runId}"}`);
    t.same(
      passed.data.result.map((r) => r.value[1]),
      ['1'],
      'the verdict',
    );

    // A second night, compared with the first, so that every panel of the dashboard has something to draw.
    const nextNight = path.join(dir, 'next-night');
    const compared = await runCli(
      ['load', light, '--out', `prometheus-rw=${url}`, '--report-dir', nextNight, '--baseline', path.join(reports, 'report.json'), '-q'],
      { PETSTORE_API_KEY: key },
    );
    // Two loads on a busy machine may differ beyond any tolerance: a regression fails the load case (exit 1).
    t.ok(compared.code === 0 || compared.code === 1, `judged against the first: ${compared.stderr}`);
    const dashboard = JSON.parse(await readFile(path.join(root, 'deploy', 'grafana', 'petstore-conformance.json'), 'utf8')) as {
      panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
    };
    const drawn: string[] = [];
    for (const panel of dashboard.panels)
      for (const target of panel.targets ?? []) {
        // Grafana's variables as a dashboard of every profile and stage over the last minutes fills them in.
        const expr = target.expr.replaceAll('$__interval', '5m').replaceAll('$profile', '.*').replaceAll('$stage', '.*');
        const answer = await query(expr);
        t.equal(answer.status, 'success', `${panel.title}: ${target.expr}`);
        if (answer.data.result.length > 0) drawn.push(panel.title);
      }
    t.same(
      [...new Set(drawn)].sort(),
      [
        'Cases by outcome',
        'Compared with the baseline',
        'Errors',
        ...(compared.code === 1 ? ['Failed checks'] : []),
        'Last verdict',
        'Latency',
        'Regressions',
        'Requests and failures',
        'Run duration',
        'Thresholds broken',
        'Throughput',
      ],
      'the dashboard draws these two runs (neither load has a target rate, no finding; a check fails only if it regressed)',
    );

    await stop();
    const unpushed = await runCli(['load', light, '--out', `prometheus-rw=${url}`, '--report-dir', reports, '-q'], {
      PETSTORE_API_KEY: key,
    });
    t.equal(unpushed.code, 2, 'a report not delivered: exit 2 for a run that passed, as a file that could not be written');
    t.match(
      unpushed.stderr,
      new RegExp(
        `^petstore-conformance: the prometheus-rw reporter failed: ` +
          `could not push the results to ${url.replace(/\./g, '\\.')} \\(Prometheus remote write\\): ECONNREFUSED$`,
        'm',
      ),
    );
    const second = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as { meta: { runId: string } };
    t.not(second.meta.runId, report.meta.runId, 'report.json is written all the same');
  },
);
