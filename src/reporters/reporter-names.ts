/** The names `--reporter` takes, apart from the reporters themselves: the option table reads them without loading any reporter. */

/** Every reporter name `--reporter` takes. */
export const REPORTER_NAMES = ['console', 'json', 'junit', 'html', 'markdown', 'har'] as const;

/** `--reporter json:-`: report.json's content on standard output instead of in the report folder. */
export const STDOUT_JSON = 'json:-';

/** A reporter name (STDOUT_JSON among them). */
export type ReporterName = (typeof REPORTER_NAMES)[number] | typeof STDOUT_JSON;

/** What `run` writes when `--reporter` names none: every reporter but har, which holds the evidence report.json already has, for HTTP tools. */
export const DEFAULT_REPORTERS: readonly ReporterName[] = ['console', 'json', 'junit', 'html', 'markdown'];

/** What `--out KIND=URL` sends the results to when the run ends, besides the reports: Prometheus remote write. */
export const OUTPUT_KINDS = ['prometheus-rw'] as const;

/** One `--out`: a kind of OUTPUT_KINDS and the URL it pushes to. */
export interface OutputTarget {
  kind: (typeof OUTPUT_KINDS)[number];
  url: string;
}
