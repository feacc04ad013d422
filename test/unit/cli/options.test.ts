/**
 * The option table and what is read off it: every command's help, the configuration schema, meta.options and its
 * schema; the layers (defaults, configuration file, environment, flags) merged as typed values, a bad value named
 * where it came from; and the configuration keys that only the table gave (maxWrites, timeoutMs, ...) at work. No network.
 */
import t from 'tap';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commandHelp, HELP, parseFlags, SHIPPED_PROFILES, shownDefault, shownFlag } from '../../../src/cli/args.js';
import {
  configSchemaProperties,
  FILE_ONLY_KEYS,
  optionEntries,
  OPTIONS,
  type AnyOptionSpec,
  type OptionCommand,
  type OptionName,
} from '../../../src/cli/options.js';
import { planLoad, planRun } from '../../../src/cli/plan.js';
import { settle, type Env } from '../../../src/cli/settings.js';
import type { SuiteConfig } from '../../../src/loader/config.js';
import { loadContract } from '../../../src/loader/contract.js';
import { packageVersion } from '../../../src/loader/package-paths.js';
import { RunError } from '../../../src/model/errors.js';
import { metricsOf } from '../../load-fixtures.js';
import { loadConfig, reportSchemaProblems, root, runCli, tempDir } from '../../helpers.js';

const contract = await loadContract(path.join(root, 'schemas'));
const COMMANDS: readonly OptionCommand[] = ['run', 'load', 'merge', 'serve', 'catalogue', 'list', 'explain'];

/** A scenario file for the folders `scenarios` names: a folder without one is refused. */
const EXTRA_SCENARIO =
  'suite: contract\noperation: listPets\ncases:\n  - { id: extra.list, title: t, clause: c, request: { method: GET, path: /pets }, expect: { status: 200 } }\n';

/** What a call threw, as a RunError (undefined when it did not throw). */
async function thrown(call: () => unknown): Promise<RunError | undefined> {
  try {
    await call();
  } catch (error) {
    return error as RunError;
  }
  return undefined;
}

/** Each option the help lists, in order, with its whole text (its wrapped lines joined). */
function listed(help: string): Array<{ name: string; text: string }> {
  const options: Array<{ name: string; text: string }> = [];
  for (const line of help.split('\n')) {
    const start = /^ {2}(?:-\w, )?--([a-z-]+)/.exec(line);
    const last = options[options.length - 1];
    if (start !== null) options.push({ name: start[1] as string, text: line.trim() });
    else if (last !== undefined && /^ {28}\S/.test(line)) last.text += ` ${line.trim()}`;
  }
  return options;
}

/** A value each kind takes, for a flag given in a test. */
function sampleArgs(name: OptionName, spec: AnyOptionSpec): string[] {
  if (spec.kind.boolean === true) return [`--${name}`];
  // A choice takes one of its words.
  const choices = spec.kind.schema['enum'];
  if (Array.isArray(choices)) return [`--${name}`, String(choices[choices.length - 1])];
  const samples: Record<string, string> = {
    integer: String(spec.kind.bounds?.min ?? 1),
    int64: '7',
    share: '0.1',
    date: '2030-12-06',
    url: 'https://x.test/v1',
    headers: 'X-Tenant: a',
    outputs: 'prometheus-rw=http://127.0.0.1:9/api/v1/write',
  };
  return [`--${name}`, samples[spec.kind.type] ?? 'x'];
}

t.test("every command's --help lists exactly the options the table gives it, each with its variable and default", async (t) => {
  for (const command of [...COMMANDS, undefined]) {
    const what = command === undefined ? '--help' : `${command} --help`;
    const help = command === undefined ? HELP : commandHelp(command);
    const shown = listed(help);
    t.same(
      shown.map((o) => o.name),
      optionEntries(command).map(([name]) => name),
      `${what}: the table's options, in its order`,
    );
    for (const { name, text } of shown) {
      const spec = (OPTIONS as Record<string, AnyOptionSpec>)[name] as AnyOptionSpec;
      t.ok(text.startsWith(shownFlag(name, spec)), `${what}: ${name} is shown as ${shownFlag(name, spec)}`);
      if (spec.env !== undefined) t.ok(text.includes(`or ${spec.env}`), `${what}: --${name} names ${spec.env}`);
      const fallback = shownDefault(spec);
      if (fallback !== undefined) t.ok(text.includes(`default: ${fallback}`), `${what}: --${name} states its default, ${fallback}`);
      if (spec.kind.repeatable === true) t.match(text, /repeat/, `${what}: --${name} says it may be repeated`);
    }
  }
});

t.test("a command takes exactly the flags its help lists; another command's flag is refused with the commands it is for", async (t) => {
  for (const command of COMMANDS) {
    const mine = new Set(listed(commandHelp(command)).map((o) => o.name));
    for (const [name, spec] of optionEntries()) {
      const error = await thrown(() => parseFlags(command, sampleArgs(name, spec)));
      if (mine.has(name)) t.equal(error, undefined, `${command} takes --${name}`);
      else
        t.equal(
          error?.message,
          `unknown option '--${name}' for '${command}' (it is for: ${spec.commands.join(', ')}) (see --help)`,
          `${command} refuses --${name}`,
        );
    }
  }
  t.equal(await thrown(() => parseFlags('run', ['-H', 'X-A: 1', '-q', '-V'])), undefined, 'the short flags');
  t.same(
    parseFlags('run', ['-qV', '-HX-A:1']).header,
    [{ name: 'X-A', value: '1', secret: false }],
    'short flags run together, a value attached',
  );
});

t.test(
  'schemas/config.schema.json holds exactly the configuration keys the table declares; every flag has a key or a reason',
  async (t) => {
    const schema = JSON.parse(await readFile(path.join(root, 'schemas/config.schema.json'), 'utf8')) as {
      properties: Record<string, unknown>;
    };
    const fromTable = configSchemaProperties();
    const fileOnly = Object.keys(FILE_ONLY_KEYS);
    t.same(
      Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !fileOnly.includes(key))),
      fromTable,
      'the properties the options give, as the table derives them',
    );
    t.same(Object.keys(schema.properties), [...Object.keys(fromTable), ...fileOnly], "in the table's order, then the file-only keys");
    const keys = optionEntries().flatMap(([, spec]) => (spec.configKey === undefined ? [] : [spec.configKey]));
    t.equal(new Set(keys).size, keys.length, 'no two options share a key');
    // The README names the options a first run needs; docs/options.md, with the configuration file, the rest.
    const docs = (await Promise.all(['README.md', 'docs/options.md'].map((page) => readFile(path.join(root, page), 'utf8')))).join('\n');
    t.same(
      [...keys, ...fileOnly].filter((key) => !docs.includes(`\`${key}\``)),
      [],
      'the README and docs/options.md list every key',
    );
    for (const [name, spec] of optionEntries()) {
      t.ok(
        (spec.configKey === undefined) !== (spec.noConfig === undefined),
        `--${name}: a configuration key or a reason for none, not both`,
      );
      if (spec.noConfig !== undefined) t.ok(spec.noConfig.length > 10, `--${name} has no key because ${spec.noConfig}`);
    }
  },
);

t.test(
  "meta.options in schemas/report.schema.json names every option the table records, and nothing else but the proxy and a merge's reports",
  async (t) => {
    const schema = JSON.parse(await readFile(path.join(root, 'schemas/report.schema.json'), 'utf8')) as {
      $defs: { meta: { properties: { options: { properties: Record<string, unknown> } } } };
    };
    const recorded = optionEntries().flatMap(([, spec]) => ('option' in spec.recorded ? [spec.recorded.option] : []));
    // Not options: the proxy comes from HTTPS_PROXY and the others, the merged reports are merge's arguments.
    t.same(Object.keys(schema.$defs.meta.properties.options.properties).sort(), [...recorded, 'proxy', 'merged'].sort());
    for (const [name, spec] of optionEntries())
      t.ok(Object.values(spec.recorded)[0], `--${name}: recorded, recorded elsewhere, or why not`);
  },
);

/** A configuration file in a fresh folder, loaded as a run loads it. */
async function configOf(text: string): Promise<SuiteConfig> {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'config.yaml'), text);
  return loadConfig(path.join(dir, 'config.yaml'), contract.fileValidator('config.schema.json'), dir);
}

t.test('layers: the default, then the configuration file, the environment, the flags; the later wins, as a typed value', async (t) => {
  const config = await configOf(
    'baseUrl: https://file.test/v1\ncategoryId: 3\ntimeoutMs: 2000\nmaxWrites: 10\nheaders:\n  X-Tenant: file\n  X-Trace: t1\n',
  );
  const env: Env = { PETSTORE_CATEGORY_ID: '5', PETSTORE_BASE_URL: 'https://env.test/v1' };
  type Row = [what: string, name: OptionName, layers: { file?: true; env?: Env; flags?: string[] }, value: unknown, from: string];
  const rows: Row[] = [
    ['the default alone', 'category-id', {}, 1, 'the default of --category-id'],
    ['the file over the default', 'category-id', { file: true }, 3, 'config.yaml:2:13: categoryId'],
    ['the environment over the file', 'category-id', { file: true, env }, 5, 'PETSTORE_CATEGORY_ID'],
    ['the flag over the environment', 'category-id', { file: true, env, flags: ['--category-id', '9'] }, 9, '--category-id'],
    ['the environment alone', 'category-id', { env }, 5, 'PETSTORE_CATEGORY_ID'],
    ['an empty variable sets nothing', 'category-id', { file: true, env: { PETSTORE_CATEGORY_ID: '' } }, 3, 'config.yaml:2:13: categoryId'],
    [
      'a bad variable a flag overrides is never read',
      'category-id',
      { env: { PETSTORE_CATEGORY_ID: 'abc' }, flags: ['--category-id', '9'] },
      9,
      '--category-id',
    ],
    ['a URL from the file', 'base-url', { file: true }, 'https://file.test/v1', 'config.yaml:1:10: baseUrl'],
    ['a URL from the environment', 'base-url', { file: true, env }, 'https://env.test/v1', 'PETSTORE_BASE_URL'],
    [
      'a URL from the flag, without its trailing slash',
      'base-url',
      { file: true, env, flags: ['--base-url', 'https://flag.test/v1/'] },
      'https://flag.test/v1',
      '--base-url',
    ],
    ['a whole number from the file, never turned back into text', 'timeout', { file: true }, 2000, 'config.yaml:3:12: timeoutMs'],
    ['a whole number from the flag', 'timeout', { file: true, flags: ['--timeout', '3000'] }, 3000, '--timeout'],
    ['maxWrites from the file (once refused as an unknown key)', 'max-writes', { file: true }, 10, 'config.yaml:4:12: maxWrites'],
    ['the default when nothing sets it', 'max-writes', {}, 500, 'the default of --max-writes'],
  ];
  for (const [what, name, layers, value, from] of rows) {
    const settled = settle('run', parseFlags('run', layers.flags ?? []), layers.env ?? {}, layers.file === true ? config : undefined);
    t.strictSame(settled.values[name], value, `${what}: --${name} is ${String(value)}`);
    t.equal(settled.origins[name]?.label, from, `${what}: from ${from}`);
  }
  const headers = settle('run', parseFlags('run', ['-H', 'X-Tenant: flag', '-H', 'X-Extra: e']), {}, config).values.header;
  t.same(
    headers?.map((h) => `${h.name}: ${h.value}`),
    ['X-Tenant: flag', 'X-Trace: t1', 'X-Extra: e'],
    'headers add up, layer on layer; the flag wins for a name the file gave',
  );
  t.strictSame(settle('load', {}, env, config).values['category-id'], 1, 'an option the command does not take keeps its default');
  t.equal(settle('load', {}, {}, config).values['max-writes'], 500, 'load ignores the keys of run');
});

t.test('a bad value is one line that names where it came from: the flag, the variable, or the file at line and column', async (t) => {
  const rows: Array<[what: string, flags: string[], env: Env, file: string | undefined, message: string | RegExp]> = [
    ['a flag out of bounds', ['--timeout', '50'], {}, undefined, "--timeout must be a whole number from 100 to 600000, got '50'"],
    ['a flag that is no number', ['--max-writes=many'], {}, undefined, "--max-writes must be a whole number from 0 to 1000000, got 'many'"],
    [
      'a variable that is no int64',
      [],
      { PETSTORE_CATEGORY_ID: 'abc' },
      undefined,
      "PETSTORE_CATEGORY_ID must be an int64 integer, got 'abc'",
    ],
    [
      'a variable that is no http URL',
      [],
      { PETSTORE_BASE_URL: 'ftp://x.test/v1' },
      undefined,
      "PETSTORE_BASE_URL must be http or https, got 'ftp:'",
    ],
    [
      'a port beyond 65535',
      ['--base-url', 'http://127.0.0.1:99999/v1'],
      {},
      undefined,
      '--base-url has port 99999: a port is a number from 1 to 65535',
    ],
    [
      'a file value out of bounds, by the schema the table gave',
      [],
      {},
      'baseUrl: https://x.test/v1\nstrict: true\ntimeoutMs: 50\n',
      /^config\.yaml:3:12: \/timeoutMs: must be >= 100$/,
    ],
    [
      'a file value the schema lets through',
      [],
      {},
      'baseUrl: https://user:pw@x.test/v1\n',
      'config.yaml:1:10: baseUrl must not carry credentials; use PETSTORE_API_KEY',
    ],
    ['a header the suite owns, in the file', [], {}, 'headers:\n  Host: x\n', /^config\.yaml:2:3: headers: Host cannot be set/],
    ['a header the suite owns, as a flag', ['-H', 'Host: x'], {}, undefined, /^--header: Host cannot be set/],
  ];
  for (const [what, flags, env, file, message] of rows) {
    const error = await thrown(async () =>
      settle('run', parseFlags('run', flags), env, file === undefined ? undefined : await configOf(file)),
    );
    t.ok(error instanceof RunError, `${what}: a RunError (exit 2)`);
    t.match(error?.message, message, what);
  }
});

t.test('the keys the table added work from a configuration file: the plan uses them and the report records them', async (t) => {
  const dir = await tempDir();
  await mkdir(path.join(dir, 'extra'));
  await writeFile(path.join(dir, 'extra', 'extra.yaml'), EXTRA_SCENARIO);
  const file = path.join(dir, 'team.yaml');
  await writeFile(
    file,
    "maxWrites: 10\nmaxExamples: 6\ntimeoutMs: 2500\nmaxResponseBytes: 65536\ncaseKinds: [fuzz]\nchecks: ['fuzz.*']\nscenarios: [extra]\nreportDir: out\nreporters: [json]\n",
  );
  const { plan, reportDir, reporters } = await planRun(parseFlags('run', ['--config', file, '--seed', '4']), {});
  t.equal(plan.settings.maxWrites, 10, 'maxWrites');
  t.same({ seed: plan.settings.seed, maxExamples: plan.settings.maxExamples }, { seed: 4, maxExamples: 6 }, 'maxExamples');
  t.equal(plan.settings.requestTimeoutMs, 2500, 'timeoutMs');
  t.equal(plan.settings.maxResponseBytes, 65536, 'maxResponseBytes');
  t.same(plan.selection.suites, ['fuzz'], 'phases');
  t.equal(reportDir, path.join(dir, 'out'), 'reportDir, relative to the file');
  t.same(reporters, ['json'], "reporters (a run used to leave the file's list unread)");
  t.match(plan.recordedOptions, {
    maxWrites: 10,
    maxExamples: 6,
    timeoutMs: 2500,
    maxResponseBytes: 65536,
    checks: ['fuzz.*'],
    scenarios: [path.join(dir, 'extra')],
    seed: 4,
    reportDir,
  });

  const flagged = await planRun(parseFlags('run', ['--config', file, '--max-writes', '3', '--timeout', '900']), {});
  t.equal(flagged.plan.settings.maxWrites, 3, 'a flag beats the file');
  t.equal(flagged.plan.recordedOptions['timeoutMs'], 900);

  // The CLI end to end: report.json records what the file set (and matches its schema: runCli checks every report it writes).
  await writeFile(file, 'maxWrites: 0\ntimeoutMs: 5000\nsuites: [lifecycle]\n');
  const result = await runCli(['--config', file, '--reporter', 'json', '--report-dir', path.join(dir, 'cli')]);
  t.equal(result.code, 0, result.stderr);
  const report = JSON.parse(await readFile(path.join(dir, 'cli', 'report.json'), 'utf8')) as {
    meta: { options: Record<string, unknown> };
    cases: Array<{ skip?: string }>;
  };
  t.match(report.meta.options, { maxWrites: 0, timeoutMs: 5000 });
  t.ok(
    report.cases.some((c) => c.skip === 'write-budget'),
    'with no writes allowed, the cases that write are skipped',
  );
});

t.test('every option the table records is in meta.options when given, for run and for load', async (t) => {
  const dir = await tempDir();
  await mkdir(path.join(dir, 'extra'));
  await writeFile(path.join(dir, 'extra', 'extra.yaml'), EXTRA_SCENARIO);
  const baseline = path.join(dir, 'baseline.json');
  // A load report of this version, of the same profile against the embedded server: a baseline the load compares with.
  const smoke = (await planLoad(['smoke'], parseFlags('load', []), {})).plan.selection.load?.profile;
  await writeFile(
    baseline,
    JSON.stringify({
      meta: {
        tool: { name: 'petstore-conformance', version: packageVersion() },
        baseUrl: 'http://127.0.0.1:1/v1',
        embeddedServer: true,
        suites: ['load'],
      },
      cases: [],
      load: { metrics: metricsOf(), profile: smoke, baseUrl: 'http://127.0.0.1:1/v1', stages: [] },
    }),
  );
  const given: Partial<Record<OptionName, string[]>> = {
    check: ['--check', 'fuzz.*', '--check', 'stateful.*'],
    scenarios: ['--scenarios', path.join(dir, 'extra')],
    load: ['--load', 'smoke'],
    baseline: ['--baseline', baseline],
    'report-dir': ['--report-dir', dir],
  };
  for (const command of ['run', 'load'] as const) {
    // The client certificate needs an https service and a real pair: test/connection-settings.test.ts sees it recorded.
    const recorded = optionEntries(command).filter(([name, spec]) => 'option' in spec.recorded && name !== 'client-cert');
    const args = recorded.flatMap(([name, spec]) => given[name] ?? sampleArgs(name, spec));
    // The seed, the examples and the sequence length are recorded when a generated phase that reads them runs.
    const planned =
      command === 'run'
        ? await planRun(parseFlags('run', [...args, '--case-kind', 'fuzz', '--case-kind', 'stateful']), {})
        : await planLoad(['smoke'], parseFlags('load', args), {});
    const keys = Object.keys(planned.plan.recordedOptions);
    for (const [name, spec] of recorded)
      if ('option' in spec.recorded)
        t.ok(keys.includes(spec.recorded.option), `${command}: --${name} is recorded as ${spec.recorded.option}`);
    t.ok(keys.includes('profile'), `${command}: the profile's name is recorded`);
    const problems = await reportSchemaProblems({ meta: { options: planned.plan.recordedOptions } });
    t.same(
      problems.filter((p) => p.startsWith('/meta/options')),
      [],
      `${command}: meta.options matches its schema`,
    );
  }
});

/** An example's words as a shell would split them (quotes kept together), without the environment it sets, its comment or its redirection. */
function exampleArgs(example: string): string[] {
  const words = (example.replace(/\s+#.*$/, '').match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((word) =>
    word.replace(/^'(.*)'$|^"(.*)"$/, '$1$2'),
  );
  const start = words.indexOf('petstore-conformance');
  const args = words.slice(start + 1);
  const redirect = args.indexOf('>');
  return redirect === -1 ? args : args.slice(0, redirect);
}

t.test("every command's help: its options under headings in the table's order, and examples that its own flags parse", async (t) => {
  const { COMMAND_USAGE, splitCommand, parseLoadFlags } = await import('../../../src/cli/args.js');
  const { SECTIONS } = await import('../../../src/cli/options.js');
  const order = Object.keys(SECTIONS);
  const sections = optionEntries().map(([, spec]) => order.indexOf(spec.section));
  t.same(
    sections,
    [...sections].sort((a, b) => a - b),
    'the table lists its options section by section, in the order of the headings',
  );
  for (const command of COMMANDS) {
    const help = commandHelp(command);
    const headings = order.filter((section) => optionEntries(command).some(([, spec]) => spec.section === section));
    const titles = headings.map((section) => SECTIONS[section as keyof typeof SECTIONS].title);
    t.same(
      titles.filter((title) => help.includes(`\n${title}\n`)),
      titles,
      `${command} --help: a heading over each group of its options`,
    );
    const { examples } = COMMAND_USAGE[command];
    t.ok(examples.length > 0 && help.includes('\nExamples:\n'), `${command} --help has examples`);
    for (const example of examples) {
      t.ok(help.includes(`  ${example}\n`), `${command} --help shows: ${example}`);
      const split = splitCommand(exampleArgs(example));
      t.equal(split.command, command, `${example}: runs ${command}`);
      const error = await thrown(() =>
        command === 'load' || command === 'merge' || command === 'explain'
          ? parseLoadFlags(split.args, command)
          : parseFlags(command, split.args),
      );
      t.equal(error, undefined, `${example}: its flags parse`);
    }
  }
  t.match(HELP, /\nExamples:\n {2}petstore-conformance run /, 'the whole help has an example of each command');
});

t.test('did you mean: the closest name within a third of its length, else the one it starts; never a guess between two', async (t) => {
  const { closest, editDistance } = await import('../../../src/model/suggest.js');
  t.equal(editDistance('auht', 'auth'), 1, 'two neighbours swapped is one edit');
  t.equal(editDistance('', 'abc'), 3);
  const suites = [
    'contract',
    'auth',
    'limits',
    'filters',
    'lifecycle',
    'errors',
    'deprecation',
    'versioning',
    'coverage',
    'fuzz',
    'stateful',
  ];
  const rows: Array<[given: string, known: readonly string[], meant: string | undefined]> = [
    ['auht', suites, 'auth'],
    ['limit', suites, 'limits'],
    ['Contract', suites, 'contract'],
    ['deprecaton', suites, 'deprecation'],
    ['xyz', suites, undefined],
    ['fuz', suites, 'fuzz'],
    ['stat', suites, 'stateful'],
    ['base-ur', optionEntries('run').map(([name]) => name), 'base-url'],
    ['conc', optionEntries('run').map(([name]) => name), 'concurrency'],
    ['max', optionEntries('run').map(([name]) => name), undefined],
    ['smok', ['smoke', 'nightly', 'stress'], 'smoke'],
    ['ab', ['ac', 'ad'], undefined],
  ];
  for (const [given, known, meant] of rows) t.equal(closest(given, known), meant, `${given} → ${String(meant)}`);
});

t.test('a mistyped option, command, suite, phase, profile or check id gets the name likely meant', async (t) => {
  const rows: Array<[what: string, args: string[], message: string | RegExp]> = [
    ['an option', ['run', '--base-ur', 'x'], "unknown option '--base-ur' for 'run' (did you mean --base-url?)"],
    ['an option of no command', ['run', '--frobnicate'], "unknown option '--frobnicate' for 'run' (see --help)"],
    ['an option with one dash', ['run', '-base-url', 'x'], "unknown option '-base-url' for 'run' (did you mean --base-url?)"],
    ['a mistyped option with one dash', ['load', 'smoke', '-worker', '2'], "unknown option '-worker' for 'load' (did you mean --workers?)"],
    ['a word with one dash', ['run', '-bogus'], "unknown option '-bogus' for 'run': a long option takes two dashes (see --help)"],
    ['a reporter', ['run', '--reporter', 'console,junti'], /^unknown reporter 'junti' \(did you mean junit\?\); the reporters are: /],
    ['a command', ['lod'], /^unknown command 'lod' \(did you mean load\?\); the commands are: /],
    ['a suite', ['run', '--suite', 'auht'], /^unknown suite 'auht' \(did you mean auth\?\); the suites are: auth, contract, /],
    ['two suites, comma-separated', ['run', '--suite', 'limits,auht,zzz'], /^unknown suite 'auht' \(did you mean auth\?\), 'zzz'; /],
    ['a case kind', ['run', '--case-kind', 'fuz'], /^unknown case kind 'fuz' \(did you mean fuzz\?\); the kinds are: examples, /],
    ['a profile', ['run', '--load', 'smok'], /^unknown load profile 'smok' \(did you mean smoke\?\); the profiles are: /],
    ['a profile of load', ['load', 'nightyl'], /^unknown load profile 'nightyl' \(did you mean nightly\?\)/],
    [
      'a check glob',
      ['run', '--check', 'auht.*'],
      /^--check 'auht\.\*' matches no case \(did you mean 'auth\.\*'\?\); `petstore-conformance list` prints every case id/,
    ],
    [
      'a check id in the wrong case',
      ['run', '--check', 'listpets.ok'],
      /^--check 'listpets\.ok' matches no case \(did you mean 'listPets\.ok'\?\)/,
    ],
    [
      'a skipped check',
      ['run', '--skip-check', 'auth.www-authentcate'],
      /^--skip-check 'auth\.www-authentcate' matches no check or case \(did you mean 'auth\.www-authenticate'\?\)/,
    ],
  ];
  for (const [what, args, message] of rows) {
    const result = await runCli(args);
    t.equal(result.code, 2, `${what}: exit 2`);
    t.match(
      result.stderr,
      typeof message === 'string' ? `petstore-conformance: ${message}\n` : new RegExp(`^petstore-conformance: ${message.source.slice(1)}`),
      what,
    );
    t.equal(result.stderr.trimEnd().split('\n').length, 1, `${what}: one line`);
  }
});

t.test('--suite and --case-kind take comma-separated names, as --reporter does', async (t) => {
  t.same(parseFlags('run', ['--suite', 'auth,limits', '--suite', ' filters ']).suite, ['auth', 'limits', 'filters']);
  t.same(parseFlags('run', ['--case-kind', 'examples,fuzz'])['case-kind'], ['examples', 'fuzz']);
  t.same(parseFlags('run', ['--check', 'a.*,b']).check, ['a.*,b'], 'a glob is taken whole');
  const { plan } = await planRun(parseFlags('run', ['--suite', 'auth,limits']), {});
  t.same(plan.selection.suites, ['auth', 'limits']);
});

t.test('every problem of a configuration file at once, each at file:line:col, unknown suites and ids included', async (t) => {
  const dir = await tempDir();
  const file = path.join(dir, 'team.yaml');
  await writeFile(
    file,
    [
      'baseUrl: https://user:pw@staging.test/v1',
      'suites: [auth, auht, limits]',
      'timeoutMs: 50',
      'checks: [auth.*, auht.*]',
      'headers:',
      '  Host: elsewhere',
      'disable:',
      '  - { id: auth.www-authentcate, reason: typo }',
      'concurency: 4',
      '',
    ].join('\n'),
  );
  for (const command of ['run', 'load'] as const) {
    const error = await thrown(() =>
      command === 'run'
        ? planRun(parseFlags('run', ['--config', file]), {})
        : planLoad(['smoke'], parseFlags('load', ['--config', file]), {}),
    );
    t.ok(error instanceof RunError && error.code === 'ERR_CONFIG', `${command}: ERR_CONFIG`);
    const expected = [
      'team.yaml:1:10: baseUrl must not carry credentials; use PETSTORE_API_KEY',
      ...(command === 'run'
        ? [
            "team.yaml:2:16: suites: unknown suite 'auht' (did you mean auth?); the suites are: auth, contract, coverage, deprecation, errors, filters, fuzz, lifecycle, limits, request-space, stateful, versioning",
          ]
        : []),
      'team.yaml:3:12: /timeoutMs: must be >= 100',
      ...(command === 'run'
        ? [
            "team.yaml:4:18: checks: 'auht.*' matches no case of the selected suites (did you mean 'auth.*'?); `petstore-conformance list` prints every case id",
          ]
        : []),
      'team.yaml:6:3: headers: Host cannot be set',
      "team.yaml:8:11: disable: no check or case has the id 'auth.www-authentcate' (did you mean auth.www-authenticate?); petstore-conformance catalogue lists them",
      "team.yaml:9:1: unknown key 'concurency' at (root) (did you mean concurrency?)",
    ];
    t.equal(error?.message, `${expected.length} problems in the configuration file:`, `${command}: counted`);
    t.same(
      error?.details.map((line) => line.replace(/^.*team\.yaml/, 'team.yaml').replace(/ cannot be set.*$/, ' cannot be set')),
      expected,
      `${command}: every problem, in file order`,
    );
  }
});

t.test('an unknown key of a configuration file or a load profile gets the key likely meant, or the keys allowed there', async (t) => {
  const dir = await tempDir();
  const config = path.join(dir, 'team.yaml');
  await writeFile(config, 'reporter: [json]\nreporters: [junti]\n');
  const fromConfig = await thrown(() => planRun(parseFlags('run', ['--config', config]), {}));
  t.same(
    fromConfig?.details.map((line) => line.replace(/^.*team\.yaml/, 'team.yaml')),
    [
      "team.yaml:1:1: unknown key 'reporter' at (root) (did you mean reporters?)",
      'team.yaml:2:13: /reporters/0: must be equal to one of the allowed values (console, json, junit, html, markdown, har) (did you mean junit?)',
    ],
  );
  const profile = path.join(dir, 'profile.yaml');
  await writeFile(
    profile,
    'title: t\nduration: 1\nmaxRequests: 10\nqueries: [{ weight: 1 }]\nthresholds:\n  p95: { max: 10 }\n  error: { max: 0 }\n  latency: { max: 1 }\n',
  );
  const fromProfile = await thrown(() => planLoad([profile], parseFlags('load', []), {}));
  const lines = fromProfile?.details.map((line) => line.replace(/^.*profile\.yaml/, 'profile.yaml')) ?? [];
  t.equal(lines[0], "profile.yaml:6:3: unknown key 'p95' at /thresholds (did you mean p90 or p99?)", 'equally close keys, each');
  t.equal(lines[1], "profile.yaml:7:3: unknown key 'error' at /thresholds (did you mean errors?)");
  t.match(
    lines[2],
    /^profile\.yaml:8:3: unknown key 'latency' at \/thresholds \(the keys here are: trend, p50, p90, p99, max, rps, errors, /,
    'none close: the keys',
  );
});

t.test('load --help and the whole help name every profile the package ships in scenarios/load', async (t) => {
  const files = (await readdir(path.join(root, 'scenarios', 'load'))).map((file) => file.replace(/\.ya?ml$/, ''));
  t.same([...SHIPPED_PROFILES].sort(), files.sort(), 'SHIPPED_PROFILES is the folder');
  for (const help of [commandHelp('load'), HELP]) t.match(help, `scenarios/load: ${SHIPPED_PROFILES.join(', ')}; or a file`);
});

t.test("--connections sets the load's peak: a pressure step's connections, else every stage's", async (t) => {
  const rows: Array<[string, string, string[], { connections: number; pressure?: number }]> = [
    ['smoke as shipped', 'smoke', [], { connections: 4, pressure: 24 }],
    ['smoke pressed harder: the step, not the stage', 'smoke', ['--connections', '64'], { connections: 4, pressure: 64 }],
    ['smoke lighter: the stage is lowered to the peak too', 'smoke', ['--connections', '2'], { connections: 2, pressure: 2 }],
    ['stress, no pressure step (its ramp is): every stage', 'stress', ['--connections', '8'], { connections: 8 }],
  ];
  for (const [name, profile, args, want] of rows) {
    const planned = await planLoad([profile], parseFlags('load', args), {});
    const loaded = planned.plan.selection.load?.profile;
    t.equal(loaded?.connections, want.connections, `${name}: connections`);
    t.equal(loaded?.pressure?.connections, want.pressure, `${name}: the pressure step`);
  }
});
