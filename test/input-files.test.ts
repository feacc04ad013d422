/** Hostile input files: only regular files of bounded size are read, alias bombs are bounded, every problem is printed once and located. */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputFileError, MAX_INPUT_FILE_BYTES, readInputFile } from '../dist/loader/input-file.js';
import { runCli, tempDir } from './helpers.js';

const reason = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'read',
    (error: unknown) => (error instanceof InputFileError ? error.message : `not an InputFileError: ${String(error)}`),
  );

t.test('readInputFile: regular files within the limit only, refused before they are read', async (t) => {
  const dir = await tempDir();
  const fifo = path.join(dir, 'x.yaml');
  execFileSync('mkfifo', [fifo]);
  const big = path.join(dir, 'big.yaml');
  await writeFile(big, Buffer.alloc(MAX_INPUT_FILE_BYTES + 1, 0x20));
  const fine = path.join(dir, 'fine.yaml');
  await writeFile(fine, 'title: é\n');
  const started = performance.now();
  t.equal(await reason(readInputFile(fifo)), 'a named pipe, not a regular file: only regular files are read', 'a named pipe is not opened for a writer that never comes');
  t.ok(performance.now() - started < 1000, 'at once');
  t.equal(await reason(readInputFile(dir)), 'a directory, not a regular file: only regular files are read');
  t.equal(await reason(readInputFile(big)), '1.0 MiB, above the limit of 1.0 MiB for this file');
  t.equal(await reason(readInputFile(path.join(dir, 'missing.yaml'))), 'cannot read (ENOENT)');
  t.equal(await readInputFile(fine), 'title: é\n');
  t.equal(await reason(readInputFile(fine, 4)), '10 bytes, above the limit of 4 bytes for this file');
});

t.test('a scenarios folder with a named pipe, an alias bomb and an oversized file: exit 2, every problem once, each at file:line:col', async (t) => {
  const dir = await tempDir();
  const scenarios = path.join(dir, 'scenarios');
  await mkdir(scenarios);
  execFileSync('mkfifo', [path.join(scenarios, 'a-pipe.yaml')]);
  const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
  await writeFile(path.join(scenarios, 'b-bomb.yaml'), `${laughs.join('\n')}\n`);
  await writeFile(path.join(scenarios, 'c-big.yaml'), `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
  const started = performance.now();
  const { code, stderr } = await runCli(['run', '--scenarios', scenarios]);
  t.equal(code, 2);
  t.ok(performance.now() - started < 5000, 'promptly, not after seconds of expansion');
  t.notMatch(stderr, /internal error|at .*\.js:\d+/, 'no internal error, no stack trace');
  t.match(stderr, /a-pipe\.yaml:1:1: a named pipe, not a regular file: only regular files are read/);
  t.match(stderr, /b-bomb\.yaml:1:1: the YAML cannot be expanded: .* \(at most 100 alias expansions\)/);
  t.match(stderr, /c-big\.yaml:1:1: 2\.0 MiB, above the limit of 1\.0 MiB for this file/);
  for (const name of ['a-pipe', 'b-bomb', 'c-big']) t.equal(stderr.split(`${name}.yaml:`).length - 1, 1, `${name} is named once`);
});

t.test('an API key file that is a named pipe or too large is refused with one line', async (t) => {
  const dir = await tempDir();
  const fifo = path.join(dir, 'key');
  execFileSync('mkfifo', [fifo]);
  const pipe = await runCli(['run', '--base-url', 'http://127.0.0.1:9/v1', '--api-key-file', fifo]);
  t.equal(pipe.code, 2);
  t.match(pipe.stderr, /--api-key-file .*key: a named pipe, not a regular file/);
  const big = path.join(dir, 'big-key');
  await writeFile(big, Buffer.alloc(2 * 1024 * 1024, 0x61));
  const large = await runCli(['run', '--base-url', 'http://127.0.0.1:9/v1', '--api-key-file', big]);
  t.equal(large.code, 2);
  t.match(large.stderr, /--api-key-file .*big-key: 2\.0 MiB, above the limit of 1\.0 MiB/);
  t.notMatch(large.stderr, /aaaa/, 'nothing of the file is echoed');
});
