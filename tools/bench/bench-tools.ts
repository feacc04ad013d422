/** What the benches share: a fast fixed-body server, server processes started and awaited, the CLI run once, medians. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packagePath } from '../../src/loader/package-paths.js';
import type { LoadReport } from '../../src/model/load.js';
import type { RunReport } from '../../src/model/results.js';

/** A node:http server answering GET /v1/pets with a fixed 20-pet array, in `processes` processes sharing one port. */
const fixedServer = (processes: number): string => `
const cluster = require('node:cluster');
const http = require('node:http');
if (cluster.isPrimary && ${processes} > 1) {
  for (let i = 0; i < ${processes}; i++) cluster.fork();
  let told = false;
  cluster.on('listening', (_worker, address) => { if (!told) { told = true; console.log('listening on http://127.0.0.1:' + address.port + '/v1'); } });
} else {
  const pets = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: 'Pet ' + (i + 1), categoryId: (i % 5) + 1, status: 'available' }));
  const body = Buffer.from(JSON.stringify(pets));
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 5000;
  server.listen(Number(process.env.BENCH_PORT || 0), '127.0.0.1', () => { if (cluster.isPrimary) console.log('listening on http://127.0.0.1:' + server.address().port + '/v1'); });
}
`;

/** The fixed server as a file: cluster workers run the primary's script file again, which `node -e` does not have. */
export function fixedServerFile(processes: number): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-server-')), `fixed-${processes}.cjs`);
  writeFileSync(file, fixedServer(processes));
  return file;
}

/** Starts a server process (node with `args`, the key in its environment) and waits for the base URL it prints. */
export function startProcess(args: string[], apiKey: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env['PATH'] ?? '', PETSTORE_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One CLI process as run by cliOnce: its exit code, wall time from spawn to exit, standard error and report. */
export interface CliRun {
  code: number | null;
  wallMs: number;
  stderr: string;
  /** report.json as the CLI wrote it; undefined when it wrote none. */
  report: (RunReport & { load?: LoadReport }) | undefined;
}

/**
 * Runs the CLI once (`node ...nodeArgs dist/src/cli/main.js ...args --report-dir DIR`, the key in its environment) in a report
 * folder of its own, removed after. Spawned, never spawnSync: the server it tests may answer from this process's event
 * loop. `started` is given the process as soon as it runs (to sample it).
 */
export function cliOnce(
  args: readonly string[],
  apiKey: string,
  options: { nodeArgs?: readonly string[]; started?: (child: ChildProcess) => void } = {},
): Promise<CliRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cli-'));
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), packagePath('dist', 'src', 'cli', 'main.js'), ...args, '--report-dir', dir],
    {
      env: { PATH: process.env['PATH'] ?? '', PETSTORE_API_KEY: apiKey },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  options.started?.(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - began;
      const file = path.join(dir, 'report.json');
      try {
        const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CliRun['report']) : undefined;
        resolve({ code, wallMs, stderr, report });
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
