/**
 * `npm run bench:soak [-- --seconds 600]`: the load generator (the `load` command, as a user runs it) at its maximum rate
 * against a fast fixed-body server, its RSS and CPU read from /proc every second (Linux). After the first minute its RSS must
 * stay within a bound, whatever the number of requests: its histograms, trend windows, counters and samples are bounded.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliOnce, fixedServerFile, median, startProcess } from './bench-tools.js';

const KEY = 'bench-key-5e81a2';
const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    connections: { type: 'string', default: '16' },
    /** MB the RSS may rise above its value at the end of the first minute. */
    bound: { type: 'string', default: '24' },
    csv: { type: 'string', default: path.join('reports', 'bench-soak.csv') },
  },
});
const SECONDS = Number(flags.seconds);
const SETTLED_AFTER = Math.min(60, Math.floor(SECONDS / 2));
const BOUND_MB = Number(flags.bound);
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** One second's reading of the generator's process. */
interface Sample {
  t: number;
  rssMb: number;
  /** Share of one core over the second before, user and system. */
  user: number;
  system: number;
}

/** RSS (MB) and CPU time (s, user and system) of a process, from /proc. */
function readProc(pid: number): { rssMb: number; user: number; system: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    // Fields after the command (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { rssMb: rssKb / 1024, user: Number(fields[11]) / TICKS, system: Number(fields[12]) / TICKS };
  } catch {
    return undefined;
  }
}

/** The profile of the bench: open throttle, queries the fixed 20 pets answer rightly, sampling on, the default trend; bounded only by time. */
function profileFile(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-soak-')), 'max-rate.yaml');
  writeFileSync(
    file,
    `title: The generator at its maximum rate (bench:soak)
connections: ${flags.connections}
duration: ${SECONDS}
maxRequests: 50000000
warmup: 0
timeout: 5
queries:
  - { weight: 2 }
  - { limit: 100, weight: 1 }
sampling: { first: 20, every: 50 }
thresholds:
  errors: { max: 0 }
`,
  );
  return file;
}

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

async function main(): Promise<void> {
  const server = await startProcess([fixedServerFile(1)], KEY);
  const started = performance.now();
  const samples: Sample[] = [];
  let timer: NodeJS.Timeout | undefined;
  // The generator is sampled every second from the moment it runs, by its pid.
  const sample = (pid: number): void => {
    let last = readProc(pid);
    timer = setInterval(() => {
      const now = readProc(pid);
      if (now === undefined || last === undefined) return;
      const t = (performance.now() - started) / 1000;
      samples.push({ t, rssMb: now.rssMb, user: now.user - last.user, system: now.system - last.system });
      last = now;
    }, 1000);
  };
  const { code, wallMs, stderr, report } = await cliOnce(['load', profileFile(), '--base-url', server.baseUrl, '-q'], KEY, {
    started: (generator) => sample(generator.pid as number),
  });
  clearInterval(timer);
  server.child.kill();
  if (report?.load === undefined) throw new Error(`the load exited ${String(code)} and wrote no load report: ${stderr}`);
  const wall = wallMs / 1000;
  writeFileSync(
    flags.csv,
    `t,rss_mb,cpu_user,cpu_system\n${samples.map((s) => `${s.t.toFixed(1)},${s.rssMb.toFixed(1)},${s.user.toFixed(2)},${s.system.toFixed(2)}`).join('\n')}\n`,
  );

  // The load ends at SECONDS (plus the start-up); what follows is the report being written.
  const settled = samples.filter((s) => s.t >= SETTLED_AFTER && s.t <= SECONDS);
  const ending = samples.filter((s) => s.t > SECONDS).map((s) => s.rssMb);
  const atSettle = settled[0]?.rssMb ?? Number.NaN;
  const rss = settled.map((s) => s.rssMb);
  const max = Math.max(...rss);
  const cpu = samples.map((s) => s.user + s.system);
  const cpuSeconds = cpu.reduce((a, b) => a + b, 0);
  const m = report.load.metrics;
  const trend = report.cases.flatMap((c) => c.checks).find((c) => c.id === 'load.trend');
  const mb = (value: number): string => `${value.toFixed(1)} MB`;
  const pct = (share: number): string => `${(share * 100).toFixed(0)} %`;
  const within = max - atSettle <= BOUND_MB;
  console.log(
    `soak bench: ${SECONDS} s at open throttle, ${flags.connections} connections, against a fixed 20-pet server (1 process); ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown cpu'}), node ${process.version}`,
  );
  console.log(
    `  generator exit ${String(code)}; ${m.requests} requests, ${m.rps} responses/s, ${m.errors} errors, p99 ${m.latency.p99} ms`,
  );
  console.log(
    `  RSS in the first ${SETTLED_AFTER} s: peak ${mb(Math.max(...samples.filter((s) => s.t < SETTLED_AFTER).map((s) => s.rssMb)))}`,
  );
  console.log(
    `  RSS after ${SETTLED_AFTER} s (${settled.length} samples): min ${mb(Math.min(...rss))} · median ${mb(median(rss))} · max ${mb(max)}; at ${SETTLED_AFTER} s ${mb(atSettle)}`,
  );
  const perMinute = slope(settled.map((s) => [s.t / 60, s.rssMb]));
  console.log(
    `  RSS rise after ${SETTLED_AFTER} s: max ${mb(max - atSettle)} (bound ${BOUND_MB} MB): ${within ? 'within' : 'EXCEEDED'}; least-squares slope ${perMinute >= 0 ? '+' : ''}${perMinute.toFixed(2)} MB/min`,
  );
  console.log(
    `  CPU of the generator: ${pct(cpuSeconds / wall)} of one core on average (user ${pct(samples.reduce((a, s) => a + s.user, 0) / wall)}, system ${pct(samples.reduce((a, s) => a + s.system, 0) / wall)}); per second median ${pct(median(cpu))}, max ${pct(Math.max(...cpu))}`,
  );
  if (ending.length > 0) console.log(`  RSS after the load, while the report is written: max ${mb(Math.max(...ending))}`);
  console.log(`  load.trend of the run: ${trend?.outcome ?? 'absent'} (${trend?.message ?? ''})`);
  const windows = m.windows;
  if (windows !== undefined)
    console.log(
      `  windows: the generator's event loop busy ${pct(windows.first.generatorBusy)} of the first, ${pct(windows.last.generatorBusy)} of the last; ${windows.first.rps} → ${windows.last.rps} responses/s`,
    );
  console.log(
    `  samples: ${flags.csv}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (!within) process.exitCode = 1;
}

await main();
