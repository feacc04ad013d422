/**
 * Every reporter, in one table: those `--reporter` names (whether `run` writes it by default, its file) and the destinations
 * `--out KIND=URL` pushes to, each with how it is made. The makers load their reporter on demand, so the option table reads the
 * names without loading any reporter.
 */
import type { ConsoleOptions } from './console-reporter.js';
import type { OutputStream } from './output-streams.js';
import { REPORT_FILES } from './report-files.js';
import type { Reporter } from './reporter.js';

/** What a reporter is made from: the report folder, the console's options, the run's redactor, the raw standard output. */
export interface ReporterMaking {
  reportDir: string;
  console: ConsoleOptions;
  redact: (text: string) => string;
  stdout: OutputStream;
  /** The files the other reporters of the run write (what the Markdown summary links). */
  files: readonly string[];
}

/** A reporter `--reporter` names: whether `run` writes it unless told otherwise, the file it writes, how it is made (with companions). */
interface NamedEntry {
  byDefault: boolean;
  /** None for the console and json:-, which write no file. */
  file?: string;
  make(making: ReporterMaking): Promise<readonly Reporter[]>;
}

/** A destination `--out KIND=URL` pushes the results to when the run ends. */
interface OutputEntry {
  out: true;
  make(making: ReporterMaking, url: string): Promise<readonly Reporter[]>;
}

/** A `--reporter` entry, typed where it is written. */
function named<const E extends NamedEntry>(entry: E): E {
  return entry;
}

/** An `--out` entry, typed where it is written. */
function output<const E extends OutputEntry>(entry: E): E {
  return entry;
}

/**
 * Every reporter, in the order they run, then every `--out` kind: a new reporter is its file and one entry here. `run` writes those
 * whose entry says byDefault (har, which holds the evidence report.json already has, is for HTTP tools).
 */
export const REPORTERS = {
  // The console's companions come first: the live line of --wait-for is cleared before any other reporter hears that the run started.
  console: named({
    byDefault: true,
    make: async (m) => {
      const [{ WaitConsoleReporter }, { LoadConsoleReporter }, { ConsoleReporter }] = await Promise.all([
        import('./wait-console-reporter.js'),
        import('./load-console-reporter.js'),
        import('./console-reporter.js'),
      ]);
      const { stream, quiet } = m.console;
      return [new WaitConsoleReporter({ stream, quiet }), new LoadConsoleReporter({ stream, quiet }), new ConsoleReporter(m.console)];
    },
  }),
  json: named({
    byDefault: true,
    file: REPORT_FILES.json,
    make: async (m) => [new (await import('./json-reporter.js')).JsonReporter(m.reportDir)],
  }),
  'json:-': named({
    byDefault: false,
    make: async (m) => [new (await import('./json-reporter.js')).StdoutJsonReporter(m.stdout, m.redact)],
  }),
  junit: named({
    byDefault: true,
    file: REPORT_FILES.junit,
    make: async (m) => [new (await import('./junit-reporter.js')).JunitReporter(m.reportDir)],
  }),
  html: named({
    byDefault: true,
    file: REPORT_FILES.html,
    make: async (m) => [new (await import('./html-reporter.js')).HtmlReporter(m.reportDir)],
  }),
  markdown: named({
    byDefault: true,
    file: REPORT_FILES.markdown,
    make: async (m) => [new (await import('./markdown-reporter.js')).MarkdownReporter(m.reportDir, m.files)],
  }),
  har: named({
    byDefault: false,
    file: REPORT_FILES.har,
    make: async (m) => [new (await import('./har-reporter.js')).HarReporter(m.reportDir)],
  }),
  'prometheus-rw': output({
    out: true,
    make: async (m, url) => [new (await import('./prometheus-reporter.js')).PrometheusReporter(url, m.redact)],
  }),
} as const;

type Entries = typeof REPORTERS;

/** A reporter name (STDOUT_JSON among them). */
export type ReporterName = { [K in keyof Entries]: Entries[K] extends OutputEntry ? never : K }[keyof Entries];

/** A kind of `--out` destination. */
export type OutputKind = Exclude<keyof Entries, ReporterName>;

function isOutput(name: keyof Entries): name is OutputKind {
  return 'out' in REPORTERS[name];
}

/** `--reporter json:-`: report.json's content on standard output instead of in the report folder. */
export const STDOUT_JSON = 'json:-' satisfies ReporterName;

/** The names in the order reporters run. */
export const ORDER = (Object.keys(REPORTERS) as (keyof Entries)[]).filter((name): name is ReporterName => !isOutput(name));

/** Every reporter name `--reporter` takes, as its help lists them (json:- is said apart). */
export const REPORTER_NAMES: readonly ReporterName[] = ORDER.filter((name) => name !== STDOUT_JSON);

/** What `run` writes when `--reporter` names none. */
export const DEFAULT_REPORTERS: readonly ReporterName[] = ORDER.filter((name) => REPORTERS[name].byDefault);

/** The file a reporter writes into the report folder, if it writes one. */
export function fileOf(name: ReporterName): string | undefined {
  const entry: NamedEntry = REPORTERS[name];
  return entry.file;
}

/** True when a reporter writes into the report folder. */
export function writesFiles(name: ReporterName): boolean {
  return fileOf(name) !== undefined;
}

/** What `--out KIND=URL` sends the results to when the run ends, besides the reports: the entries of REPORTERS that say `out`. */
export const OUTPUT_KINDS: readonly OutputKind[] = (Object.keys(REPORTERS) as (keyof Entries)[]).filter(isOutput);

/** One `--out`: a kind of OUTPUT_KINDS and the URL it pushes to. */
export interface OutputTarget {
  kind: OutputKind;
  url: string;
}
