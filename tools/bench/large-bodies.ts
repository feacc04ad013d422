/**
 * `npm run bench:large`: a whole functional run (a fixed seed, and extra listings to pass 200 responses) against a server
 * that answers every request with one valid JSON array of pets just under the 4 MiB body cap; the run's wall time, its
 * responses and the CLI process's peak RSS (medians of BENCH_RUNS runs). The bound: under 300 MB and 20 s for 200 such
 * responses on a 2-core machine.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliOnce, median } from './bench-tools.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
/** A whole run makes 150 to 180 requests; this many extra listings take it past 200 responses. */
const EXTRA_LISTINGS = Number(process.env['BENCH_EXTRA_LISTINGS'] ?? 50);
const TARGET_BYTES = Number(process.env['BENCH_BODY_BYTES'] ?? 3.9 * 1024 * 1024);
const KEY = 'large-bodies-bench-key';

/** A JSON array of valid pets of about `bytes` bytes. */
function petsArray(bytes: number): Buffer {
  const items: string[] = [];
  let size = 2;
  for (let id = 1; size < bytes - 100; id++) {
    const item = JSON.stringify({ id, name: `pet-${id}`, categoryId: 1, status: 'available' });
    items.push(item);
    size += item.length + 1;
  }
  return Buffer.from(`[${items.join(',')}]`);
}

const body = petsArray(TARGET_BYTES);
let served = 0;
const server = createServer((req, res) => {
  req.resume();
  served += 1;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

// Extra listings, declared as a user would in a scenario file of their own.
const scenarios = mkdtempSync(path.join(tmpdir(), 'bench-large-scenarios-'));
const extraCases = Array.from({ length: EXTRA_LISTINGS }, (_, i) =>
  [
    `  - id: bench.listing-${i + 1}`,
    `    title: a listing of ${(i % 100) + 1}`,
    '    clause: "Endpoints › listPets"',
    '    request:',
    '      method: GET',
    '      path: /pets',
    `      query: { limit: ${(i % 100) + 1} }`,
    '    expect:',
    '      status: 200',
  ].join('\n'),
);
writeFileSync(path.join(scenarios, 'listings.yaml'), `operation: listPets\nsuite: contract\ncases:\n${extraCases.join('\n')}\n`);

/** Where each run's process writes its peak RSS as it exits (the file is written anew each run). */
const rssFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-large-rss-')), 'rss');
const rssHook = `data:text/javascript,import{writeFileSync}from'node:fs';process.on('exit',()=>writeFileSync(${JSON.stringify(rssFile)},String(process.resourceUsage().maxRSS)))`;

/** Runs the CLI once; its wall time, exit code, responses and peak RSS (reported by the process itself as it exits). */
async function runOnce(): Promise<{ ms: number; code: number | null; responses: number; requests: number; peakMb: number }> {
  const before = served;
  const args = ['run', '--quiet', '--reporter', 'json', '--base-url', baseUrl, '--scenarios', scenarios, '--seed', '1'];
  const { code, wallMs, stderr, report } = await cliOnce(args, KEY, { nodeArgs: ['--import', rssHook] });
  if (report === undefined) throw new Error(`the run exited ${String(code)} and wrote no report: ${stderr}`);
  const peakMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
  return { ms: wallMs, code, responses: served - before, requests: report.requests, peakMb };
}

const runs = [];
for (let i = 0; i < RUNS; i++) {
  const run = await runOnce();
  runs.push(run);
  process.stdout.write(
    `run ${i + 1}: exit ${String(run.code)}, ${run.responses} responses of ${(body.length / 1024 / 1024).toFixed(2)} MiB, ${(run.ms / 1000).toFixed(1)} s, peak RSS ${run.peakMb.toFixed(0)} MB\n`,
  );
}
process.stdout.write(
  `median of ${RUNS}: ${(median(runs.map((r) => r.ms)) / 1000).toFixed(1)} s, peak RSS ${median(runs.map((r) => r.peakMb)).toFixed(0)} MB, ${median(runs.map((r) => r.responses))} responses\n`,
);
server.close();
rmSync(scenarios, { recursive: true, force: true });
rmSync(path.dirname(rssFile), { recursive: true, force: true });
