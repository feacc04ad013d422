/**
 * The package as a user installs it: `npm pack`, the tarball laid out in an empty folder as npm installs it, then
 * `petstore-conformance --help` and a run against `serve`, both from there.
 */
import t from 'tap';
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { asUserStarts, root, tempDir, writeReadmeTeamExample } from '../helpers.js';

const execute = promisify(execFile);
const run = (
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ stdout: string; stderr: string }> => execute(...asUserStarts(command, args), { ...options, encoding: 'utf8' });
const KEY = 'package-test-key-5c1e';

t.test('the packed tarball installs without a build and runs from the install', async (t) => {
  const dir = await tempDir();
  // dist is built before the slow tier's tests (test:slow's `--before`); packing again must not rebuild (and must not need dev dependencies).
  const { stdout: packed } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root });
  const [manifest] = JSON.parse(packed) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = (manifest?.files ?? []).map((f) => f.path);
  t.ok(
    files.includes('LICENSE') && files.includes('README.md') && files.includes('dist/src/cli/main.js'),
    'LICENSE, README and the CLI are in',
  );
  // The README leads to these pages; an installed package's README must not lead nowhere.
  const linked = [...(await readFile(path.join(root, 'README.md'), 'utf8')).matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)].map(
    (m) => m[1] as string,
  );
  t.ok(linked.length >= 5, `${linked.length} docs/ pages linked from the README`);
  t.same(
    linked.filter((page) => !files.includes(page)),
    [],
    'every docs/ page the README links to is in',
  );
  t.ok(
    files.some((f) => f.startsWith('schemas/')) &&
      files.some((f) => f.startsWith('scenarios/')) &&
      files.some((f) => f.startsWith('suites/')),
    'schemas, scenarios and suites are in',
  );
  t.same(
    files.filter((f) => /\.map$|\.d\.ts$|^dist\/tools\/|^src\/|^tools\/|^test\//.test(f)),
    [],
    'no source maps without sources, no dev-only tools, no sources or tests',
  );
  t.same(
    files.filter((f) => /fault|fixture/.test(f)),
    [],
    'no test-only server or fault fixture',
  );
  t.ok(
    files.includes('dist/src/loader/precompiled-validators.js') && files.includes('dist/src/loader/parsed-yaml.json'),
    'what the build precompiled is in: an install neither compiles schemas nor parses its own YAML',
  );

  // Installed as npm lays a package out: the tarball unpacked under node_modules, beside its dependencies (this checkout's,
  // since tests reach no registry), its bin run as npm's shim runs it.
  const app = path.join(dir, 'app');
  const installed = path.join(app, 'node_modules', 'petstore-conformance');
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', path.join(dir, manifest?.filename ?? ''), '-C', installed, '--strip-components=1']);
  for (const entry of await readdir(path.join(root, 'node_modules'))) {
    if (!entry.startsWith('.')) await symlink(path.join(root, 'node_modules', entry), path.join(app, 'node_modules', entry));
  }
  const pkg = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    scripts: Record<string, string>;
  };
  t.same(
    Object.keys(pkg.scripts).filter((name) => /^(pre|post)?install$|^prepare$/.test(name)),
    [],
    'no script runs at install: nothing is built there',
  );
  const main = path.join(installed, pkg.bin['petstore-conformance'] ?? '');
  t.match(await readFile(main, 'utf8'), /^#!\/usr\/bin\/env node\n/, 'the bin is a node script');
  const env = { PATH: process.env['PATH'] ?? '', PETSTORE_API_KEY: KEY };
  const bin = (args: string[]) => run(process.execPath, [main, ...args], { cwd: app, env });
  const help = await bin(['--help']);
  t.match(help.stdout, /^petstore-conformance: conformance and load tests/);

  const server = spawn(...asUserStarts(process.execPath, [main, 'serve', '--port', '0']), {
    cwd: app,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => void server.kill('SIGKILL'));
  let serverErr = '';
  server.stderr.on('data', (chunk: Buffer) => (serverErr += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+\/v1)/.exec(seen);
      if (match) resolve(match[1] as string);
    });
    server.once('exit', (code) => reject(new Error(`serve exited ${String(code)}`)));
  });
  const reports = path.join(app, 'reports');
  const result = await bin(['run', '--base-url', baseUrl, '--suite', 'limits', '--report-dir', reports, '-q']);
  t.match(result.stdout, /verdict: PASSED/, 'a run from the installed package passes the reference server');
  t.ok((await readdir(reports)).includes('report.json'));
  // A team's own suite and cases, from its folder beside the install (the package's suites/ lies under node_modules).
  await writeReadmeTeamExample(app);
  const team = await bin(['run', '--base-url', baseUrl, '--scenarios', 'team-checks', '--suite', 'team', '--reporter', 'console']);
  t.match(team.stdout, /2 passed, 0 failed/, "docs/scenarios.md's team example runs from the installed package as written");
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  t.equal(await exited, 0, 'serve stops on SIGTERM with 0: stopping is how a server ends, not a failed run');
  t.equal(serverErr, 'petstore-conformance: SIGTERM: stopping the reference server\n', 'and says only that: serve writes no reports');
});
