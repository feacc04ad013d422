/** Loads suites/*.yaml, and a team's suites/ beside its scenarios: the named groups of cases that `--suite` selects. */
import type { ValidateFunction } from 'ajv';
import { displayName, listYamlFiles } from './cases.js';
import { problemsError, validateYamlFile, type FileProblem } from './yaml-file.js';

/** A suite definition. */
export interface SuiteInfo {
  name: string;
  title: string;
  description: string;
}

/**
 * Loads and validates every suite file of the folders (the package's first); throws RunError with every problem located,
 * a name defined twice among them.
 */
export async function loadSuites(dirs: readonly string[], validate: ValidateFunction, displayRoot: string): Promise<SuiteInfo[]> {
  const problems: FileProblem[] = [];
  const suites: SuiteInfo[] = [];
  const firstFile = new Map<string, string>();
  const files = (await Promise.all(dirs.map((dir) => listYamlFiles(dir)))).flat();
  for (const { source, problems: found } of await Promise.all(
    files.map((file) => validateYamlFile(file, validate, displayName(file, displayRoot))),
  )) {
    problems.push(...found);
    if (!source) continue;
    const suite = source.value as unknown as SuiteInfo;
    const display = displayName(source.file, displayRoot);
    const first = firstFile.get(suite.name);
    if (first === undefined) {
      firstFile.set(suite.name, display);
      suites.push(suite);
    } else {
      problems.push({ file: display, ...source.locate(['name']), message: `suite '${suite.name}' is already defined in ${first}` });
    }
  }
  if (problems.length > 0) throw problemsError('ERR_CONFIG', 'suite files', problems);
  return suites;
}
