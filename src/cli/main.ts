#!/usr/bin/env node
/** The process entry: wires the process's streams, environment and signals to the command. The only place that calls process.exit. */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { packageVersion } from '../loader/package-paths.js';
import { guardOutput } from '../reporters/output-streams.js';
import { stopOnSignals } from './exit-codes.js';
import { asksVersion } from './version-words.js';

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

// Before anything writes: a closed pipe or a full disk stops the output, never the run (nor ends it with a stack trace).
const stdout = guardOutput(process.stdout);
const stderr = guardOutput(process.stderr);
const argv = process.argv.slice(2);
// --version and --help answer at once: the rest of the CLI (HTTP client, validators, reporters) is loaded only to run something,
// and the version not even the option table (the help is made of it).
const quick = asksVersion(argv) ? `${packageVersion()}\n` : (await import('./args.js')).quickAnswer(argv, packageVersion);
if (quick !== undefined) {
  stdout.write(quick);
} else {
  capHeapGrowthOnceLarge();
  const stopping = stopOnSignals({
    serving: argv[0] === 'serve',
    write: (line) => stderr.write(line),
    exit: (code) => process.exit(code),
  });
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, () => stopping.onSignal(name));
  const { cli } = await import('./command.js');
  process.exitCode = await cli(argv, {
    stdout,
    stderr,
    env: process.env,
    signal: stopping.interruption,
    abort: stopping.abortion,
  });
}
