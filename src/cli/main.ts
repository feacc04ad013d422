#!/usr/bin/env node
/** The process entry: wires the process's streams, environment and Ctrl-C to the command. The only place that calls process.exit. */
import { cli, EXIT } from './command.js';

/** The one interruption of this process: the first Ctrl-C stops the run cleanly (it still reports), the second exits at once. */
const interruption = new AbortController();

process.on('SIGINT', () => {
  if (!interruption.signal.aborted) {
    interruption.abort();
    return;
  }
  process.stderr.write('petstore-conformance: interrupted\n');
  process.exit(EXIT.interrupted);
});

process.exitCode = await cli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: interruption.signal });
