/** Command-line parsing and the help, both read off the option table: every flag checked, every mistake one clear line (exit 2). */
import { parseArgs } from 'node:util';
import { RunError } from '../model/errors.js';
import { closest, didYouMean } from '../model/suggest.js';
import { asksVersion } from './version-words.js';
import { optionEntries, SECTIONS, type AnyOptionSpec, type GivenValues, type OptionCommand, type OptionName } from './options.js';

/** The commands of the CLI. */
export type Command = 'run' | 'serve' | 'catalogue' | 'list' | 'explain' | 'help' | 'version' | 'load' | 'merge';

const COMMANDS: readonly Command[] = ['run', 'serve', 'catalogue', 'list', 'explain', 'help', 'version', 'load', 'merge'];

/** What parseArgs is told of one flag. */
interface ParseArgsOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
}

/** The parseArgs table of a command: its options, as the table declares them. */
function parseArgsOptions(command: OptionCommand): Record<string, ParseArgsOption> {
  return Object.fromEntries(
    optionEntries(command).map(([name, spec]) => [
      name,
      {
        type: spec.kind.boolean === true ? 'boolean' : 'string',
        ...(spec.kind.repeatable === true ? { multiple: true } : {}),
        ...(spec.short === undefined ? {} : { short: spec.short }),
      },
    ]),
  );
}

function optionName(token: string): string {
  return token.split('=')[0] ?? token;
}

/** The commands that take an option given to one that does not, for the one-line refusal. */
function takenBy(token: string): string | undefined {
  const name = optionName(token).replace(/^--?/, '');
  const spec = optionEntries().find(([long, entry]) => long === name || entry.short === name)?.[1];
  return spec?.commands.join(', ');
}

/** The flags' text read by each option's kind: a bad value is one line that names the flag. */
/** What node:util's parseArgs gives: each flag's text, texts, or presence. */
type ParsedValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

function readFlags(values: ParsedValues, command: OptionCommand): GivenValues {
  const given: Partial<Record<OptionName, unknown>> = {};
  for (const [name, spec] of optionEntries(command)) {
    const value = values[name];
    if (value === undefined) continue;
    const texts = (Array.isArray(value) ? value : [value]).map(String);
    given[name] = spec.kind.parse(texts, `--${name}`);
  }
  // Each value was read by its own option's kind.
  return given as GivenValues;
}

/** The flags given by a name an option no longer goes by, renamed, each told once to `warn`. */
function renamedFlags(command: OptionCommand, args: readonly string[], warn: (line: string) => void): string[] {
  const renamed = new Map(optionEntries(command).flatMap(([name, spec]) => (spec.was === undefined ? [] : [[`--${spec.was.flag}`, name]])));
  const told = new Set<string>();
  return args.map((arg) => {
    const [flag = '', ...value] = arg.split('=');
    const name = renamed.get(flag);
    if (name === undefined) return arg;
    if (!told.has(flag)) warn(`${flag} is deprecated: it is --${name} now, and will be refused`);
    told.add(flag);
    return [`--${name}`, ...value].join('=');
  });
}

/** Parses a command's flags into typed values (only those given); a flag given by its old name is read, and `warn` told. */
export function parseFlags(command: OptionCommand, args: readonly string[], warn: (line: string) => void = () => undefined): GivenValues {
  for (const arg of args) {
    // A key on the command line leaks into shell history and process lists; never echo it.
    if (/^--api-key(=|$)/.test(arg)) {
      throw new RunError(
        'ERR_USAGE',
        '--api-key is not accepted (a key on the command line leaks); set PETSTORE_API_KEY or use --api-key-file FILE',
      );
    }
  }
  const joined = negativeValuesJoined(command, renamedFlags(command, args, warn));
  refuseSingleDashWords(command, joined);
  return readFlags(parsedOrExplained(command, joined), command);
}

/**
 * `--max-writes -3`: node:util reads `-3` as a flag and says the option needs a value. Joined (`--max-writes=-3`), the value
 * reaches the option's kind, which says what it takes.
 */
function negativeValuesJoined(command: OptionCommand, args: readonly string[]): string[] {
  const takesValue = new Set(optionEntries(command).flatMap(([name, spec]) => (spec.kind.boolean === true ? [] : [`--${name}`])));
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (takesValue.has(arg) && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * A long option written with one dash (`-base-url`): node:util reads it as short flags and names only its first letter
 * (`unknown option '-b'`). Refused whole, with the option likely meant. A run of short flags (`-qV`) and a short flag with its
 * value attached (`-HX-Tenant:a`) are left to the parser.
 */
function refuseSingleDashWords(command: OptionCommand, args: readonly string[]): void {
  const entries = optionEntries(command);
  const shortSpec = (letter: string): AnyOptionSpec | undefined => entries.find(([, spec]) => spec.short === letter)?.[1];
  for (const arg of args) {
    if (arg === '--') return;
    if (!/^-[^-]./.test(arg)) continue;
    const word = optionName(arg).slice(1);
    const first = shortSpec(word[0] ?? '');
    const flagsOnly = [...word].every((letter) => shortSpec(letter)?.kind.boolean === true);
    if (flagsOnly || (first !== undefined && first.kind.boolean !== true)) continue;
    const longs: readonly string[] = entries.map(([long]) => long);
    const meant = longs.includes(word) ? word : closest(word, longs);
    throw new RunError(
      'ERR_USAGE',
      `unknown option '-${word}' for ` +
        `'${command}'${meant === undefined ? ': a long option takes two dashes (see --help)' : ` (did you mean --${meant}?)`}`,
    );
  }
}

/** node:util's parse of the flags; each of its complaints becomes one line that says what to do. */
function parsedOrExplained(command: OptionCommand, args: readonly string[]): ParsedValues {
  try {
    return parseArgs({ args: [...args], options: parseArgsOptions(command), strict: true, allowPositionals: false }).values;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const unknown = /'([^']+)'/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const others = takenBy(unknown);
      const name = optionName(unknown);
      const guess =
        others === undefined && name.startsWith('--')
          ? didYouMean(
              name.slice(2),
              optionEntries(command).map(([long]) => long),
              (long) => `--${long}`,
            )
          : '';
      throw new RunError(
        'ERR_USAGE',
        `unknown option '${name}' for '${command}'${others === undefined ? '' : ` (it is for: ${others})`}${guess || ' (see --help)'}`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new RunError('ERR_USAGE', `'${command}' takes no positional arguments (see --help)`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /--[a-z-]+/.exec((error as Error).message)?.[0] ?? 'an option';
      // A flag given a value (`--strict=yes`): it takes none.
      const given = args.find((arg) => arg.startsWith(`${option}=`));
      if (given !== undefined)
        throw new RunError(
          'ERR_USAGE',
          `${option} takes no value (it is on when given, off when left out): drop '${given.slice(option.length)}'`,
        );
      throw new RunError('ERR_USAGE', `${option} needs a value (see --help)`);
    }
    throw new RunError('ERR_USAGE', `${(error as Error).message.split('\n')[0] ?? 'bad arguments'} (see --help)`);
  }
}

/** Parses `load PROFILE [options]`, `merge FILE... [options]` and `explain ID`: the leading arguments, then the flags. */
export function parseLoadFlags(
  args: readonly string[],
  command: 'load' | 'merge' | 'explain',
): { positionals: string[]; flags: GivenValues } {
  const firstFlag = args.findIndex((a) => a.startsWith('-'));
  const positionals = firstFlag === -1 ? [...args] : args.slice(0, firstFlag);
  return { positionals, flags: parseFlags(command, firstFlag === -1 ? [] : args.slice(firstFlag)) };
}

/**
 * The whole answer to `--version` or `--help` (and `version`, `help`, `-V`, `-h`) alone, which needs nothing else loaded; undefined for
 * anything else.
 */
export function quickAnswer(argv: readonly string[], version: () => string): string | undefined {
  if (argv.length !== 1) return undefined;
  const [only] = argv;
  if (asksVersion(argv)) return `${version()}\n`;
  if (only === '--help' || only === '-h' || only === 'help') return HELP;
  return undefined;
}

/** Splits argv into the command and its arguments; `run` is the default. */
export function splitCommand(argv: string[]): { command: Command; args: string[] } {
  const [first, ...rest] = argv;
  if (first === undefined || first.startsWith('-')) {
    if (first === '--help' || first === '-h') return { command: 'help', args: rest };
    if (first === '--version' || first === '-V') return { command: 'version', args: rest };
    return { command: 'run', args: argv };
  }
  if ((COMMANDS as readonly string[]).includes(first)) return { command: first as Command, args: rest };
  throw new RunError('ERR_USAGE', `unknown command '${first}'${didYouMean(first, COMMANDS)}; the commands are: ${COMMANDS.join(', ')}`);
}

/** What an unknown `serve --variant` is told: the variant likely meant, and where they are listed (there are over a hundred). */
export function unknownVariantText(name: string, names: readonly string[]): string {
  return (
    `unknown variant '${name}'${didYouMean(name, names)}; \`petstore-conformance catalogue\` lists the ${names.length} variants, ` +
    `with what each does`
  );
}

/** The profiles the package ships in scenarios/load, as the help names them (a test holds them to the folder). */
export const SHIPPED_PROFILES = ['smoke', 'nightly', 'stress', 'soak'] as const;

/** The usage lines of every command. */
const USAGE = `petstore-conformance: conformance and load tests for the Pet Store Service Interface

Usage:
  petstore-conformance [run] [options]     test a pet store (default command)
  petstore-conformance serve [options]     run the reference pet store
  petstore-conformance load PROFILE [options]    load listPets with a profile (a name in
                            scenarios/load: ${SHIPPED_PROFILES.join(', ')}; or a file)
  petstore-conformance merge REPORT... [options] merge the load reports of several machines
                            and judge them by the same thresholds
  petstore-conformance catalogue           print the catalogue of checks and cases (Markdown)
  petstore-conformance list [options]      every case id a run would run, sending nothing
  petstore-conformance explain ID          a check's or case's clause, what it demands and why
  petstore-conformance --help | --version
  petstore-conformance COMMAND --help      the options of one command

`;

/** Where an option's help starts, and how wide a line grows. */
const HELP_COLUMN = 28;
const HELP_WIDTH = 100;

/** Words filled into lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/** The flag as the help shows it: `-H, --header NAME:VALUE`. */
export function shownFlag(name: string, spec: AnyOptionSpec): string {
  return `${spec.short === undefined ? '' : `-${spec.short}, `}--${name}${spec.arg === undefined ? '' : ` ${spec.arg}`}`;
}

/** The default as the help states it, if it states one (a flag without a value is off unless given). */
export function shownDefault(spec: AnyOptionSpec): string | undefined {
  if (spec.shownDefault !== undefined) return spec.shownDefault;
  return spec.default === undefined || spec.kind.boolean === true ? undefined : String(spec.default);
}

/** One option's lines of the help: the flag, what it does, then its variable, bounds and default in one parenthesis. */
function optionHelp(name: string, spec: AnyOptionSpec): string {
  const bounds =
    spec.showBounds === true && spec.kind.bounds !== undefined ? `${spec.kind.bounds.min}..${spec.kind.bounds.max}` : undefined;
  const fallback = shownDefault(spec);
  // A no-break space keeps `default:` with what follows it on one line; the lines turn it back into a space.
  const notes = [
    spec.env === undefined ? undefined : `or ${spec.env}`,
    bounds,
    fallback === undefined ? undefined : `default:\u00a0${fallback}`,
  ].filter((note) => note !== undefined);
  const text = `${spec.help}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}${spec.more ?? ''}`;
  const flag = `  ${shownFlag(name, spec)}`;
  const [first = '', ...rest] = wrap(text, HELP_WIDTH - HELP_COLUMN);
  const indent = ' '.repeat(HELP_COLUMN);
  // A flag too long for its column takes a line of its own.
  const lines = flag.length < HELP_COLUMN - 1 ? [`${flag.padEnd(HELP_COLUMN)}${first}`] : [flag, `${indent}${first}`];
  return [...lines, ...rest.map((line) => `${indent}${line}`)].join('\n').replace(/\u00a0/g, ' ');
}

/** The option sections of a command's help (of every command's, without one), each listing only the options it takes. */
function optionsHelp(command?: OptionCommand): string {
  return (Object.entries(SECTIONS) as Array<[keyof typeof SECTIONS, { title: string; footer?: string }]>)
    .map(([section, { title, footer }]) => {
      const entries = optionEntries(command).filter(([, spec]) => spec.section === section);
      if (entries.length === 0) return '';
      const lines = [
        title,
        ...entries.map(([name, spec]) => optionHelp(name, spec)),
        ...(footer === undefined ? [] : wrap(footer, HELP_WIDTH - 2).map((line) => `  ${line}`)),
      ];
      return `${lines.join('\n')}\n\n`;
    })
    .join('');
}

/** The exit codes, for every command that judges. */
const EXIT_HELP = `Exit codes: 0 passed (warnings allowed), 1 a check failed, 2 could not run or incomplete,
3 internal error (a bug of petstore-conformance to report, never a verdict on the server),
130 interrupted by Ctrl-C, 143 by SIGTERM, 129 by SIGHUP (the reports are written either way).
`;

/** What each command does, how it is called, and examples (each one a test parses with the command's own flags). */
export const COMMAND_USAGE: Record<OptionCommand, { usage: string; what: string; examples: readonly string[] }> = {
  run: {
    usage: 'petstore-conformance [run] [options]',
    what: 'test a pet store (the default command)',
    examples: [
      'petstore-conformance run                                      # the embedded reference server',
      'PETSTORE_API_KEY=... petstore-conformance run --base-url https://staging.example.com/v1',
      'petstore-conformance run --base-url http://127.0.0.1:8080/v1 --wait-for 60 --suite auth,limits',
      "petstore-conformance run --check 'auth.*' --reporter console,junit --report-dir out",
      'petstore-conformance run --base-url https://api.example.com/v1 --read-only --category-id 7',
      'petstore-conformance run --config team.yaml --load smoke',
    ],
  },
  load: {
    usage: 'petstore-conformance load PROFILE [options]',
    what: `load listPets with a profile (a name in scenarios/load: ${SHIPPED_PROFILES.join(', ')}; or a file)`,
    examples: [
      'petstore-conformance load smoke                               # the embedded reference server',
      'petstore-conformance load nightly --base-url https://staging.example.com/v1 --baseline last/report.json',
      'petstore-conformance load ./my-profile.yaml --workers 4 --reporter console,json,html',
    ],
  },
  merge: {
    usage: 'petstore-conformance merge REPORT... [options]',
    what: 'merge the load reports of several machines and judge them by the same thresholds',
    examples: [
      'petstore-conformance merge a/report.json b/report.json --report-dir merged',
      'petstore-conformance merge shard-*/report.json --baseline last/report.json --reporter console,json,html',
    ],
  },
  serve: {
    usage: 'petstore-conformance serve [options]',
    what: 'run the reference pet store',
    examples: ['petstore-conformance serve --port 8080', 'petstore-conformance serve --port 0 --big-ids'],
  },
  catalogue: {
    usage: 'petstore-conformance catalogue',
    what: 'print the catalogue of checks and cases (Markdown), as docs/checks.md holds it',
    examples: ['petstore-conformance catalogue > checks.md'],
  },
  list: {
    usage: 'petstore-conformance list [--check GLOB] [--suite S] [--case-kind K] [--json]',
    what: 'print every case id a run with the same selection would run (suite, operation, level, clause), sending nothing',
    examples: ["petstore-conformance list --check 'listPets.limit.*'", 'petstore-conformance list --suite auth --json'],
  },
  explain: {
    usage: 'petstore-conformance explain ID',
    what: "print a check's or case's clause, what it demands and why",
    examples: ['petstore-conformance explain errors.error-body', 'petstore-conformance explain listPets.limit.default'],
  },
};

/** A command's examples, as its help shows them. */
function examplesHelp(examples: readonly string[]): string {
  return `Examples:\n${examples.map((example) => `  ${example}`).join('\n')}\n\n`;
}

/** The whole help: every command and option, and an example of each command. */
export const HELP = `${USAGE}${optionsHelp()}${examplesHelp(Object.values(COMMAND_USAGE).map((c) => c.examples[0] ?? ''))}${EXIT_HELP}`;

/**
 * The help of one command: its usage line, the options it takes under their headings, examples (and the exit codes for those that judge).
 */
export function commandHelp(command: OptionCommand): string {
  const { usage, what, examples } = COMMAND_USAGE[command];
  const judges = command === 'run' || command === 'load' || command === 'merge';
  return (
    `petstore-conformance ${command}: ${what}\n\nUsage:\n  ` +
    `${usage}\n\n${optionsHelp(command)}${examplesHelp(examples)}${judges ? EXIT_HELP : ''}`
  );
}
