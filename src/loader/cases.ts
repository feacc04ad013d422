/**
 * Loads scenarios/*.yaml (and a team's scenario files or folders) into cases: every file validated against schemas/scenario.schema.json
 * first.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { RunError } from '../model/errors.js';
import { isJsonObject, type JsonValue } from '../model/json.js';
import { didYouMean } from '../model/suggest.js';
import type { Level } from '../model/results.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  expectationEntries,
  stepsWrite,
  type CaseSpec,
  type ClockWindow,
  type StoreRequirement,
  type StepSpec,
} from '../model/scenario.js';
import type { OperationName } from '../model/contract-names.js';
import { BUILTIN_VARIABLES, placeholdersIn } from '../model/template.js';
import type { ValidateFunction } from 'ajv';
import { packagePath } from './package-paths.js';
import { problemsError, validateYamlFile, type FileProblem, type YamlSource } from './yaml-file.js';
import { ROLES } from '../model/contract.js';

/** Folders under scenarios/ that hold other kinds of file (load profiles and suites have their own schemas). */
const OTHER_KINDS = new Set(['load', 'suites']);

/** The folder a scenario path's own suites are defined in: a folder's `suites/`, the `suites/` beside a file; the package's own. */
function suitesFolderOf(root: string, isFolder: boolean): string {
  const resolved = path.resolve(root);
  if (resolved === packagePath('scenarios')) return packagePath('suites');
  return path.join(isFolder ? resolved : path.dirname(resolved), 'suites');
}

/** A path `--scenarios` (or the configuration's `scenarios`) gives: its scenario files, and the folder of its own suites. */
interface ScenarioRoot {
  files: string[];
  suitesDir: string;
}

/** The scenario files of a path: the file itself, or every YAML file below the folder; one that names neither is one line. */
async function scenarioRoot(root: string, displayRoot: string): Promise<ScenarioRoot> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(root)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOENT' ? 'no such file or folder' : `cannot read it (${code})`;
    throw new RunError(
      'ERR_CONFIG',
      `scenarios ${displayName(root, displayRoot)}: ${why} (scenarios come from a YAML file or a folder of them)`,
    );
  }
  const files = isFolder ? await listYamlFiles(root) : [root];
  if (files.length === 0)
    throw new RunError('ERR_SCENARIO_INVALID', `${displayName(root, displayRoot)}: no scenario files (*.yaml, *.yml) in this folder`);
  return { files, suitesDir: suitesFolderOf(root, isFolder) };
}

/** The folders of suite files beside scenario paths, those that exist: a team defines its own suites there. */
export async function suiteFolders(roots: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    roots.map(async (root) => {
      const isFolder = await stat(root).then(
        (info) => info.isDirectory(),
        () => undefined,
      );
      if (isFolder === undefined) return [];
      const dir = suitesFolderOf(root, isFolder);
      return (await stat(dir).then(
        (info) => info.isDirectory(),
        () => false,
      ))
        ? [dir]
        : [];
    }),
  );
  return [...new Set(found.flat())];
}

/** Every YAML file below a folder, sorted, skipping the folders of other file kinds. */
export async function listYamlFiles(dir: string, skip: ReadonlySet<string> = OTHER_KINDS): Promise<string[]> {
  let entries: Dirent[];
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
  /** Suite names defined in suites/ and in the suites/ folders beside the scenarios. */
  suites: ReadonlySet<string>;
  /** How file names appear in messages and reports (relative to this folder). */
  displayRoot: string;
  /** Ids a case may not take: those of registered checks and generated cases. */
  reservedIds: ReadonlySet<string>;
}

/** A file as messages show it: relative to the package for its own files, else to the working folder when inside it, else whole. */
export function displayName(file: string, root: string): string {
  const outside = (relative: string): boolean => relative.startsWith('..') || path.isAbsolute(relative);
  const inside = path.relative(root, file);
  if (!outside(inside)) return inside;
  const here = path.relative(process.cwd(), file);
  return here === '' || outside(here) ? path.resolve(file) : here;
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

/** What a case that names a suite no folder defines is told: the suite likely meant, where to define a new one, and every suite. */
function unknownSuite(suite: string, suitesDir: string, options: ScenarioLoadOptions): string {
  return (
    `unknown suite '${suite}'${didYouMean(suite, options.suites)}: define it in ${displayName(suitesDir, options.displayRoot)}/ (a ` +
    `YAML file with name, title and description: schemas/suite.schema.json), or use one of ${[...options.suites].join(', ')}`
  );
}

function fileCases(source: YamlSource, suitesDir: string, options: ScenarioLoadOptions, problems: FileProblem[]): CaseSpec[] {
  const doc = source.value as Record<string, JsonValue>;
  const display = displayName(source.file, options.displayRoot);
  const cases: CaseSpec[] = [];
  // `checks` is the former name of `cases`: files written for it still load.
  const listKey = doc['cases'] === undefined ? 'checks' : 'cases';
  const rawCases = doc[listKey] as Array<Record<string, JsonValue>>;
  let fileSuiteTold = false;
  rawCases.forEach((raw, index) => {
    const problemAt = (p: Array<string | number>, message: string): void => {
      const where = source.locate([listKey, index, ...p]);
      problems.push({ file: display, line: where.line, column: where.column, message });
    };
    const operation = (raw['operation'] ?? doc['operation']) as OperationName | undefined;
    const suite = (raw['suite'] ?? doc['suite']) as string | undefined;
    if (operation === undefined) problemAt([], `case '${String(raw['id'])}' names no operation (set 'operation' on the case or the file)`);
    if (suite === undefined) problemAt([], `case '${String(raw['id'])}' names no suite (set 'suite' on the case or the file)`);
    else if (!options.suites.has(suite) && raw['suite'] !== undefined) problemAt(['suite'], unknownSuite(suite, suitesDir, options));
    else if (!options.suites.has(suite) && !fileSuiteTold) {
      // The file's own suite is told once, where the file names it, however many cases take it.
      fileSuiteTold = true;
      problems.push({ file: display, ...source.locate(['suite']), message: unknownSuite(suite, suitesDir, options) });
    }
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
      operation: operation ?? ROLES.list,
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
 * Loads every scenario file of `dirs` (each a file, or a folder searched below) into cases, validated by the scenario schema's validator.
 * All problems of all files are gathered
 * before failing, so one run shows everything to fix; the error's details hold one `file:line:col: message` each.
 */
export async function loadCases(dirs: readonly string[], validate: ValidateFunction, options: ScenarioLoadOptions): Promise<CaseSpec[]> {
  const problems: FileProblem[] = [];
  const cases: CaseSpec[] = [];
  const files = (await Promise.all(dirs.map((dir) => scenarioRoot(dir, options.displayRoot)))).flatMap(({ files, suitesDir }) =>
    files.map((file) => ({ file, suitesDir })),
  );
  // Read side by side, gathered in file order: the order of cases and problems does not depend on which read ends first.
  const validated = await Promise.all(
    files.map(async ({ file, suitesDir }) => ({
      suitesDir,
      ...(await validateYamlFile(file, validate, displayName(file, options.displayRoot))),
    })),
  );
  for (const { source, problems: found, suitesDir } of validated) {
    problems.push(...found);
    if (source) cases.push(...fileCases(source, suitesDir, options, problems));
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
