/**
 * Load benchmark, side by side in one run (medians of several short runs, as ratios):
 * - the suite's load runner versus wrk against the embedded reference server, sampling off and on;
 * - the reference server's listPets versus a minimal node:http server answering a fixed 20-pet array (both under wrk).
 * - how close the runner's achieved rate comes to its target (200/s and 5,000/s).
 * Each server runs in its own process so that client and server do not share a core.
 */
import autocannon from 'autocannon';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadContract } from '../dist/loader/contract.js';
import { runStage } from '../dist/load/runner.js';
import { ResponseSampler } from '../dist/load/sampler.js';
import { packagePath } from '../dist/loader/package-paths.js';

const KEY = 'bench-key-0f3a9c';
const RUNS = Number(process.env['BENCH_RUNS'] ?? 6);
/** Whole seconds: wrk takes no fractions. */
const SECONDS = Math.max(1, Math.round(Number(process.env['BENCH_SECONDS'] ?? 2)));
const CONNECTIONS = 10;
/** The target rates whose accuracy is measured, and how many runs of each. */
const RATE_TARGETS = [200, 5000];
const RATE_RUNS = 3;
/** The sampling of the smoke profile: the first 20 responses, then 1 in 50. */
const SAMPLING = { first: 20, every: 50 };

const FIXED_SERVER = `
const http = require('node:http');
const pets = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: 'Pet ' + (i + 1), categoryId: (i % 5) + 1, status: 'available' }));
const body = Buffer.from(JSON.stringify(pets));
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/v1'));
`;

function startProcess(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, args, { env: { PATH: process.env['PATH'] ?? '', PETSTORE_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+\/v1)/.exec(seen);
      if (match) resolve({ child, baseUrl: match[1] as string });
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${String(code)})`)));
  });
}

async function wrk(url: string): Promise<number> {
  const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-H', `Authorization: Bearer ${KEY}`, url]);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  if (!match) throw new Error(`wrk printed no rate:\n${stdout}`);
  return Number(match[1]);
}

async function runner(baseUrl: string, sampling: boolean): Promise<number> {
  const contract = await loadContract(packagePath('schemas'));
  const sampler = sampling ? new ResponseSampler(SAMPLING, contract, (x) => x) : undefined;
  const raw = await runStage({
    baseUrl,
    apiKey: KEY,
    profileName: 'bench',
    queries: [{ weight: 1 }],
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    maxRequests: 10_000_000,
    timeoutSeconds: 10,
    maxBodyBytes: 4 * 1024 * 1024,
    ...(sampler ? { sampler } : {}),
  });
  if (sampler && sampler.mismatches > 0) throw new Error('the reference server broke the contract under load');
  return raw.responses / raw.durationSeconds;
}

/** Requests sent per second by one stage at a target rate. */
async function ratedRun(baseUrl: string, rate: number): Promise<number> {
  const raw = await runStage({ baseUrl, apiKey: KEY, profileName: 'bench', queries: [{ weight: 1 }], connections: 20, rate, durationSeconds: SECONDS, maxRequests: 10_000_000, timeoutSeconds: SECONDS, maxBodyBytes: 4 * 1024 * 1024 });
  return raw.requests / raw.durationSeconds;
}

/** autocannon with nothing of the runner: what the runner's own additions cost. */
async function plainAutocannon(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${KEY}` } });
  return result.requests.total / result.duration;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const VARIANTS = ['wrk → reference', 'runner, sampling off → reference', 'runner, sampling on → reference', 'wrk → fixed 20-pet server', 'plain autocannon → reference'] as const;

async function round(referenceUrl: string, fixedUrl: string): Promise<number[]> {
  return [await wrk(`${referenceUrl}/pets`), await runner(referenceUrl, false), await runner(referenceUrl, true), await wrk(`${fixedUrl}/pets`), await plainAutocannon(`${referenceUrl}/pets`)];
}

async function main(): Promise<void> {
  const reference = await startProcess([packagePath('dist/cli/main.js'), 'serve', '--port', '0']);
  const fixed = await startProcess(['-e', FIXED_SERVER]);
  const rounds: number[][] = [];
  try {
    await round(reference.baseUrl, fixed.baseUrl); // warm-up: JIT of servers and runner, not counted
    // Interleaved rounds: drift of a shared machine touches every variant of a round alike, and ratios are taken per round.
    for (let n = 0; n < RUNS; n++) {
      rounds.push(await round(reference.baseUrl, fixed.baseUrl));
      process.stderr.write(`round ${n + 1}/${RUNS} done\n`);
    }
    report(rounds);
    await rateAccuracy(reference.baseUrl);
  } finally {
    reference.child.kill();
    fixed.child.kill();
  }
  console.log(`(${path.relative(process.cwd(), process.argv[1] ?? 'bench')}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
}

/** The throughput table and its ratios. */
function report(rounds: number[][]): void {
  const column = (i: number): number[] => rounds.map((r) => r[i] as number);
  const pairedRatio = (a: number, b: number): number => median(rounds.map((r) => (r[a] as number) / (r[b] as number)));
  console.log(`load bench: ${RUNS} rounds of ${SECONDS} s per variant, ${CONNECTIONS} connections, GET /v1/pets (20 pets); medians in requests/s`);
  VARIANTS.forEach((name, i) => console.log(`  ${name.padEnd(36)} ${median(column(i)).toFixed(0).padStart(7)}   (runs: ${column(i).map((v) => v.toFixed(0)).join(', ')})`));
  console.log('ratios (median of the per-round ratios):');
  console.log(`  runner / wrk, sampling off            ${pairedRatio(1, 0).toFixed(2)}`);
  console.log(`  runner / wrk, sampling on             ${pairedRatio(2, 0).toFixed(2)}   (goal >= 0.85)`);
  console.log(`  runner / plain autocannon, sampling on ${pairedRatio(2, 4).toFixed(2)}   (the suite's connections against autocannon's)`);
  console.log(`  reference / fixed 20-pet server       ${pairedRatio(0, 3).toFixed(2)}   (goal >= 0.80)`);
}

/** How close the achieved rate comes to each target, in runs one after another. */
async function rateAccuracy(baseUrl: string): Promise<void> {
  console.log('rate accuracy (runner → reference, 20 connections; achieved = requests sent / stage duration):');
  for (const rate of RATE_TARGETS) {
    const achieved: number[] = [];
    for (let n = 0; n < RATE_RUNS; n++) achieved.push(await ratedRun(baseUrl, rate));
    const errors = achieved.map((a) => (a / rate - 1) * 100);
    console.log(`  ${String(rate).padStart(5)}/s → median ${median(achieved).toFixed(1)}/s (${median(errors) >= 0 ? '+' : ''}${median(errors).toFixed(2)} %; runs ${errors.map((e) => `${e >= 0 ? '+' : ''}${e.toFixed(2)} %`).join(', ')})   (goal within ±2 %)`);
  }
}

await main();
