/** The reporters `--reporter` can name, and how to make them. */
import { RunError } from '../model/errors.js';
import { didYouMean } from '../model/suggest.js';
import { ConsoleReporter, type ConsoleOptions } from './console-reporter.js';
import { FileReporter, REPORT_FILES } from './file-reporter.js';
import { HarReporter } from './har-reporter.js';
import { HtmlReporter } from './html-reporter.js';
import { JsonReporter, StdoutJsonReporter } from './json-reporter.js';
import { JunitReporter } from './junit-reporter.js';
import { MarkdownReporter } from './markdown-reporter.js';
import type { OutputStream } from './output-streams.js';
import { PrometheusReporter } from './prometheus-reporter.js';
import type { Reporter } from './reporter.js';
import { DEFAULT_REPORTERS, REPORTER_NAMES, STDOUT_JSON, type OutputTarget, type ReporterName } from './reporter-names.js';

export { DEFAULT_REPORTERS, REPORTER_NAMES, STDOUT_JSON, type OutputTarget, type ReporterName };

/** The names in the order reporters run. */
const ORDER: readonly ReporterName[] = ['console', 'json', STDOUT_JSON, 'junit', 'html', 'markdown', 'har'];

/** True when a reporter writes into the report folder. */
export function writesFiles(name: ReporterName): boolean {
  return name !== 'console' && name !== STDOUT_JSON;
}

/** Reads `--reporter` values (repeatable, comma-separated); unknown or no names are a usage error. */
export function parseReporterNames(values: readonly string[] | undefined): ReporterName[] {
  if (values === undefined) return [...DEFAULT_REPORTERS];
  const names = values
    .flatMap((v) => v.split(','))
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !(ORDER as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new RunError(
      'ERR_USAGE',
      `unknown reporter ${unknown.map((n) => `'${n}'${didYouMean(n, ORDER)}`).join(', ')}; the reporters are: ${REPORTER_NAMES.join(', ')} (json:- writes the JSON to standard output)`,
    );
  if (names.length === 0) throw new RunError('ERR_USAGE', `--reporter needs at least one of: ${REPORTER_NAMES.join(', ')}`);
  return ORDER.filter((n) => names.includes(n));
}

/** What pushes the results to each kind of `--out` destination when the run ends. */
const OUTPUT_MAKERS: Record<OutputTarget['kind'], (url: string, redact: (text: string) => string) => Reporter> = {
  'prometheus-rw': (url, redact) => new PrometheusReporter(url, redact),
};

/**
 * Makes the named reporters, then one per `--out` destination; the Markdown summary links the other files written beside
 * it; every file, the JSON on `stdout` (the raw stream) and what is pushed are made of the report's values redacted by `redact`.
 */
export function createReporters(
  names: readonly ReporterName[],
  reportDir: string,
  consoleOptions: ConsoleOptions,
  redact: (text: string) => string = (text) => text,
  stdout?: OutputStream,
  outputs: readonly OutputTarget[] = [],
): Reporter[] {
  const files = names
    .filter((n): n is Exclude<ReporterName, 'console' | 'markdown' | typeof STDOUT_JSON> => writesFiles(n) && n !== 'markdown')
    .map((n) => REPORT_FILES[n]);
  const makers: Record<ReporterName, () => Reporter> = {
    console: () => new ConsoleReporter(consoleOptions),
    json: () => new JsonReporter(reportDir),
    [STDOUT_JSON]: () => new StdoutJsonReporter(stdout ?? consoleOptions.stream, redact),
    junit: () => new JunitReporter(reportDir),
    html: () => new HtmlReporter(reportDir),
    markdown: () => new MarkdownReporter(reportDir, files),
    har: () => new HarReporter(reportDir),
  };
  const named = names.map((name) => {
    const reporter = makers[name]();
    if (reporter instanceof FileReporter) reporter.redact = redact;
    return reporter;
  });
  return [...named, ...outputs.map((output) => OUTPUT_MAKERS[output.kind](output.url, redact))];
}
