/**
 * --baseline and --fail-on, planned before anything is sent: the earlier report read once (by the plan), its cases and rules for the
 * run, and its load for a load, which must be like this one (the same profile, base URL, suite version and request mix)
 * to be compared at all.
 */
import path from 'node:path';
import { packageVersion } from '../loader/package-paths.js';
import { type BaselineReport, readBaselineReport } from '../loader/report-files.js';
import type { Baseline } from '../model/check.js';
import { RunError } from '../model/errors.js';
import type { LoadProfile } from '../model/load.js';

/** Refuses a run whose report.json would overwrite a file the user gave it (a baseline, a report to merge). */
export function refuseOverwrite(reportDir: string, inputs: ReadonlyArray<[string, string]>): void {
  const output = path.resolve(reportDir, 'report.json');
  const clash = inputs.find(([, file]) => path.resolve(file) === output);
  if (clash)
    throw new RunError(
      'ERR_USAGE',
      `${clash[0]} ${clash[1]} is the report this run writes; copy it elsewhere first or choose another --report-dir`,
    );
}

/** The --baseline report, refused (exit 2) when it is the report this run writes or not a report of this suite. */
export function baselineReport(file: string, reportDir: string): Promise<BaselineReport> {
  refuseOverwrite(reportDir, [['--baseline', file]]);
  return readBaselineReport(file);
}

/** How a baseline's load differs from the load about to run, each a short phrase; empty when they are alike. */
export function loadUnlike(read: BaselineReport, profile: LoadProfile, target: string): string[] {
  const load = read.load;
  if (load === undefined) return [];
  const unlike: string[] = [];
  if (load.profile.name !== profile.name) unlike.push(`profile ${load.profile.name}, this run ${profile.name}`);
  if (read.target !== target) unlike.push(`base URL ${read.target}, this run ${target}`);
  const version = packageVersion();
  if (read.version !== version) unlike.push(`suite version ${read.version}, this run ${version}`);
  if (JSON.stringify(load.profile.queries) !== JSON.stringify(profile.queries))
    unlike.push(`request mix ${mixText(load.profile.queries)}, this run ${mixText(profile.queries)}`);
  return unlike;
}

function mixText(queries: LoadProfile['queries']): string {
  return queries.map((q) => `${q.status ?? 'any'}/${q.limit ?? 'default'}×${q.weight}`).join(' ');
}

/**
 * The load baseline of a load about to run. `refuse`: a load or a merge asked for the comparison alone, so a baseline
 * that holds no load, or another load, is refused in one line (exit 2); a run compares its cases anyway and shows the
 * load as not comparable.
 */
export function loadBaseline(
  file: string,
  read: BaselineReport,
  load: { profile: LoadProfile; target: string; tolerance: number; refuse: boolean },
): Baseline | undefined {
  if (read.load === undefined) {
    if (load.refuse) throw new RunError('ERR_CONFIG', `--baseline ${file}: not the report.json of a load run (no load.metrics)`);
    return undefined;
  }
  const unlike = loadUnlike(read, load.profile, load.target);
  if (unlike.length > 0 && load.refuse)
    throw new RunError(
      'ERR_USAGE',
      `--baseline ${file} is not comparable: ${unlike.join('; ')}; compare a load with one of the same profile, base URL, ` +
        'suite version and request mix',
    );
  return {
    file,
    metrics: read.load.metrics,
    tolerance: load.tolerance,
    load: read.load,
    ...(unlike.length === 0 ? {} : { notComparable: unlike }),
  };
}
