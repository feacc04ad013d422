/**
 * Every reporter `--reporter` can name, in one table: its name, whether `run` writes it by default, its file, and how it is
 * made. The makers load their reporter on demand, so the option table reads the names without loading any reporter.
 */
import type { ConsoleOptions } from './console-reporter.js';
import type { OutputStream } from './output-streams.js';
import type { Reporter } from './reporter.js';

/** The file each file reporter writes in the report folder. */
export const REPORT_FILES = {
  json: 'report.json',
  junit: 'junit.xml',
  html: 'report.html',
  markdown: 'summary.md',
  har: 'report.har',
} as const;

/** What a reporter is made from: the report folder, the console's options, the run's redactor, the raw standard output. */
export interface ReporterMaking {
  reportDir: string;
  console: ConsoleOptions;
  redact: (text: string) => string;
  stdout: OutputStream;
  /** The files the other reporters of the run write (what the Markdown summary links). */
  files: readonly string[];
}

/** One reporter: whether `run` writes it unless told otherwise, the file it writes in the report folder, how it is made. */
interface ReporterEntry {
  byDefault: boolean;
  /** None for the console and json:-, which write no file. */
  file?: string;
  make(making: ReporterMaking): Promise<Reporter>;
}

/**
 * Every reporter, in the order they run: a new reporter is its file and one entry here. `run` writes those whose entry
 * says byDefault (har, which holds the evidence report.json already has, is for HTTP tools).
 */
export const REPORTERS = {
  console: { byDefault: true, make: async (m) => new (await import('./console-reporter.js')).ConsoleReporter(m.console) },
  json: { byDefault: true, file: REPORT_FILES.json, make: async (m) => new (await import('./json-reporter.js')).JsonReporter(m.reportDir) },
  'json:-': {
    byDefault: false,
    make: async (m) => new (await import('./json-reporter.js')).StdoutJsonReporter(m.stdout, m.redact),
  },
  junit: {
    byDefault: true,
    file: REPORT_FILES.junit,
    make: async (m) => new (await import('./junit-reporter.js')).JunitReporter(m.reportDir),
  },
  html: { byDefault: true, file: REPORT_FILES.html, make: async (m) => new (await import('./html-reporter.js')).HtmlReporter(m.reportDir) },
  markdown: {
    byDefault: true,
    file: REPORT_FILES.markdown,
    make: async (m) => new (await import('./markdown-reporter.js')).MarkdownReporter(m.reportDir, m.files),
  },
  har: { byDefault: false, file: REPORT_FILES.har, make: async (m) => new (await import('./har-reporter.js')).HarReporter(m.reportDir) },
} as const satisfies Record<string, ReporterEntry>;

/** A reporter name (STDOUT_JSON among them). */
export type ReporterName = keyof typeof REPORTERS;

/** `--reporter json:-`: report.json's content on standard output instead of in the report folder. */
export const STDOUT_JSON = 'json:-' satisfies ReporterName;

/** The names in the order reporters run. */
export const ORDER = Object.keys(REPORTERS) as ReporterName[];

/** Every reporter name `--reporter` takes, as its help lists them (json:- is said apart). */
export const REPORTER_NAMES: readonly ReporterName[] = ORDER.filter((name) => name !== STDOUT_JSON);

/** What `run` writes when `--reporter` names none. */
export const DEFAULT_REPORTERS: readonly ReporterName[] = ORDER.filter((name) => REPORTERS[name].byDefault);

/** The file a reporter writes into the report folder, if it writes one. */
export function fileOf(name: ReporterName): string | undefined {
  const entry: ReporterEntry = REPORTERS[name];
  return entry.file;
}

/** True when a reporter writes into the report folder. */
export function writesFiles(name: ReporterName): boolean {
  return fileOf(name) !== undefined;
}

/** What `--out KIND=URL` sends the results to when the run ends, besides the reports: Prometheus remote write. */
export const OUTPUT_KINDS = ['prometheus-rw'] as const;

/** One `--out`: a kind of OUTPUT_KINDS and the URL it pushes to. */
export interface OutputTarget {
  kind: (typeof OUTPUT_KINDS)[number];
  url: string;
}
