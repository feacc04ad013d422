/**
 * What can run here of the container and of deploy/ (this machine has no container engine and no cluster):
 * - docs/ci.md's `docker run`, emulated: the entrypoint run as the uid `--user` gives (one with no account, as a host user's
 *   is in the image), in a folder that uid owns as the mount of the image's working directory; and a reports folder Docker
 *   created (root's) ending in one line that says whose folder it is and what to do. Needs root to change uid (setpriv);
 *   skipped, saying so, otherwise.
 * - the pods' commands of deploy/shards and deploy/nightly, run by sh as the container runs them against the reference server,
 *   their output kept as the pod's log (the nightly twice, a folder standing for its volume: the second night compared with
 *   the first's report); then deploy/shards/run.sh and deploy/fetch-reports.sh against a stand-in for kubectl
 *   that answers with those logs: the shards' reports unpacked and merged when the Job completes, and when it fails, the
 *   wait ends at once and nothing is merged.
 */
import t from 'tap';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, copyFile, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { asUserStarts, cli, root, tempDir } from '../helpers.js';

const execute = promisify(execFile);
const KEY = 'deploy-key-2d9e41';

interface Exec {
  code: number;
  stdout: string;
  stderr: string;
}
const settle = (run: Promise<{ stdout: string; stderr: string }>): Promise<Exec> =>
  run.then(
    (r) => ({ code: 0, ...r }),
    (e: Exec) => e,
  );

/** Words as a shell splits a simple command line: spaces separate, double quotes group (what docs/ci.md's line uses). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

const page = await readFile(path.join(root, 'docs/ci.md'), 'utf8');
/** docs/ci.md's docker run ("Container image"), as words. */
const argv = words(/^docker run .*$/m.exec(page)?.[0] ?? '');
/** The arguments it gives the entrypoint. */
const args = argv.slice(argv.findIndex((word) => /^petstore-conformance:/.test(word)) + 1);

t.test("docs/ci.md's docker run: the caller's uid, the current folder mounted as the image's working directory", async (t) => {
  const user = argv[argv.indexOf('--user') + 1];
  const [host, mounted] = (argv[argv.indexOf('-v') + 1] ?? '').split(':');
  t.equal(user, '$(id -u):$(id -g)', 'it runs as the caller');
  t.equal(host, '$PWD', 'it mounts the current folder, which exists and is the caller’s: Docker creates nothing');
  const dockerfile = await readFile(path.join(root, 'Dockerfile'), 'utf8');
  const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  t.equal(/^WORKDIR (\S+)$/m.exec(final)?.[1], mounted, "the mount is the image's working directory, where reports/ goes");
  t.notMatch(final, /^VOLUME /m, 'no VOLUME: an anonymous volume would hide reports/ of the mounted folder');
  t.match(final, /^ENTRYPOINT \["petstore-conformance"\]$/m);
  t.match(args, ['run', '--base-url', /^https:/]);
});

/** The uid the emulation runs as: no account, as a host user's uid has none in the image. */
const OTHER_UID = 4321;

/** Why the emulation cannot run here: it needs root and setpriv, and a checkout another uid can read (a `mktemp -d` clone is not). */
function cannotSetUid(): string | false {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/setpriv'))
    return 'changing uid needs root and setpriv: the emulation of docker run --user is not run here';
  const readable = spawnSync('setpriv', [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', 'test', '-r', cli]);
  return readable.status === 0
    ? false
    : `uid ${OTHER_UID} cannot read ${cli} (a folder above it is private): the emulation is not run here`;
}

t.test(
  "docs/ci.md's docker run, emulated: the entrypoint as a uid with no account, in the folder it mounts",
  { skip: cannotSetUid() },
  async (t) => {
    const server = await startReferenceServer({ apiKey: KEY });
    t.teardown(() => server.close());
    const uid = OTHER_UID;
    const base = await tempDir();
    await chmod(base, 0o755);
    const asContainer = (cwd: string, runArgs: string[]) =>
      settle(
        execute(
          ...asUserStarts('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, cli, ...runArgs]),
          // What docker run passes: -e PETSTORE_API_KEY, and HOME=/ for a uid with no account.
          {
            cwd,
            env: { PATH: process.env['PATH'] ?? '', HOME: '/', PETSTORE_API_KEY: KEY, NO_COLOR: '1' },
            encoding: 'utf8',
            timeout: 60_000,
          },
        ),
      );
    // The current folder of a host user whose uid is not the image's 1000 (GitHub's runners are 1001), mounted at the working directory.
    const pwd = path.join(base, 'pwd');
    await mkdir(pwd);
    await chown(pwd, uid, uid);
    // docs/ci.md's arguments, the base URL this server's, one suite to keep the test short.
    const runArgs = [...args.slice(0, 2), server.baseUrl, '--suite', 'limits'];
    const passed = await asContainer(pwd, runArgs);
    t.equal(passed.code, 0, passed.stderr);
    const reports = path.join(pwd, 'reports');
    t.equal((await stat(reports)).uid, uid, 'reports/ belongs to the caller');
    t.equal((await stat(path.join(reports, 'report.json'))).uid, uid, 'and so do the reports');

    // The form the docs used to give: -v "$PWD/reports:/data/reports" with no reports/ yet, which Docker creates as root.
    const created = path.join(base, 'created', 'reports');
    await mkdir(created, { recursive: true, mode: 0o755 });
    const refused = await asContainer(path.dirname(created), runArgs);
    t.equal(refused.code, 2);
    t.equal(
      refused.stderr,
      `petstore-conformance: cannot write the reports to reports (EACCES): ${created} belongs to uid 0 (mode 755) and this process runs as uid ${uid}: run as the folder's owner, or make it writable by uid ${uid} (a container: docker run --user "$(id -u):$(id -g)" -v "$PWD:/data" writes reports/ in the current folder); nothing was sent\n`,
      'one line: whose folder, which uid, what to do',
    );
    t.equal(refused.stdout, '');
  },
);

/** A load profile that its request budget ends in a fraction of a second. */
const PROFILE = `title: deploy test load
connections: 2
duration: 3
maxRequests: 300
timeout: 3
queries:
  - { weight: 1 }
thresholds:
  errors: { max: 0 }
`;

interface Container {
  command: string[];
}
interface PodSpec {
  containers: Container[];
}

async function podCommand(file: string, spec: (doc: Record<string, unknown>) => PodSpec): Promise<string[]> {
  const doc = parse(await readFile(path.join(root, 'deploy', file), 'utf8')) as Record<string, unknown>;
  return spec(doc).containers[0]?.command ?? [];
}

t.test('deploy/: the pods print their reports, run.sh fetches and merges them, and a failed Job ends the wait at once', async (t) => {
  const server = await startReferenceServer({ apiKey: KEY });
  t.teardown(() => server.close());
  const dir = await tempDir();
  // petstore-conformance as the image has it on PATH; kubectl as a stand-in that answers with the pods' logs.
  const bin = path.join(dir, 'bin');
  await mkdir(bin);
  await writeFile(path.join(bin, 'petstore-conformance'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  await writeFile(
    path.join(bin, 'kubectl'),
    `#!/usr/bin/env bash
printf '%s\\n' "$*" >> "$KUBECTL_LOG"
case $1 in
  delete | apply) ;;
  wait) case "$*" in *"--for=condition=$KUBECTL_OUTCOME "*) ;; *) exec sleep 600 ;; esac ;;
  get) cat "$KUBECTL_PODS" ;;
  logs) cat "$KUBECTL_LOGS/$2" ;;
  *) echo "kubectl stand-in: $*" >&2; exit 1 ;;
esac
`,
  );
  for (const name of ['petstore-conformance', 'kubectl']) await chmod(path.join(bin, name), 0o755);
  await writeFile(path.join(dir, 'profile.yaml'), PROFILE);
  await writeFile(path.join(dir, 'config.yaml'), 'suites: [limits]\n');
  const logs = path.join(dir, 'logs');
  await mkdir(logs);
  const env = { PATH: `${bin}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' };
  /** A pod: its command run by sh with the pod's environment, stdout and stderr both in its log, as the container runtime keeps them. */
  const pod = async (name: string, command: string[], extra: Record<string, string> = {}): Promise<number> => {
    const tmp = path.join(dir, `tmp-${name}`);
    await mkdir(tmp);
    const [program, ...args] = command;
    const log: Buffer[] = [];
    const code = await new Promise<number>((resolve) => {
      const child = spawn(program ?? 'sh', args, {
        env: {
          ...env,
          TMPDIR: tmp,
          PETSTORE_BASE_URL: server.baseUrl,
          PETSTORE_API_KEY: KEY,
          PETSTORE_LOAD_PROFILE: path.join(dir, 'profile.yaml'),
          ...extra,
        },
        timeout: 60_000,
      });
      child.stdout.on('data', (d: Buffer) => log.push(d));
      child.stderr.on('data', (d: Buffer) => log.push(d));
      child.on('close', (c) => resolve(c ?? -1));
    });
    await writeFile(path.join(logs, name), Buffer.concat(log));
    return code;
  };
  const shard = await podCommand('shards/load-shards-job.yaml', (doc) => (doc['spec'] as { template: { spec: PodSpec } }).template.spec);
  const nightly = await podCommand(
    'nightly/cronjob.yaml',
    (doc) => (doc['spec'] as { jobTemplate: { spec: { template: { spec: PodSpec } } } }).jobTemplate.spec.template.spec,
  );
  const baselineDir = path.join(dir, 'baseline');
  await mkdir(baselineDir);
  const nightlyEnv = { PETSTORE_CONFIG: path.join(dir, 'config.yaml'), PETSTORE_BASELINE_DIR: baselineDir };
  const codes = await Promise.all([
    pod('petstore-load-shards-0-x1', shard),
    // The nightly pod, its suites cut to one by a configuration file (PETSTORE_CONFIG) to keep the test short; its volume a folder.
    pod('petstore-conformance-nightly-1-z3', nightly, nightlyEnv),
  ]);
  t.same(codes, [0, 0], 'the pods passed');
  // The second night: compared with the first, whose report the volume kept; then its own report is kept there.
  t.match(await readFile(path.join(logs, 'petstore-conformance-nightly-1-z3'), 'utf8'), /^petstore-conformance: no baseline yet /m);
  const kept = path.join(baselineDir, 'report.json');
  const first = JSON.parse(await readFile(kept, 'utf8')) as { meta: { runId: string } };
  // A load of 300 requests on a busy machine may differ beyond the tolerance: a regression fails the night (exit 1).
  const secondNight = await pod('petstore-conformance-nightly-2-w4', nightly, nightlyEnv);
  t.ok(secondNight === 0 || secondNight === 1, `the second night was judged (exit ${secondNight})`);
  const second = JSON.parse(await readFile(kept, 'utf8')) as { meta: { runId: string }; load: { baseline?: { file: string } } };
  t.not(second.meta.runId, first.meta.runId, "the second night's report replaced the first's");
  t.equal(second.load.baseline?.file, kept, "and was compared with the first's");
  // The second shard's log: the first's again (one load fewer to run here; the merge adds them all the same).
  await copyFile(path.join(logs, 'petstore-load-shards-0-x1'), path.join(logs, 'petstore-load-shards-1-y2'));
  t.match(await readFile(path.join(logs, 'petstore-load-shards-0-x1'), 'utf8'), /^petstore-conformance reports begin$/m);

  const pods = path.join(dir, 'pods');
  await writeFile(pods, 'petstore-load-shards-0-x1 0\npetstore-load-shards-1-y2 1\n');
  const kubectl = (outcome: string, log: string) => ({
    ...env,
    KUBECTL_OUTCOME: outcome,
    KUBECTL_PODS: pods,
    KUBECTL_LOGS: logs,
    KUBECTL_LOG: path.join(dir, log),
  });
  const runSh = (out: string, outcome: string) =>
    settle(
      execute(...asUserStarts('bash', [path.join(root, 'deploy/shards/run.sh'), out]), {
        env: kubectl(outcome, `kubectl-${outcome}.log`),
        encoding: 'utf8',
        timeout: 60_000,
      }),
    );

  const completed = path.join(dir, 'completed');
  const merged = await runSh(completed, 'complete');
  t.equal(merged.code, 0, merged.stderr);
  for (const shardDir of ['shard-0', 'shard-1'])
    t.ok(existsSync(path.join(completed, shardDir, 'report.json')), `${shardDir}'s report, unpacked`);
  const report = JSON.parse(await readFile(path.join(completed, 'merged', 'report.json'), 'utf8')) as { verdict: string };
  t.equal(report.verdict, 'passed', 'merged and judged');
  // The wait for "failed" starts with the one for "complete", but may be stopped before the stand-in logs it.
  const calls = (await readFile(path.join(dir, 'kubectl-complete.log'), 'utf8')).split('\n').filter(Boolean);
  t.same(
    calls.filter((call) => !call.startsWith('wait --for=condition=failed ')),
    [
      'delete job petstore-load-shards --ignore-not-found --wait=true',
      `apply -k ${path.join(root, 'deploy', 'shards')}`,
      'wait --for=condition=complete --timeout=25m job/petstore-load-shards',
      `get pods -l job-name=petstore-load-shards -o jsonpath={range .items[*]}{.metadata.name}{" "}{.metadata.annotations.batch\\.kubernetes\\.io/job-completion-index}{"\\n"}{end}`,
      'logs petstore-load-shards-0-x1',
      'logs petstore-load-shards-1-y2',
    ],
    'the previous Job deleted, this one applied, waited for, then the logs',
  );

  // The Job failed: the wait for "complete" would sit out its timeout, the one for "failed" ends the run (the stand-in's
  // other wait sleeps ten minutes: run.sh ends only because it stops it).
  const failedDir = path.join(dir, 'failed');
  const failed = await runSh(failedDir, 'failed');
  t.equal(failed.code, 2);
  t.match(
    await readFile(path.join(dir, 'kubectl-failed.log'), 'utf8'),
    /^wait --for=condition=failed --timeout=25m job\/petstore-load-shards$/m,
    'the wait that ended it',
  );
  t.match(failed.stderr, /^petstore-conformance: job\/petstore-load-shards failed \(a shard could not run, or the deadline passed\)/m);
  t.ok(existsSync(path.join(failedDir, 'shard-0', 'report.json')), "the shards' reports are fetched all the same");
  t.notOk(existsSync(path.join(failedDir, 'merged')), 'nothing is merged');

  // The nightly Job's one pod: its reports straight into the folder.
  await writeFile(pods, 'petstore-conformance-nightly-1-z3 \n');
  const nightlyDir = path.join(dir, 'nightly');
  const fetched = await settle(
    execute(...asUserStarts('bash', [path.join(root, 'deploy/fetch-reports.sh'), 'petstore-conformance-nightly-1', nightlyDir]), {
      env: kubectl('complete', 'kubectl-nightly.log'),
      encoding: 'utf8',
    }),
  );
  t.equal(fetched.code, 0, fetched.stderr);
  t.same((await readdir(nightlyDir)).sort(), ['junit.xml', 'report.html', 'report.json', 'summary.md']);
});
