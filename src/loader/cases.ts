/** Loads scenarios/*.yaml into cases: every file validated against schemas/scenario.schema.json first. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { RunError } from '../model/errors.js';
import { isJsonObject, type JsonValue } from '../model/json.js';
import type { Level, SourceLocation } from '../model/results.js';
import {
  expectationEntries,
  stepsWrite,
  type CaseSpec,
  type ClockWindow,
  type StoreRequirement,
  type OperationName,
  type StepSpec,
} from '../model/scenario.js';
import { BUILTIN_VARIABLES, placeholdersIn } from '../model/template.js';
import type { ValidateFunction } from 'ajv';
import { problemsError, validateYamlFile, type FileProblem, type YamlSource } from './yaml-file.js';

/** Folders under scenarios/ that hold other kinds of file (load profiles have their own schema). */
const OTHER_KINDS = new Set(['load']);

/** Every YAML file below a folder, sorted, skipping the folders of other file kinds. */
export async function listYamlFiles(dir: string, skip: ReadonlySet<string> = OTHER_KINDS): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new RunError('ERR_CONFIG', `${dir}: cannot read the folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.has(entry.name)) files.push(...(await listYamlFiles(full, skip)));
    } else if (/\.ya?ml$/.test(entry.name)) {
      files.push(full);
    }
  }
  return files;
}

/** What the loader needs to know beyond the files. */
export interface ScenarioLoadOptions {
  /** Suite names defined in suites/. */
  suites: ReadonlySet<string>;
  /** How file names appear in messages and reports (relative to this folder). */
  displayRoot: string;
  /** Ids a case may not take: those of registered checks and generated cases. */
  reservedIds: ReadonlySet<string>;
}

/** A file as messages show it: relative to the package for its own files, else to the working folder. */
export function displayName(file: string, root: string): string {
  const inside = path.relative(root, file);
  return inside.startsWith('..') || path.isAbsolute(inside) ? path.relative(process.cwd(), file) || file : inside;
}

function toSteps(raw: Record<string, JsonValue>): StepSpec[] {
  if (Array.isArray(raw['steps'])) return (raw['steps'] as unknown as StepSpec[]).map((step) => ({ ...step }));
  const step: Record<string, JsonValue> = {};
  for (const key of ['request', 'expect', 'warn', 'capture', 'readAfterWrite']) {
    const v = raw[key];
    if (v !== undefined) step[key] = v;
  }
  return [step as unknown as StepSpec];
}

/** Where each expectation of a step is declared, by the path the engine names it with (`expect.status`, `expect.when.400.schema`). */
function expectationSources(step: StepSpec, at: (path: Array<string | number>) => SourceLocation): Record<string, SourceLocation> {
  const sources: Record<string, SourceLocation> = {};
  for (const block of ['expect', 'warn'] as const) {
    for (const entry of expectationEntries(step[block])) sources[`${block}.${entry.path}`] = at([block, ...entry.path.split('.')]);
  }
  if (step.capture !== undefined) sources['capture'] = at(['capture']);
  return sources;
}

function checkVariables(steps: StepSpec[], problemAt: (path: Array<string | number>, message: string) => void, hasSteps: boolean): void {
  const known = new Set(BUILTIN_VARIABLES);
  steps.forEach((step, index) => {
    const base: Array<string | number> = hasSteps ? ['steps', index] : [];
    for (const part of ['request', 'expect', 'warn'] as const) {
      for (const name of placeholdersIn(step[part])) {
        if (!known.has(name)) {
          problemAt(
            [...base, part],
            `unknown variable {${name}}: use one of ${[...known].map((k) => `{${k}}`).join(', ')} or capture it in an earlier step`,
          );
        }
      }
    }
    for (const name of Object.keys(step.capture ?? {})) known.add(name);
  });
}

function fileCases(source: YamlSource, options: ScenarioLoadOptions, problems: FileProblem[]): CaseSpec[] {
  const doc = source.value as Record<string, JsonValue>;
  const display = displayName(source.file, options.displayRoot);
  const cases: CaseSpec[] = [];
  // `checks` is the former name of `cases`: files written for it still load.
  const listKey = doc['cases'] === undefined ? 'checks' : 'cases';
  const rawCases = doc[listKey] as Array<Record<string, JsonValue>>;
  rawCases.forEach((raw, index) => {
    const problemAt = (p: Array<string | number>, message: string): void => {
      const where = source.locate([listKey, index, ...p]);
      problems.push({ file: display, line: where.line, column: where.column, message });
    };
    const operation = (raw['operation'] ?? doc['operation']) as OperationName | undefined;
    const suite = (raw['suite'] ?? doc['suite']) as string | undefined;
    if (operation === undefined) problemAt([], `case '${String(raw['id'])}' names no operation (set 'operation' on the case or the file)`);
    if (suite === undefined) problemAt([], `case '${String(raw['id'])}' names no suite (set 'suite' on the case or the file)`);
    else if (!options.suites.has(suite))
      problemAt(
        raw['suite'] ? ['suite'] : [],
        `unknown suite '${suite}': define it in suites/ or use one of ${[...options.suites].join(', ')}`,
      );
    if (options.reservedIds.has(raw['id'] as string))
      problemAt(
        ['id'],
        `'${String(raw['id'])}' is already the id of a registered check or of a case generated from the contract; choose another id`,
      );
    const hasSteps = Array.isArray(raw['steps']);
    const steps = toSteps(raw);
    checkVariables(steps, problemAt, hasSteps);
    steps.forEach((step, stepIndex) => {
      step.sources = expectationSources(step, (p) => ({
        file: display,
        ...source.locate([listKey, index, ...(hasSteps ? ['steps', stepIndex] : []), ...p], true),
      }));
    });
    const where = source.locate([listKey, index]);
    const spec: CaseSpec = {
      id: raw['id'] as string,
      title: raw['title'] as string,
      clause: raw['clause'] as string,
      suite: suite ?? '',
      operation: operation ?? 'listPets',
      level: (raw['level'] as Level | undefined) ?? 'fail',
      source: { file: display, line: where.line, column: where.column },
      steps,
      writes: stepsWrite(steps),
    };
    if (isJsonObject(raw['clock'])) spec.clock = raw['clock'] as ClockWindow;
    if (isJsonObject(raw['requires'])) spec.requires = raw['requires'] as unknown as StoreRequirement;
    cases.push(spec);
  });
  return cases;
}

/**
 * Loads every scenario file below `dirs` into cases, validated by the scenario schema's validator. All problems of all files are gathered
 * before failing, so one run shows everything to fix; the error's details hold one `file:line:col: message` each.
 */
export async function loadCases(dirs: readonly string[], validate: ValidateFunction, options: ScenarioLoadOptions): Promise<CaseSpec[]> {
  const problems: FileProblem[] = [];
  const cases: CaseSpec[] = [];
  const files = (await Promise.all(dirs.map((dir) => listYamlFiles(dir)))).flat();
  // Read side by side, gathered in file order: the order of cases and problems does not depend on which read ends first.
  const validated = await Promise.all(files.map((file) => validateYamlFile(file, validate, displayName(file, options.displayRoot))));
  for (const { source, problems: found } of validated) {
    problems.push(...found);
    if (source) cases.push(...fileCases(source, options, problems));
  }
  const firstById = new Map<string, CaseSpec>();
  for (const spec of cases) {
    const first = firstById.get(spec.id);
    const at = spec.source as SourceLocation;
    if (first) {
      problems.push({
        ...at,
        message: `duplicate case id '${spec.id}' (first declared at ${first.source?.file ?? ''}:${first.source?.line ?? 0})`,
      });
    } else {
      firstById.set(spec.id, spec);
    }
  }
  if (problems.length > 0) throw problemsError('ERR_SCENARIO_INVALID', 'scenario files', problems);
  if (cases.length === 0) throw new RunError('ERR_SCENARIO_INVALID', `${dirs.join(', ')}: no scenario files found`);
  return cases;
}
