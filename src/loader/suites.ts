/** Loads suites/*.yaml: the named groups of checks that `--suite` selects. */
import path from 'node:path';
import { RunError } from '../model/errors.js';
import { createAjv } from './ajv.js';
import { loadSchemaDocuments } from './contract.js';
import { displayName, listYamlFiles } from './scenarios.js';
import { formatProblem, readYamlSource, schemaProblems, type FileProblem } from './yaml-file.js';

/** A suite definition. */
export interface SuiteInfo {
  name: string;
  title: string;
  description: string;
}

/** Loads and validates every suite file; throws RunError with every problem located. */
export async function loadSuites(dir: string, schemasDir: string, displayRoot: string): Promise<SuiteInfo[]> {
  const documents = await loadSchemaDocuments(schemasDir);
  const schema = [...documents.values()].find((d) => path.basename(d.file) === 'suite.schema.json');
  if (!schema) throw new RunError('ERR_SCHEMA_INVALID', `${schemasDir}: suite.schema.json is missing`);
  const validate = createAjv().compile(schema.schema);
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
