/** Loads suites/*.yaml: the named groups of checks that `--suite` selects. */
import { RunError } from '../model/errors.js';
import type { ValidateFunction } from 'ajv';
import { displayName, listYamlFiles } from './scenarios.js';
import { formatProblem, readYamlSource, schemaProblems, type FileProblem } from './yaml-file.js';

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
  for (const file of await listYamlFiles(dir)) {
    const display = displayName(file, displayRoot);
    const { source, problems: syntax } = await readYamlSource(file);
    problems.push(...syntax.map((p) => ({ ...p, file: display })));
    if (!source) continue;
    const found = schemaProblems(source, validate, source.value);
    problems.push(...found.map((p) => ({ ...p, file: display })));
    if (found.length === 0) suites.push(source.value as unknown as SuiteInfo);
  }
  if (problems.length > 0) {
    throw new RunError('ERR_CONFIG', formatProblem(problems[0] as FileProblem), problems.slice(1).map(formatProblem));
  }
  return suites;
}
