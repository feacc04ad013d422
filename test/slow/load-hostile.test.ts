/**
 * The load gate against hostile servers on 127.0.0.1: one that stops answering, one that answers in 1 s, a close-delimited
 * HTTP/1.0 server, a 200 MB body, a certificate swapped after the verified request. Each run is bounded by its profile: a
 * second at most, and a few hundred requests where the server answers at once.
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Socket } from 'node:net';
import path from 'node:path';
import type { LoadReport } from '../../src/model/load.js';
import type { RunReport } from '../../src/model/results.js';
import { createPetStore, toNodeHandler } from '../../src/server/reference-server.js';
import { asUserStarts, cli, listenLocally, root, runCli, runRealCli, tempDir } from '../helpers.js';
import { certificate } from '../tls-fixtures.js';

const KEY = 'hostile-load-key-4e7f10';
type Report = RunReport & { load: LoadReport };

/**
 * A profile of 300 requests without warm-up, for the cases the smoke profile's shape does not matter to: a server that answers
 * ends it in a tenth of a second, 3 s at most. Its timeout and p99 bound are loose: on a busy 2-core machine TLS handshakes
 * alone can take a second, and these tests judge accounting, bounds and TLS, not speed.
 */
const SHORT = `title: short hostile load
connections: 4
duration: 3
maxRequests: 300
timeout: 3
queries: [{ weight: 1 }, { limit: 5, status: sold, weight: 1 }]
sampling: { first: 20, every: 10 }
thresholds:
  p99: { max: 3000 }
`;

/** SHORT for `seconds` (its timeout as long): for the cases a length of time bounds. */
const lasting = (seconds: number, text = SHORT): string =>
  text.replace('duration: 3', `duration: ${seconds}`).replace('timeout: 3', `timeout: ${seconds}`);

/**
 * SHORT ended by a budget of `requests` and never by the clock: its duration, timeout and p99 bound (60 s) are a safety net, for
 * the cases that judge TLS and accounting, where a handshake slower than SHORT's 3 s on a busy machine was a timeout.
 */
const budgeted = (requests: number): string =>
  lasting(60).replace('maxRequests: 300', `maxRequests: ${requests}`).replace('p99: { max: 3000 }', 'p99: { max: 60000 }');

/**
 * The smoke profile (its connections, queries and thresholds), shortened: no warm-up, `duration` s measured on its 4
 * connections (no pressure step), a timeout of `timeout` s.
 */
async function shortSmoke(duration: number, timeout: number): Promise<string> {
  const smoke = await readFile(path.join(root, 'scenarios/load/smoke.yaml'), 'utf8');
  const shortened = smoke
    .replace(/^pressure: .*\n/m, '')
    .replace(/^duration: .*$/m, `duration: ${duration}`)
    .replace(/^warmup: .*$/m, 'warmup: 0')
    .replace(/^timeout: .*$/m, `timeout: ${timeout}`);
  const file = path.join(await tempDir(), 'smoke.yaml');
  await writeFile(file, shortened);
  return file;
}

/** Serves the first request (the verified one before the load) from a real store, and every later one with `later`. */
function firstThen(later: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
  const store = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
  let seen = 0;
  return (req, res) => (++seen === 1 ? store(req, res) : later(req, res));
}

/**
 * Runs `load` with `args` in this process, or as its own process when `real` (whose worker threads then start as a user's
 * do, not with the loaders tap gives this process, which cost a second of CPU a thread): its exit code, output and report.
 */
async function loadReport(args: string[], real = false): Promise<{ code: number | null; stdout: string; stderr: string; report: Report }> {
  const reports = await tempDir();
  const command = ['load', ...args, '--report-dir', reports];
  const result = await (real ? runRealCli(command, { PETSTORE_API_KEY: KEY }) : runCli(command, { PETSTORE_API_KEY: KEY }));
  return { ...result, report: JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as Report };
}

async function shortProfile(text = SHORT): Promise<string> {
  const file = path.join(await tempDir(), 'short.yaml');
  await writeFile(file, text);
  return file;
}

/** Every request sent is a response, a failure, or still in flight at the stop. */
function accountedFor(t: Test, load: LoadReport): void {
  const m = load.metrics;
  t.equal(
    m.requests,
    m.responses + m.errors + m.inFlightAtStop,
    `every request accounted for: ${m.requests} = ${m.responses} responses + ${m.errors} errors + ${m.inFlightAtStop} in flight`,
  );
}

function outcome(report: Report, id: string): string | undefined {
  return report.cases.find((c) => c.suite === 'load')?.checks.find((c) => c.id === id)?.outcome;
}

t.test('the smoke gate fails a server that stops answering after the first request, and one whose every answer takes 1 s', async (t) => {
  const silent = await listenLocally(createHttpServer(firstThen(() => undefined)));
  const slow = await listenLocally(
    createHttpServer(
      firstThen((_req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'), 1000)),
    ),
  );
  // Smoke's shape and thresholds for 1 s with a timeout of 0.5 s: every request times out or is still waiting at the stop.
  const smoke = await shortSmoke(1, 0.5);
  // Both runs mostly wait on the servers: side by side, they take the time of one.
  // The hung server is loaded by two worker threads (of the real process): what each leaves unanswered is counted the same way.
  const [hung, late] = await Promise.all([
    loadReport([smoke, '--base-url', silent, '--workers', '2'], true),
    loadReport([smoke, '--base-url', slow]),
  ]);

  t.equal(hung.code, 1, hung.stdout);
  const m = hung.report.load.metrics;
  t.equal(m.responses, 0);
  t.equal(hung.report.load.stages[0]?.raw[0]?.workers, 2, 'the report says the load came from two threads');
  t.match(hung.stdout, /4 connections on 2 worker threads/);
  t.ok(m.timeouts > 0, `requests older than the 0.5 s timeout count as timeouts (${m.timeouts})`);
  // Requests sent at 0.5 s time out right at the 1 s stop: whether they count as timeouts or in flight is a matter of a few ms.
  t.ok(
    m.timeouts + m.inFlightAtStop >= 8,
    `every unanswered request is counted: ${m.timeouts} timeouts, ${m.inFlightAtStop} in flight at the stop`,
  );
  t.ok(m.latency.max >= 500, `their age is latency of at least that much (max ${m.latency.max} ms)`);
  t.equal(outcome(hung.report, 'load.p99'), 'failed');
  t.match(hung.report.cases.find((c) => c.suite === 'load')?.checks.find((c) => c.id === 'load.p99')?.message, /no response in [\d.]+ s/);
  t.equal(outcome(hung.report, 'load.timeouts'), 'failed');
  accountedFor(t, hung.report.load);

  t.equal(late.code, 1, late.stdout);
  t.equal(outcome(late.report, 'load.p99'), 'failed');
  t.equal(outcome(late.report, 'load.timeouts'), 'failed');
  t.ok(late.report.load.metrics.latency.p99 >= 500, `p99 ${late.report.load.metrics.latency.p99} ms`);
  accountedFor(t, late.report.load);
});

t.test('a close-delimited HTTP/1.0 server: every answer counted like any other', async (t) => {
  const server = createNetServer((socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const authorized = head.includes(`Bearer ${KEY}`);
      socket.end(
        authorized
          ? 'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n[]'
          : 'HTTP/1.0 401 Unauthorized\r\nContent-Type: application/json\r\n\r\n{"code":401,"message":"no"}',
      );
    });
    socket.on('error', () => undefined);
  });
  const base = await listenLocally(server);
  const { code, report, stdout } = await loadReport([await shortProfile(), '--base-url', base]);
  t.equal(code, 0, stdout);
  t.ok(report.load.metrics.responses > 10, `${report.load.metrics.responses} responses counted`);
  t.equal(report.load.metrics.errors, 0);
  t.equal(report.load.metrics.statusCodes['200'], report.load.metrics.responses);
  t.match(stdout, `s, 0 requests + ${report.load.metrics.requests} load requests)`, 'the summary line counts the load as the report does');
  t.ok(
    report.load.percentiles.some((p) => !Number.isInteger(p.ms)),
    `report.json holds sub-millisecond percentiles: ${JSON.stringify(report.load.percentiles)}`,
  );
  accountedFor(t, report.load);
});

t.test('a 200 MB body ends a 1 s profile on time, in bounded memory, counted as a violation', async (t) => {
  const size = 200 * 1024 * 1024;
  const piece = Buffer.alloc(1024 * 1024, 0x20);
  const base = await listenLocally(
    createHttpServer(
      firstThen((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': size });
        let sent = 0;
        // Written as the client reads, so the server's own memory stays small.
        const more = (): void => {
          while (sent < size && !res.destroyed) {
            sent += piece.length;
            if (!res.write(piece)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      }),
    ),
  );
  const reports = await tempDir();
  const profile = await shortProfile(lasting(1));
  // The real process, to read its own peak memory (resident set) as it exits.
  const peak =
    'import { writeSync } from "node:fs"; process.on("exit", () => writeSync(2, "\\nmax-rss-kb " + process.resourceUsage().maxRSS + "\\n"));';
  const started = performance.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const args = [
      '--import',
      `data:text/javascript,${encodeURIComponent(peak)}`,
      cli,
      'load',
      profile,
      '--base-url',
      base,
      '--report-dir',
      reports,
    ];
    const child = spawn(...asUserStarts(process.execPath, args), {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '', PETSTORE_API_KEY: KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (exit) => {
      clearTimeout(killer);
      resolve({ code: exit, stderr: err });
    });
  });
  const seconds = (performance.now() - started) / 1000;
  const rssMb = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
  t.equal(code, 1, stderr);
  t.ok(seconds < 6, `the 1 s profile ended in ${seconds.toFixed(1)} s, start-up included`);
  t.ok(rssMb < 300, `peak memory ${rssMb.toFixed(0)} MB`);
  const report = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8')) as Report;
  t.ok(
    report.load.metrics.mismatches > 0 && report.load.metrics.mismatches === report.load.metrics.responses,
    'every oversized answer is a violation',
  );
  t.match(report.load.violations[0]?.problems[0], /exceeded the response size cap \(more than 4194304 bytes\)/);
  t.equal(outcome(report, 'load.mismatches'), 'failed');
  accountedFor(t, report.load);
});

t.test('an https server the --ca-file trusts is loaded over verified TLS on every connection', async (t) => {
  const dir = await tempDir();
  const base = await listenLocally(
    createHttpsServer(certificate(dir, 'trusted'), toNodeHandler(createPetStore({ apiKey: KEY }).handle)),
    'https',
  );
  const { code, report, stdout } = await loadReport([
    await shortProfile(budgeted(40)),
    '--base-url',
    base,
    '--ca-file',
    path.join(dir, 'trusted.pem'),
  ]);
  t.equal(code, 0, stdout);
  t.equal(report.load.metrics.responses, 40, 'every request of the budget answered over TLS');
  t.equal(report.load.metrics.errors, 0);
});

t.test('a certificate swapped after the verified request receives no request with the key', async (t) => {
  const dir = await tempDir();
  const trusted = certificate(dir, 'trusted');
  const other = certificate(dir, 'other');
  const store = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
  let withKeyAfterSwap = 0;
  let swapped = false;
  const server = createHttpsServer(trusted, (req, res) => {
    if (swapped && (req.headers.authorization ?? '').includes(KEY)) withKeyAfterSwap += 1;
    store(req, res);
    if (!swapped) {
      swapped = true;
      server.setSecureContext(other);
    }
  });
  const base = await listenLocally(server, 'https');
  // Every connection after the swap fails its handshake, and tries again (10 ms, doubling). The load ends on its budget of 20
  // requests (5 a connection, 150 ms of backoff): with a duration of 1.5 s and its timeout as long, a handshake slower than
  // that on a busy machine was counted as a timeout. The duration and the timeout are now only a safety net.
  const { code, report, stdout } = await loadReport([
    await shortProfile(budgeted(20)),
    '--base-url',
    base,
    '--ca-file',
    path.join(dir, 'trusted.pem'),
  ]);
  t.equal(withKeyAfterSwap, 0, 'no request after the swap carried the key');
  t.equal(code, 1, stdout);
  t.equal(report.load.metrics.responses, 0);
  t.ok(report.load.metrics.errors > 0);
  t.match(report.load.metrics.errorCauses[0]?.cause, /TLS certificate rejected .*nothing was sent on this connection/);
  t.equal(outcome(report, 'load.errors'), 'failed');
  t.notOk(JSON.stringify(report).includes(KEY) || stdout.includes(KEY), 'the key appears nowhere');
});

t.test(
  'a server that resets every open connection every 100 ms fails the gate: each request lost on a busy connection is a reset',
  async (t) => {
    const sockets = new Set<Socket>();
    let timer: NodeJS.Timeout | undefined;
    t.teardown(() => clearInterval(timer));
    const server = createHttpServer(
      firstThen((_req, res) => {
        // From the first request of the load on (the verified request before it is answered in peace): an RST on every
        // connection, busy or not, 10 times a second.
        timer ??= setInterval(() => {
          for (const socket of sockets) socket.resetAndDestroy();
        }, 100);
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      }),
    );
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    const base = await listenLocally(server);
    // The smoke profile's 4 connections at full speed, for 0.5 s without warm-up: five rounds of resets.
    const { code, stdout, report } = await loadReport([await shortSmoke(0.5, 0.5), '--base-url', base]);
    const m = report.load.metrics;
    t.equal(code, 1, stdout);
    t.ok(m.resets > 0, `${m.resets} requests reset on a busy connection`);
    t.ok(m.resets <= m.errors, 'a reset is a failed request');
    t.ok(m.responses > 100, `${m.responses} responses between the resets`);
    t.equal(outcome(report, 'load.resets'), 'failed');
    t.match(
      report.cases.find((c) => c.suite === 'load')?.checks.find((c) => c.id === 'load.resets')?.message,
      new RegExp(`^${m.resets} requests reset on a busy connection \\(at most 0 allowed\\)$`),
    );
    t.match(stdout, `  errors: ${m.errors} (timeouts ${m.timeouts}, resets ${m.resets})\n`);
    t.match(
      stdout,
      `  resets: ${m.resets} requests lost on a busy connection the server reset or closed before their complete response (never sent again)\n`,
    );
    t.match(stdout, /ECONNRESET/, 'the cause is named');
    t.comment(
      `0.5 s of smoke against resets every 100 ms: ${m.requests} requests, ${m.responses} responses, ${m.errors} errors, ${m.resets} resets, ${m.connectionRetries} connection retries`,
    );
    accountedFor(t, report.load);
  },
);

t.test('a server that closes idle connections passes: a close before an idle request is a connection retry, never a reset', async (t) => {
  // A low rate: the connection freed last carries the next request 250 ms later, idle for longer than either server waits.
  const lowRate = lasting(2, SHORT.replace('connections: 4', 'connections: 2\nrate: 4'));
  // Node's own idle timeout: the server closes a connection quiet for 100 ms, between two requests.
  const timeoutServer = createHttpServer(toNodeHandler(createPetStore({ apiKey: KEY }).handle));
  timeoutServer.keepAliveTimeout = 100;
  // The race an idle timeout loses at last: a request that arrives after 100 ms of quiet finds its connection closed under it, unanswered.
  const store = toNodeHandler(createPetStore({ apiKey: KEY }).handle);
  const raceServer = createHttpServer((req, res) => {
    const quietSince = (req.socket as Socket & { quietSince?: number }).quietSince;
    if (quietSince !== undefined && performance.now() - quietSince >= 100) return void req.socket.destroy();
    res.on('finish', () => ((req.socket as Socket & { quietSince?: number }).quietSince = performance.now()));
    store(req, res);
  });
  const [timeoutBase, raceBase] = await Promise.all([listenLocally(timeoutServer), listenLocally(raceServer)]);
  const profile = await shortProfile(lowRate);
  const [closed, raced] = await Promise.all([
    loadReport([profile, '--base-url', timeoutBase]),
    loadReport([profile, '--base-url', raceBase]),
  ]);
  for (const [name, run] of [
    ['keepAliveTimeout 100 ms', closed],
    ['closed as the idle request arrives', raced],
  ] as const) {
    const m = run.report.load.metrics;
    t.equal(run.code, 0, `${name}: ${run.stdout}`);
    t.equal(m.resets, 0, `${name}: no reset`);
    t.equal(m.errors, 0, `${name}: no error (${JSON.stringify(m.errorCauses)})`);
    t.ok(m.responses >= 6, `${name}: ${m.responses} responses`);
    t.equal(outcome(run.report, 'load.resets'), 'passed', `${name}: load.resets passes`);
    t.match(run.stdout, '  errors: 0 (timeouts 0, resets 0)\n', `${name}: the figures say so`);
    t.comment(
      `${name}: ${m.requests} requests, ${m.responses} responses, ${m.errors} errors, ${m.resets} resets, ${m.connectionRetries} connection retries`,
    );
    accountedFor(t, run.report.load);
  }
  const retries = raced.report.load.metrics.connectionRetries;
  t.ok(
    retries >= raced.report.load.metrics.requests - 3,
    `closed under every idle request: ${retries} of ${raced.report.load.metrics.requests} sent again on a fresh connection`,
  );
  t.match(
    raced.stdout,
    `  connection retries: ${retries} requests sent again on a fresh connection after the server closed an idle one (not errors)\n`,
  );
});
