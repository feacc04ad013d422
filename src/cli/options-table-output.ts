/** The second half of the option table's rows: its load, output, reference server and general sections (options.ts joins them). */
import { MAX_WORKERS } from '../model/load.js';
import { REPORTER_NAMES } from '../reporters/reporter-registry.js';
import { option, text, filePath, list, flag, integer, share, outputs, REPORTING, SERVE, SERVE_HAS_NO_FILE } from './options-kinds.js';

/** The option table's rows for load, output, the reference server and every command, in the order the help lists them. */
export const OUTPUT_ROWS = {
  // Load.
  baseline: option({
    kind: filePath(),
    arg: 'FILE',
    commands: REPORTING,
    section: 'load',
    help: 'compare with an earlier report.json: its cases and rules by id (new failures, fixed, still failing), and its load',
    more: ' (p50, p99, rps, error rate, beyond the noise of both runs; another profile, base URL, version or mix is not comparable)',
    noConfig: 'the report of one earlier run, chosen for each comparison',
    recorded: { option: 'baseline', schema: { type: 'string' } },
  }),
  'baseline-tolerance': option({
    kind: share(10),
    arg: 'X',
    commands: REPORTING,
    section: 'load',
    shownDefault: "the profile's, else 0.1",
    help: 'allowed regression as a share',
    noConfig: 'the load profile holds its default (baselineTolerance)',
    recorded: {
      option: 'baselineTolerance',
      schema: { type: 'number', description: "--baseline-tolerance, when given (else the profile's)." },
    },
  }),
  'allow-production-load': option({
    kind: flag(),
    commands: ['run', 'load'],
    section: 'load',
    default: false,
    help: 'load a base URL the profile or the configuration marks as production',
    noConfig: "it lifts the guard a file's production list sets: it must be given on the command line each time",
    recorded: { not: 'it allows a run; it changes no verdict' },
  }),
  connections: option({
    kind: integer(1, 1000),
    arg: 'N',
    commands: ['run', 'load'],
    section: 'load',
    showBounds: true,
    shownDefault: "the profile's",
    help: "the load's peak connections: its pressure step's, else every stage's (a stage with more is lowered to N)",
    noConfig: 'the load profile holds its default (connections, pressure.connections)',
    recorded: {
      option: 'connections',
      schema: { type: 'integer', description: "--connections, when given (else the profile's): the load's peak." },
    },
  }),
  workers: option({
    kind: integer(1, MAX_WORKERS),
    arg: 'N',
    commands: ['run', 'load'],
    section: 'load',
    showBounds: true,
    shownDefault: "the profile's, else half the cores, at most 8 and at most one per connection",
    help: 'worker threads generating the load',
    noConfig: 'the load profile holds its default (workers)',
    recorded: { option: 'workers', schema: { type: 'integer', description: "--workers, when given (else the profile's)." } },
  }),

  // Output.
  'report-dir': option({
    kind: filePath(),
    arg: 'DIR',
    commands: REPORTING,
    section: 'output',
    configKey: 'reportDir',
    default: 'reports',
    help: 'where reports go',
    recorded: { option: 'reportDir', schema: { type: 'string' } },
  }),
  reporter: option({
    kind: list({ enum: [...REPORTER_NAMES] }),
    arg: 'LIST',
    commands: REPORTING,
    section: 'output',
    configKey: 'reporters',
    shownDefault: 'all but har; for load and merge: console,json',
    help: `${REPORTER_NAMES.join(', ')}, comma-separated or repeated`,
    more:
      '. Files: report.json, junit.xml, report.html, summary.md, report.har (the evidence as an HTTP Archive for HTTP tools); json:- ' +
      'prints report.json to standard output, the console to standard error',
    fileHelp: 'the reporters (all but har without it; console and json for load)',
    recorded: { not: 'it chooses the files written, not what they say' },
  }),
  out: option({
    kind: outputs(),
    arg: 'KIND=URL',
    commands: REPORTING,
    section: 'output',
    configKey: 'out',
    help:
      'also push the results when the run ends (repeatable): prometheus-rw=URL sends the case counts and ' +
      "each load stage's figures by Prometheus remote write",
    more: '; a push that fails is one line, and a report not written (exit 2 for a run that passed)',
    fileHelp:
      'where to push the results when the run ends, each KIND=URL: prometheus-rw=URL sends the case counts and ' +
      "each load stage's figures by Prometheus remote write",
    recorded: { not: 'it chooses where the results go, not what they say' },
  }),
  quiet: option({
    kind: flag(),
    short: 'q',
    commands: REPORTING,
    section: 'output',
    default: false,
    help: 'print only failures and the verdict',
    noConfig: 'how much one terminal shows',
    recorded: { not: 'it changes what is printed, not a verdict' },
  }),
  'no-color': option({
    kind: flag(),
    commands: REPORTING,
    section: 'output',
    default: false,
    // NO_COLOR and FORCE_COLOR are the colour conventions (no-color.org), read with the terminal, not as this flag's layer.
    help: 'no colours (a non-empty NO_COLOR too; FORCE_COLOR forces them)',
    noConfig: "colour is the terminal's (NO_COLOR, FORCE_COLOR)",
    recorded: { not: 'it changes what is printed, not a verdict' },
  }),

  // The reference server.
  port: option({
    kind: integer(0, 65_535),
    arg: 'N',
    commands: SERVE,
    section: 'serve',
    default: 8080,
    help: 'port',
    more: '; 0 picks a free one',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),
  host: option({
    kind: text(),
    arg: 'HOST',
    commands: SERVE,
    section: 'serve',
    default: '127.0.0.1',
    help: 'address',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),
  'big-ids': option({
    kind: flag(),
    commands: SERVE,
    section: 'serve',
    default: false,
    help: 'hand out ids above 2^53 (to test int64 exactness)',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),
  variant: option({
    kind: text(),
    arg: 'NAME',
    commands: SERVE,
    section: 'serve',
    help:
      'serve a variant: the reference pet store broken or bent in one way ' +
      '(petstore-conformance catalogue lists them, with what each does)',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),

  // The case list.
  json: option({
    kind: flag(),
    commands: ['list'],
    section: 'general',
    default: false,
    help: 'list: the cases as JSON ({ count, cases: [{ id, suite, operation, level, clause, title }] })',
    noConfig: 'how one listing prints',
    recorded: { not: 'list writes no report' },
  }),

  // Every command.
  help: option({
    kind: flag(),
    short: 'h',
    commands: ['run', 'load', 'merge', 'serve', 'catalogue', 'list', 'explain'],
    section: 'general',
    default: false,
    help: "this help (COMMAND --help: that command's)",
    noConfig: 'it prints this text and runs nothing',
    recorded: { not: 'it runs nothing' },
  }),
  version: option({
    kind: flag(),
    short: 'V',
    commands: ['run'],
    section: 'general',
    default: false,
    help: 'the version',
    noConfig: 'it prints the version and runs nothing',
    recorded: { not: 'it runs nothing' },
  }),
} as const;
