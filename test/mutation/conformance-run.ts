/**
 * What Stryker runs against each mutant of the reference pet store (`npm run mutation`, never `npm test`): a whole
 * conformance run, in this process, against the embedded reference server (no base URL), at a fixed seed; and the
 * deprecation suite on the day getPet is removed (the embedded server keeps the suite's clock). The mutant is killed when
 * a verdict is not passed (an exit code other than 0).
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { cli } from '../../src/cli/command.js';

/** Runs `petstore-conformance run` in process with these arguments: its exit code and the tail of its console. */
async function conformanceRun(args: readonly string[]): Promise<{ code: number; output: string }> {
  const reportDir = await mkdtemp(path.join(tmpdir(), 'petstore-mutation-'));
  let output = '';
  const sink = (): PassThrough => {
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => (output += d.toString()));
    return stream;
  };
  try {
    const code = await cli(['run', '--seed', '1', '--quiet', '--reporter', 'console', '--report-dir', reportDir, ...args], {
      stdout: sink(),
      stderr: sink(),
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
      signal: new AbortController().signal,
    });
    return { code, output: output.slice(-3000) };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

t.test('a whole run against the embedded reference server passes', async (t) => {
  const { code, output } = await conformanceRun([]);
  t.equal(code, 0, 'exit code 0 (verdict passed)', { output });
});

t.test('on the day getPet is removed, the deprecation suite passes', async (t) => {
  const { code, output } = await conformanceRun(['--now', '2030-12-05T00:00:00Z', '--suite', 'deprecation']);
  t.equal(code, 0, 'exit code 0 (verdict passed)', { output });
});
