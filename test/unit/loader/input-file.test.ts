/** Hostile input files: only regular files of bounded size and UTF-8 are read, alias bombs are bounded, every problem is printed once and located. */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { decodeInputFile, InputFileError, InvalidUtf8Error, MAX_INPUT_FILE_BYTES, readInputFile } from '../../../src/loader/input-file.js';
import { listenLocally, runCli, tempDir } from '../../helpers.js';

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
  t.equal(
    await reason(readInputFile(fifo)),
    'a named pipe, not a regular file: only regular files are read',
    'a named pipe is not opened for a writer that never comes',
  );
  t.ok(performance.now() - started < 1000, 'at once');
  t.equal(await reason(readInputFile(dir)), 'a directory, not a regular file: only regular files are read');
  t.equal(await reason(readInputFile(big)), '1.0 MiB, above the limit of 1.0 MiB for this file');
  t.equal(await reason(readInputFile(path.join(dir, 'missing.yaml'))), 'cannot read (ENOENT)');
  t.equal(await readInputFile(fine), 'title: é\n');
  t.equal(await reason(readInputFile(fine, 4)), '10 bytes, above the limit of 4 bytes for this file');
});

t.test(
  'a scenarios folder with a named pipe, an alias bomb and an oversized file: exit 2, every problem once, each at file:line:col',
  async (t) => {
    const dir = await tempDir();
    const scenarios = path.join(dir, 'scenarios');
    await mkdir(scenarios);
    execFileSync('mkfifo', [path.join(scenarios, 'a-pipe.yaml')]);
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++)
      laughs.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
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
  },
);

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

t.test('decodeInputFile: UTF-8 only, refused at line:col with the bytes; a UTF-8 byte order mark is dropped', async (t) => {
  const bytes = (...parts: Array<string | number[]>): Buffer => Buffer.concat(parts.map((p) => Buffer.from(p)));
  const outcome = (input: Buffer, secret = false): string => {
    try {
      return `text ${JSON.stringify(decodeInputFile(input, secret))}`;
    } catch (error) {
      return error instanceof InvalidUtf8Error
        ? `${error.line}:${error.column}: ${error.message}`
        : `not an InvalidUtf8Error: ${String(error)}`;
    }
  };
  const rows: Array<[string, Buffer, boolean, string]> = [
    ['UTF-8 text', bytes('title: café\n'), false, 'text "title: café\\n"'],
    ['a UTF-8 byte order mark: dropped', bytes([0xef, 0xbb, 0xbf], 'a: é\n'), false, 'text "a: é\\n"'],
    ['a byte order mark alone', bytes([0xef, 0xbb, 0xbf]), false, 'text ""'],
    ['a second byte order mark is text', bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], 'x'), false, 'text "\uFEFFx"'],
    ['empty', bytes(''), false, 'text ""'],
    [
      'a Latin-1 é',
      bytes('a: 1\n# caf', [0xe9], ' t\n'),
      false,
      '2:6: not valid UTF-8: byte 0xE9 starts no valid sequence (bytes e9 20 74); save the file as UTF-8',
    ],
    [
      'after a byte order mark: its column does not count it',
      bytes([0xef, 0xbb, 0xbf], 'ab', [0xff]),
      false,
      '1:3: not valid UTF-8: byte 0xFF starts no valid sequence; save the file as UTF-8',
    ],
    [
      'a stray continuation byte after é',
      bytes('é', [0x80]),
      false,
      '1:2: not valid UTF-8: byte 0x80 starts no valid sequence; save the file as UTF-8',
    ],
    [
      'a sequence cut at the end of the file',
      bytes('k: v', [0xe2, 0x82]),
      false,
      '1:5: not valid UTF-8: byte 0xE2 starts no valid sequence (bytes e2 82); save the file as UTF-8',
    ],
    [
      'UTF-16 LE',
      bytes([0xff, 0xfe], 'k\0'),
      false,
      '1:1: not valid UTF-8: the file is UTF-16 (it starts with a UTF-16 byte order mark); save the file as UTF-8',
    ],
    [
      'UTF-16 BE',
      bytes([0xfe, 0xff], '\0k'),
      false,
      '1:1: not valid UTF-8: the file is UTF-16 (it starts with a UTF-16 byte order mark); save the file as UTF-8',
    ],
    [
      'a secret: the bytes are not told',
      bytes('sk-', [0xe9], 'xyz'),
      true,
      '1:4: not valid UTF-8: a byte there starts no valid sequence (the bytes are not shown: the file holds a secret); save the file as UTF-8',
    ],
  ];
  for (const [name, input, secret, expected] of rows) t.equal(outcome(input, secret), expected, name);
});

t.test('readInputFile refuses a file that is not UTF-8, and drops a byte order mark', async (t) => {
  const dir = await tempDir();
  const bad = path.join(dir, 'bad.yaml');
  await writeFile(bad, Buffer.concat([Buffer.from('title: x\nname: caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
  const error = await readInputFile(bad).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(error instanceof InvalidUtf8Error && error instanceof InputFileError, 'an InputFileError');
  t.match(error, { code: 'ERR_NOT_UTF8', line: 2, column: 10 });
  const bom = path.join(dir, 'bom.yaml');
  await writeFile(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('title: x\n')]));
  t.equal(await readInputFile(bom), 'title: x\n');
});

t.test('an input file that is not UTF-8 is refused with one line naming file:line:col and the bytes, before any request', async (t) => {
  let requests = 0;
  const base = await listenLocally(
    createServer((_req, res) => {
      requests += 1;
      res.writeHead(503).end();
    }),
  );
  const dir = await tempDir();
  const latin1 = (before: string, after: string): Buffer => Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);
  const KEY = 'sk-input-files-0123456789';
  await mkdir(path.join(dir, 'scenarios'));
  await writeFile(
    path.join(dir, 'scenarios', 'latin1.yaml'),
    latin1(
      'operation: listPets\ncases:\n  - id: listPets.caf',
      '\n    title: A Latin-1 title\n    request: { method: GET, path: /pets }\n    expect: { status: 200 }\n',
    ),
  );
  await writeFile(
    path.join(dir, 'profile.yaml'),
    latin1(
      '# caf',
      ' tiny load\ntitle: Tiny\nconnections: 1\nduration: 1\nqueries:\n  - { weight: 1 }\nthresholds:\n  errors: { max: 0 }\n',
    ),
  );
  await writeFile(path.join(dir, 'config.yaml'), latin1(`baseUrl: ${base}\nheaders:\n  X-Caf`, ': yes\n'));
  await writeFile(path.join(dir, 'key'), latin1('sk-live-', 'tait\n'));
  await writeFile(path.join(dir, 'a.json'), latin1('{\n  "load": { "profile": { "name": "caf', '" } }\n}\n'));
  await writeFile(path.join(dir, 'b.json'), '{}\n');
  const env = { PETSTORE_API_KEY: KEY };
  const rows: Array<[string, string[], Record<string, string>, RegExp]> = [
    [
      'a scenario file',
      ['run', '--base-url', base, '--scenarios', path.join(dir, 'scenarios'), '--report-dir', dir],
      env,
      /^petstore-conformance: \S*scenarios\/latin1\.yaml:3:21: not valid UTF-8: byte 0xE9 starts no valid sequence \(bytes e9 0a 20\); save the file as UTF-8\n$/,
    ],
    [
      'a load profile',
      ['load', path.join(dir, 'profile.yaml'), '--base-url', base, '--report-dir', dir],
      env,
      /^petstore-conformance: \S*profile\.yaml:1:6: not valid UTF-8: byte 0xE9 starts no valid sequence \(bytes e9 20 74\); save the file as UTF-8\n$/,
    ],
    [
      'a configuration file',
      ['run', '--config', path.join(dir, 'config.yaml'), '--report-dir', dir],
      env,
      /^petstore-conformance: \S*config\.yaml:3:8: not valid UTF-8: byte 0xE9 starts no valid sequence \(bytes e9 3a 20\); save the file as UTF-8\n$/,
    ],
    [
      'an API key file (its bytes untold)',
      ['run', '--base-url', base, '--api-key-file', path.join(dir, 'key'), '--report-dir', dir],
      {},
      /^petstore-conformance: --api-key-file \S*key:1:9: not valid UTF-8: a byte there starts no valid sequence \(the bytes are not shown: the file holds a secret\); save the file as UTF-8\n$/,
    ],
    [
      'a report given to merge',
      ['merge', path.join(dir, 'a.json'), path.join(dir, 'b.json'), '--report-dir', path.join(dir, 'merged')],
      {},
      /^petstore-conformance: \S*a\.json:2:38: not valid UTF-8: byte 0xE9 starts no valid sequence \(bytes e9 22 20\); save the file as UTF-8\n$/,
    ],
  ];
  for (const [what, args, rowEnv, line] of rows) {
    const { code, stdout, stderr } = await runCli(args, rowEnv);
    t.equal(code, 2, `${what}: exit 2`);
    t.match(stderr, line, `${what}: one line, at file:line:col, with the bytes`);
    t.equal(stdout, '', `${what}: nothing printed`);
    t.equal(requests, 0, `${what}: no request was sent`);
  }
  t.notMatch((await runCli(rows[3]?.[1] ?? [], {})).stderr, /sk-live|tait|e9/, 'nothing of the key file is echoed');
});
