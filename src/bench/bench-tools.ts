/** What the benches share: a fast fixed-body server, server processes started and awaited, medians. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
