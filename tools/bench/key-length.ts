/**
 * `npm run bench:key`: what a key at the bound costs. The whole functional run at a fixed seed against the embedded server,
 * with a key of MAX_KEY_CHARACTERS and with one of 32, in interleaved runs: wall time and the CLI process's peak RSS,
 * medians of BENCH_RUNS runs each. The bound: the long key within twice the short one's time and memory (exit 1 past it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_KEY_CHARACTERS } from '../../src/model/api-key.js';
import { cliOnce, median } from './bench-tools.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
const BOUND = 2;

/** A key of `length` base64url characters, fresh for each run (the embedded server takes it from the environment too). */
function keyOf(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

/** Where each run's process writes its peak RSS as it exits (the file is written anew each run). */
const rssFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-key-rss-')), 'rss');
const rssHook = `data:text/javascript,import{writeFileSync}from'node:fs';process.on('exit',()=>writeFileSync(${JSON.stringify(rssFile)},String(process.resourceUsage().maxRSS)))`;

/** Runs the CLI once with a key of `length` characters: its wall time (s) and peak RSS (MB); a run that does not pass throws. */
async function runOnce(length: number): Promise<{ seconds: number; peakMb: number; requests: number }> {
  const args = ['run', '--quiet', '--reporter', 'json', '--seed', '1'];
  const { code, wallMs, stderr, report } = await cliOnce(args, keyOf(length), { nodeArgs: ['--import', rssHook] });
  if (code !== 0 || report === undefined) throw new Error(`a run with a key of ${length} characters exited ${String(code)}: ${stderr}`);
  return { seconds: wallMs / 1000, peakMb: Number(readFileSync(rssFile, 'utf8')) / 1024, requests: report.requests };
}

const lengths = [32, MAX_KEY_CHARACTERS];
const runs = new Map<number, Array<{ seconds: number; peakMb: number; requests: number }>>(lengths.map((length) => [length, []]));
try {
  for (let i = 0; i < RUNS; i++)
    for (const length of i % 2 === 0 ? lengths : [...lengths].reverse()) {
      const run = await runOnce(length);
      runs.get(length)?.push(run);
      process.stdout.write(
        `run ${i + 1}, key of ${length}: ${run.seconds.toFixed(2)} s, peak RSS ${run.peakMb.toFixed(0)} MB, ${run.requests} requests\n`,
      );
    }
} finally {
  rmSync(path.dirname(rssFile), { recursive: true, force: true });
}
const medians = lengths.map((length) => {
  const of = runs.get(length) ?? [];
  return { length, seconds: median(of.map((r) => r.seconds)), peakMb: median(of.map((r) => r.peakMb)) };
});
const [short, long] = medians as [(typeof medians)[number], (typeof medians)[number]];
const time = long.seconds / short.seconds;
const memory = long.peakMb / short.peakMb;
for (const m of medians)
  process.stdout.write(
    `key of ${String(m.length).padStart(4)}: ${m.seconds.toFixed(2)} s, peak RSS ${m.peakMb.toFixed(0)} MB (medians of ${RUNS})\n`,
  );
process.stdout.write(
  `the key of ${MAX_KEY_CHARACTERS} against 32: time ×${time.toFixed(2)}, peak RSS ×${memory.toFixed(2)} (bound ×${BOUND})\n`,
);
if (time > BOUND || memory > BOUND) process.exitCode = 1;
