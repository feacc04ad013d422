/** The configuration file (--config FILE or PETSTORE_CONFIG): a team's defaults, validated like every input file. */
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { RunError } from '../model/errors.js';
import type { SourceLocation } from '../model/results.js';
import { displayName } from './cases.js';
import { problemsError, validateYamlFile } from './yaml-file.js';

/** A loaded configuration; paths are already resolved against the file's folder. */
export interface SuiteConfig {
  file: string;
  baseUrl?: string;
  apiKeyFile?: string;
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  /** Headers sent on every request, as --header sends them. */
  headers?: Record<string, string>;
  categoryId?: string;
  suites?: string[];
  reporters?: string[];
  reportDir?: string;
  readOnly?: boolean;
  strict?: boolean;
  concurrency?: number;
  consistencyWindowMs?: number;
  timeoutMs?: number;
  rateLimit?: number;
  maxWaitSeconds?: number;
  waitBudgetSeconds?: number;
  production: string[];
  /** Checks or cases switched off by id, each with the reason the report shows. */
  disable: Array<{ id: string; reason: string; source: SourceLocation }>;
}

/** Reads and validates a configuration file; every problem located (exit 2). */
export async function loadConfig(file: string, validate: ValidateFunction, displayRoot: string): Promise<SuiteConfig> {
  const display = displayName(file, displayRoot);
  const { source, problems } = await validateYamlFile(file, validate, display);
  const raw = (source?.value ?? {}) as Record<string, unknown>;
  ((raw['production'] as string[] | undefined) ?? []).forEach((url, index) => {
    if (source && !URL.canParse(url))
      problems.push({ file: display, ...source.locate(['production', index]), message: `production entry '${url}' is not a URL` });
  });
  const disable = ((raw['disable'] as Array<{ id: string; reason: string }> | undefined) ?? []).map((entry, index) => ({
    ...entry,
    source: { file: display, ...(source?.locate(['disable', index, 'id']) ?? { line: 1, column: 1 }) },
  }));
  if (!source || problems.length > 0) throw problemsError('ERR_CONFIG', 'the configuration file', problems);
  const relative = (key: string): string | undefined =>
    typeof raw[key] === 'string' ? path.resolve(path.dirname(file), raw[key]) : undefined;
  const config: SuiteConfig = {
    ...(raw as Omit<SuiteConfig, 'file' | 'production' | 'disable'>),
    file: display,
    production: (raw['production'] as string[] | undefined) ?? [],
    disable,
  };
  for (const key of ['apiKeyFile', 'caFile', 'clientCert', 'clientKey', 'reportDir'] as const) {
    const resolved = relative(key);
    if (resolved !== undefined) config[key] = resolved;
  }
  if (raw['categoryId'] !== undefined) config.categoryId = String(raw['categoryId']);
  return config;
}

/** The production entry a base URL falls under (same origin, path at or below the entry's), if any. */
export function productionMark(baseUrl: string, production: readonly string[]): string | undefined {
  const base = new URL(baseUrl);
  return production.find((listed) => {
    const mark = new URL(listed);
    return base.origin === mark.origin && `${base.pathname.replace(/\/$/, '')}/`.startsWith(`${mark.pathname.replace(/\/$/, '')}/`);
  });
}

/** Refuses `disable` entries that name no check or case (a typo would silently disable nothing). */
export function checkDisabledIds(config: SuiteConfig, knownIds: ReadonlySet<string>): void {
  const problems = config.disable
    .filter((entry) => !knownIds.has(entry.id))
    .map((entry) => ({
      ...entry.source,
      message: `disable: no check or case has the id '${entry.id}' (petstore-conformance catalogue lists them)`,
    }));
  if (problems.length > 0) throw problemsError('ERR_CONFIG', 'the configuration file', problems);
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
