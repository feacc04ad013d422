/**
 * The real process's standard output closed early (`run | head -1`) or on a full device (`> /dev/full`): the run goes on,
 * every report is written, the exit code is the verdict's, and no stack trace is printed. Two of the suite's runs on the
 * embedded server, in a folder of their own.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { asUserStarts, cli, tempDir } from '../helpers.js';

const REPORTS = ['junit.xml', 'report.html', 'report.json', 'summary.md'];

/** Runs `run --suite limits` in `dir` with `stdout` as its standard output (a pipe is closed after its first line), bounded by a kill. */
function runInto(dir: string, stdout: 'pipe' | number) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(...asUserStarts(process.execPath, [cli, 'run', '--suite', 'limits']), {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
      stdio: ['ignore', stdout, 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // As head -1 does: read the first line, then close the pipe.
    child.stdout?.once('data', () => child.stdout?.destroy());
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

t.test('run | head -1: exit 0, every report written, nothing on stderr', async (t) => {
  const dir = await tempDir();
  const run = await runInto(dir, 'pipe');
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stderr, '', 'no stack trace, no line: the reader went away, as it may');
  t.same((await readdir(`${dir}/reports`)).sort(), REPORTS);
});

t.test(
  'run > /dev/full: exit 0, every report written, one line on stderr',
  { skip: existsSync('/dev/full') ? false : 'no /dev/full here' },
  async (t) => {
    const dir = await tempDir();
    const full = openSync('/dev/full', 'w');
    const run = await runInto(dir, full).finally(() => closeSync(full));
    t.equal(run.code, 0, run.stderr);
    t.match(run.stderr, /^petstore-conformance: standard output failed \(ENOSPC\): .*\n$/, 'one line that names the full device');
    t.same((await readdir(`${dir}/reports`)).sort(), REPORTS);
  },
);
