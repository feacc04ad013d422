/** The configuration file (--config FILE or PETSTORE_CONFIG): a team's defaults, validated like every input file. */
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { RunError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import type { SourceLocation } from '../model/source-location.js';
import { displayName } from './cases.js';
import { didYouMean } from '../model/suggest.js';
import { problemsError, validateYamlFile, type FileProblem } from './yaml-file.js';

/** A loaded configuration: its values as the file holds them (the option table reads them), and where each stands. */
export interface SuiteConfig {
  /** The file, as messages name it. */
  file: string;
  /** The folder its paths are relative to. */
  dir: string;
  /** Every key the file sets, valid against the schema. */
  values: Readonly<Record<string, JsonValue>>;
  /** Where the value at a path (or, with `key`, the key) stands. */
  locate(path: ReadonlyArray<string | number>, key?: boolean): SourceLocation;
  production: string[];
  /** Checks or cases switched off by id, each with the reason the report shows. */
  disable: Array<{ id: string; reason: string; source: SourceLocation }>;
}

/**
 * Reads a configuration file and finds every problem its schema and production list show, each located; the values that
 * have a problem are left out, so that what reads the rest never meets an invalid one. Throws (exit 2) only when the file
 * cannot be read or parsed at all.
 */
export async function readConfig(
  file: string,
  validate: ValidateFunction,
  displayRoot: string,
): Promise<{ config: SuiteConfig; problems: FileProblem[] }> {
  const display = displayName(file, displayRoot);
  const { source, problems } = await validateYamlFile(file, validate, display, true);
  if (!source) throw problemsError('ERR_CONFIG', 'the configuration file', problems);
  const invalid = new Set(problems.map((problem) => problem.path?.[0]));
  const raw = source.value !== null && typeof source.value === 'object' && !Array.isArray(source.value) ? source.value : {};
  const values = Object.fromEntries(Object.entries(raw).filter(([key]) => !invalid.has(key)));
  const production = (values['production'] as string[] | undefined) ?? [];
  production.forEach((url, index) => {
    if (!URL.canParse(url))
      problems.push({ file: display, ...source.locate(['production', index]), message: `production entry '${url}' is not a URL` });
  });
  const disable = ((values['disable'] as Array<{ id: string; reason: string }> | undefined) ?? []).map((entry, index) => ({
    ...entry,
    source: { file: display, ...source.locate(['disable', index, 'id']) },
  }));
  const config: SuiteConfig = {
    file: display,
    dir: path.dirname(file),
    values,
    locate: (at, key = false) => ({ file: display, ...source.locate(at, key) }),
    production: production.filter((url) => URL.canParse(url)),
    disable,
  };
  return { config, problems };
}

/** The production entry a base URL falls under (same origin, path at or below the entry's), if any. */
export function productionMark(baseUrl: string, production: readonly string[]): string | undefined {
  const base = new URL(baseUrl);
  return production.find((listed) => {
    const mark = new URL(listed);
    return base.origin === mark.origin && `${base.pathname.replace(/\/$/, '')}/`.startsWith(`${mark.pathname.replace(/\/$/, '')}/`);
  });
}

/** The `disable` entries that name no check or case (a typo would silently disable nothing), each located, with the id likely meant. */
export function disabledIdProblems(config: SuiteConfig, knownIds: ReadonlySet<string>): FileProblem[] {
  return config.disable
    .filter((entry) => !knownIds.has(entry.id))
    .map((entry) => ({
      ...entry.source,
      message:
        `disable: no check or case has the id '${entry.id}'${didYouMean(entry.id, knownIds)}; petstore-conformance catalogue ` +
        `lists them`,
    }));
}

/** Refuses load against a base URL that a production list (of a configuration file or a profile, `where`) names, unless allowed. */
export function refuseProductionLoad(baseUrl: string, production: readonly string[], where: string, allowed: boolean): void {
  const mark = productionMark(baseUrl, production);
  if (mark !== undefined && !allowed)
    throw new RunError(
      'ERR_CONFIG',
      `${baseUrl} is marked production in ${where} (${mark}); refusing to load it without --allow-production-load`,
    );
}
