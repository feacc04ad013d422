/** Loads a load profile (scenarios/load/NAME.yaml or a file path), validated against schemas/load-profile.schema.json. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { RunError } from '../model/errors.js';
import { didYouMean } from '../model/suggest.js';
import {
  DEFAULT_TREND,
  METRICS,
  type LoadProfile,
  type Metric,
  type PressureStep,
  type QueryMix,
  type Ramp,
  type Threshold,
  type TrendSettings,
} from '../model/load.js';
import type { SourceLocation } from '../model/source-location.js';
import type { ValidateFunction } from 'ajv';
import { displayName } from './cases.js';
import { problemsError, validateYamlFile, type FileProblem } from './yaml-file.js';

/** Seconds a load request may take when the profile names no timeout (and its stage is longer). */
const DEFAULT_TIMEOUT_SECONDS = 10;

/** The folder of the shipped profiles, relative to the scenario folder. */
export const LOAD_PROFILE_FOLDER = 'load';

/** Where a profile argument points: a file path as given, else a name under the profiles folder. */
export async function resolveProfilePath(argument: string, profilesDir: string): Promise<string> {
  if (/[\\/]|\.ya?ml$/.test(argument)) return path.resolve(argument);
  const names = (await readdir(profilesDir).catch(() => [] as string[]))
    .filter((n) => /\.ya?ml$/.test(n))
    .map((n) => n.replace(/\.ya?ml$/, ''));
  if (!names.includes(argument)) {
    throw new RunError(
      'ERR_USAGE',
      `unknown load profile '${argument}'${didYouMean(argument, names)}; the profiles are: ${names.sort().join(', ')} (or give a file ` +
        `path)`,
    );
  }
  return path.join(profilesDir, `${argument}.yaml`);
}

function semanticProblems(
  doc: Record<string, unknown>,
  at: (p: Array<string | number>) => { line: number; column: number },
  file: string,
): FileProblem[] {
  const problems: FileProblem[] = [];
  const problem = (p: Array<string | number>, message: string): void => {
    problems.push({ file, ...at(p), message });
  };
  const ramp = doc['ramp'] as Ramp | undefined;
  if (ramp !== undefined && doc['rate'] !== undefined)
    problem(['rate'], "'rate' and 'ramp' exclude each other: a profile runs at one rate or ramps up");
  if (ramp !== undefined && ramp.from > ramp.to) problem(['ramp', 'from'], `ramp.from (${ramp.from}) is above ramp.to (${ramp.to})`);
  if (ramp?.require !== undefined && (ramp.require < ramp.from || ramp.require > ramp.to))
    problem(['ramp', 'require'], `ramp.require (${ramp.require}) must lie between from and to`);
  const pressure = doc['pressure'] as { duration: number } | undefined;
  if (pressure !== undefined && ramp !== undefined)
    problem(['pressure'], "'pressure' and 'ramp' exclude each other: a ramp's rising stages are its pressure");
  const duration = doc['duration'] as number | undefined;
  if (pressure !== undefined && duration !== undefined && ramp === undefined && pressure.duration >= duration)
    problem(
      ['pressure', 'duration'],
      `pressure.duration (${pressure.duration} s) must be shorter than duration (${duration} s), which it is taken from`,
    );
  const timeout = doc['timeout'] as number | undefined;
  const measured = ramp?.stageDuration ?? (doc['duration'] as number | undefined);
  if (timeout !== undefined && measured !== undefined && timeout > measured) {
    const what = ramp === undefined ? 'duration' : 'ramp.stageDuration';
    problem(
      ['timeout'],
      `timeout (${timeout} s) is longer than ${what} (${measured} s): a request still unanswered at the stop could never count as a ` +
        `timeout; make timeout at most ${measured}`,
    );
  }
  ((doc['production'] as string[] | undefined) ?? []).forEach((url, index) => {
    if (!URL.canParse(url)) problem(['production', index], `production entry '${url}' is not a URL`);
  });
  return problems;
}

/** Reads and validates one profile; every problem is reported at once with file:line:col (exit 2). */
export async function loadProfile(file: string, validate: ValidateFunction, displayRoot: string): Promise<LoadProfile> {
  const display = displayName(file, displayRoot);
  const { source, problems } = await validateYamlFile(file, validate, display);
  if (source) problems.push(...semanticProblems(source.value as Record<string, unknown>, (p) => source.locate(p), display));
  if (problems.length > 0 || !source) throw problemsError('ERR_SCENARIO_INVALID', 'the load profile', problems);
  const doc = source.value as Record<string, unknown>;
  const { trend, ...thresholds } = doc['thresholds'] as Partial<Record<Metric, Threshold>> & {
    trend?: false | Omit<Partial<TrendSettings>, 'enabled'>;
  };
  const thresholdSources: Partial<Record<Metric, SourceLocation>> = {};
  for (const metric of METRICS) {
    if (thresholds[metric] !== undefined) thresholdSources[metric] = { file: display, ...source.locate(['thresholds', metric], true) };
  }
  const sampling = (doc['sampling'] ?? {}) as { first?: number; every?: number };
  const profile: LoadProfile = {
    name: path.basename(file).replace(/\.ya?ml$/, ''),
    title: doc['title'] as string,
    file: display,
    connections: (doc['connections'] as number | undefined) ?? 10,
    duration: doc['duration'] as number,
    maxRequests: doc['maxRequests'] as number,
    warmup: (doc['warmup'] as number | undefined) ?? 0,
    // The default timeout fits the stage, so that a stage can always record one.
    timeout:
      (doc['timeout'] as number | undefined) ??
      Math.min(DEFAULT_TIMEOUT_SECONDS, (doc['ramp'] as Ramp | undefined)?.stageDuration ?? (doc['duration'] as number)),
    queries: (doc['queries'] as QueryMix[]).map((q) => ({ ...q, weight: q.weight ?? 1 })),
    sampling: { first: sampling.first ?? 10, every: sampling.every ?? 50 },
    thresholds,
    thresholdSources,
    trend: trend === false ? { ...DEFAULT_TREND, enabled: false } : { ...DEFAULT_TREND, ...trend },
    production: (doc['production'] as string[] | undefined) ?? [],
    baselineTolerance: (doc['baseline'] as { tolerance?: number } | undefined)?.tolerance ?? 0.1,
  };
  if (trend !== undefined) profile.trendSource = { file: display, ...source.locate(['thresholds', 'trend'], true) };
  if (doc['rate'] !== undefined) profile.rate = doc['rate'] as number;
  if (doc['workers'] !== undefined) profile.workers = doc['workers'] as number;
  if (doc['pressure'] !== undefined) {
    profile.pressure = doc['pressure'] as PressureStep;
    profile.pressureSource = { file: display, ...source.locate(['pressure'], true) };
  }
  if (doc['ramp'] !== undefined) {
    profile.ramp = doc['ramp'] as Ramp;
    profile.rampSource = { file: display, ...source.locate(['ramp', ...(profile.ramp.require === undefined ? [] : ['require'])], true) };
  }
  return profile;
}
