/** The reporters `--reporter` can name, and how to make them. */
import { RunError } from '../model/errors.js';
import { didYouMean } from '../model/suggest.js';
import type { ConsoleOptions } from './console-reporter.js';
import { FileReporter } from './file-reporter.js';
import type { OutputStream } from './output-streams.js';
import type { Reporter } from './reporter.js';
import {
  DEFAULT_REPORTERS,
  fileOf,
  ORDER,
  REPORTER_NAMES,
  REPORTERS,
  STDOUT_JSON,
  writesFiles,
  type OutputTarget,
  type ReporterMaking,
  type ReporterName,
} from './reporter-names.js';

export { DEFAULT_REPORTERS, REPORTER_NAMES, STDOUT_JSON, writesFiles, type OutputTarget, type ReporterName };

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
      `unknown reporter ${unknown.map((n) => `'${n}'${didYouMean(n, ORDER)}`).join(', ')}; the reporters are: ` +
        `${REPORTER_NAMES.join(', ')} (json:- writes the JSON to standard output)`,
    );
  if (names.length === 0) throw new RunError('ERR_USAGE', `--reporter needs at least one of: ${REPORTER_NAMES.join(', ')}`);
  return ORDER.filter((n) => names.includes(n));
}

/**
 * Makes the named reporters (the console with its companions), then one per `--out` destination, all from the one table; the Markdown
 * summary links the other files written beside it; every file, the JSON on `stdout` (the raw stream) and what is pushed are made of the
 * report's values redacted by `redact`.
 */
export async function createReporters(
  names: readonly ReporterName[],
  reportDir: string,
  consoleOptions: ConsoleOptions,
  redact: (text: string) => string = (text) => text,
  stdout?: OutputStream,
  outputs: readonly OutputTarget[] = [],
): Promise<Reporter[]> {
  const files = names.filter((name) => name !== 'markdown').flatMap((name) => fileOf(name) ?? []);
  const making: ReporterMaking = { reportDir, console: consoleOptions, redact, stdout: stdout ?? consoleOptions.stream, files };
  const made = await Promise.all([
    ...names.map((name) => REPORTERS[name].make(making)),
    ...outputs.map((output) => REPORTERS[output.kind].make(making, output.url)),
  ]);
  const reporters = made.flat();
  for (const reporter of reporters) if (reporter instanceof FileReporter) reporter.redact = redact;
  return reporters;
}
