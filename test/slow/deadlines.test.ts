/**
 * Deadlines that always fire: a body that trickles in one byte at a time is cut at the whole-exchange deadline whatever
 * its pace, and so is one whose wait sees garbage collections (a deadline held by a collectable signal never fired).
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { asUserStarts, cli, listenLocally, reportSchemaProblems, root, spawnNode, tempDir } from '../helpers.js';

/** Answers headers at once, then one byte of the body every `gapMs`: each byte arrives well within undici's body timeout. */
function drippingServer(gapMs: number): Server {
  return createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('[');
    const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), gapMs);
    res.on('close', () => clearInterval(drip));
  });
}

/**
 * Sends one listPets with a deadline of `deadlineMs` from a child process started with --expose-gc, collecting garbage
 * every 20 ms while it waits when `collect` is set; prints what the request ended with and after how long.
 */
function sendFromChild(baseUrl: string, deadlineMs: number, collect: boolean): Promise<{ code: string; ms: number; output: string }> {
  const script = `
    const { DEFAULT_HTTP_OPTIONS } = await import(${JSON.stringify(`${root}dist/src/http/client.js`)});
    const { openClient } = await import(${JSON.stringify(`${root}dist/src/http/open-client.js`)});
    const client = openClient({ ...DEFAULT_HTTP_OPTIONS, baseUrl: ${JSON.stringify(baseUrl)}, apiKey: 'deadline-key-1', requestTimeoutMs: ${deadlineMs}, headersTimeoutMs: ${deadlineMs} });
    const collector = ${collect} ? setInterval(() => globalThis.gc(), 20) : undefined;
    const started = performance.now();
    let code = 'answered';
    try {
      await client.send({ method: 'GET', path: '/pets', query: [], headers: {}, auth: 'valid', operation: 'listPets' });
    } catch (error) {
      code = error.code;
    }
    clearInterval(collector);
    console.log(JSON.stringify({ code, ms: Math.round(performance.now() - started) }));
    await client.close();
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(...asUserStarts(process.execPath, ['--expose-gc', '--input-type=module', '-e', script]), {
      env: { PATH: process.env['PATH'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // The bound of the test itself: a deadline that never fires is a failure here, not a hang.
    const killer = setTimeout(() => child.kill('SIGKILL'), deadlineMs + 10_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(killer);
      const line = output.split('\n').find((l) => l.startsWith('{'));
      resolve(
        line === undefined
          ? { code: 'killed', ms: Number.POSITIVE_INFINITY, output }
          : { ...(JSON.parse(line) as { code: string; ms: number }), output },
      );
    });
  });
}

t.test('a body that drips one byte every 200 ms is cut at the whole-exchange deadline', async (t) => {
  const baseUrl = await listenLocally(drippingServer(200));
  // The two children wait side by side: the file takes one deadline, not two.
  const sent = await Promise.all([false, true].map(async (collect) => ({ collect, ...(await sendFromChild(baseUrl, 1000, collect)) })));
  for (const { collect, code, ms, output } of sent) {
    const name = collect ? 'with garbage collected every 20 ms' : 'without forced collection';
    t.equal(code, 'ERR_REQUEST_TIMEOUT', `${name}: timed out (${output.trim()})`);
    t.ok(ms < 1000 + 1000, `${name}: ended after ${ms} ms, within the deadline plus one second`);
  }
});

/**
 * The whole run, once, in the real process (its deadlines are the client's, tested above with and without collections, and a
 * run that meets a slow drip without them is in fault-bounds.test.ts): the collections are what a deadline held by a
 * collectable signal never survived.
 */
t.test('a run against a store that drips every body after its first answer ends, with garbage collected every 100 ms', async (t) => {
  let requests = 0;
  const drip = drippingServer(500);
  const server = createServer((req, res) => {
    if (++requests === 1) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    else drip.emit('request', req, res);
  });
  const baseUrl = await listenLocally(server);
  const reports = await tempDir();
  // Ten collections within each 1 s deadline; every 20 ms, as the single request above, cost the run seconds of CPU.
  const collecting = ['--expose-gc', '--import', 'data:text/javascript,setInterval(() => globalThis.gc(), 100).unref()'];
  const started = performance.now();
  const run = await spawnNode(
    [...collecting, cli, 'run', '--base-url', baseUrl, '--report-dir', reports, '--timeout', '1000'],
    { PETSTORE_API_KEY: 'drip-run-key-4411' },
    30_000,
  );
  const seconds = (performance.now() - started) / 1000;
  t.ok(run.code === 1 || run.code === 2, `exit ${String(run.code)} (${`${run.stdout}${run.stderr}`.trim().split('\n').at(-1) ?? ''})`);
  t.ok(seconds < 30, `ended in ${seconds.toFixed(1)} s`);
  t.match(
    run.stdout,
    /verdict: INCOMPLETE \(stopped: \d+ of \d+ planned cases? not run\)/,
    'the summary counts the cases the run never reached',
  );
  const report: unknown = JSON.parse(await readFile(path.join(reports, 'report.json'), 'utf8'));
  t.same(await reportSchemaProblems(report), [], 'report.json is valid');
});
