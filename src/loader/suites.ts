/** Loads suites/*.yaml: the named groups of cases that `--suite` selects. */
import type { ValidateFunction } from 'ajv';
import { displayName, listYamlFiles } from './cases.js';
import { problemsError, validateYamlFile, type FileProblem } from './yaml-file.js';

/** A suite definition. */
export interface SuiteInfo {
  name: string;
  title: string;
  description: string;
}

/** Loads and validates every suite file; throws RunError with every problem located. */
export async function loadSuites(dir: string, validate: ValidateFunction, displayRoot: string): Promise<SuiteInfo[]> {
  const problems: FileProblem[] = [];
  const suites: SuiteInfo[] = [];
  const files = await listYamlFiles(dir);
  for (const { source, problems: found } of await Promise.all(
    files.map((file) => validateYamlFile(file, validate, displayName(file, displayRoot))),
  )) {
    problems.push(...found);
    if (source) suites.push(source.value as unknown as SuiteInfo);
  }
  if (problems.length > 0) throw problemsError('ERR_CONFIG', 'suite files', problems);
  return suites;
}
