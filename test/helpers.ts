/** Shared test helpers: run the real CLI, start reference servers, make temp folders. */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root. */
export const root = fileURLToPath(new URL('../', import.meta.url));

/** The built CLI entry point. */
export const cli = path.join(root, 'dist/cli/main.js');

/** What a CLI run produced. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with a clean environment (plus `env`), bounded in time. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const base: Record<string, string> = { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' };
    const child = spawn(process.execPath, [cli, ...args], { env: { ...base, ...env }, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'psc-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}
