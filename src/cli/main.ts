#!/usr/bin/env node
/** The process entry: wires the process's streams, environment and signals to the command. The only place that calls process.exit. */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { packageVersion } from '../loader/package-paths.js';
import { quickAnswer } from './args.js';
import { EXIT, INTERRUPT_GRACE_MS, stoppingLine, type StopSignal } from './exit-codes.js';

/** The first signal stops the run cleanly (it still reports); in-flight requests get a short grace, then are aborted. */
const interruption = new AbortController();
/** Aborts what is in flight: the grace ran out, or a second signal came. The reports are still written. */
const abortion = new AbortController();
/** However the run is stuck, a second signal ends the process this long after it. */
const LAST_RESORT_MS = 5_000;

function onSignal(name: StopSignal): void {
  if (!interruption.signal.aborted) {
    process.stderr.write(`${stoppingLine(name, argv[0] === 'serve')}\n`);
    interruption.abort(name);
    setTimeout(() => abortion.abort(name), INTERRUPT_GRACE_MS).unref();
    return;
  }
  if (!abortion.signal.aborted) {
    process.stderr.write('petstore-conformance: aborting the requests in flight; writing the reports\n');
    abortion.abort(name);
  }
  setTimeout(() => {
    process.stderr.write('petstore-conformance: interrupted\n');
    process.exit(EXIT.interrupted[name]);
  }, LAST_RESORT_MS).unref();
}

/** More heap than a whole run ever uses (under 40 MB, load included): a run past it is reading large bodies. */
const LARGE_HEAP_BYTES = 64 * 1024 * 1024;

/**
 * A run's live memory is small (bounded reports, bodies of at most 4 MiB each in flight), but a server that sends large
 * bodies makes garbage 4 MB at a time, and on a machine with much memory V8 lets the heap grow to 4 times what is live
 * before it collects. Once the heap passes what a run needs, it may grow by half at most (V8 reads the flag at every
 * collection): 200 bodies of 3.9 MB went from a median peak of 313 MB RSS to about 210 MB at the same speed (npm run
 * bench:large). Not before: collecting that often from the start costs an ordinary run a tenth of its time.
 */
function capHeapGrowthOnceLarge(): void {
  const observer = new PerformanceObserver(() => {
    if (getHeapStatistics().used_heap_size < LARGE_HEAP_BYTES) return;
    setFlagsFromString('--heap-growing-percent=50');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

const argv = process.argv.slice(2);
// --version and --help answer at once: the rest of the CLI (HTTP client, validators, reporters) is loaded only to run something.
const quick = quickAnswer(argv, packageVersion);
if (quick !== undefined) {
  process.stdout.write(quick);
} else {
  capHeapGrowthOnceLarge();
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, () => onSignal(name));
  const { cli } = await import('./command.js');
  process.exitCode = await cli(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: interruption.signal, abort: abortion.signal });
}
