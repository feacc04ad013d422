/**
 * `list` and `explain`: what a run would judge, without sending anything. `list` prints every case id a run with the same
 * --check, --suite and --case-kind would run (with its suite, operation, level and clause); `explain ID` prints one check's or
 * case's clause, what it demands and why, so that a hint can name a command where it named a file relative to nothing.
 */
import path from 'node:path';
import { REGISTRY } from '../checks/registry.js';
import { PHASES } from '../engine/phases/index.js';
import { packagePath } from '../loader/package-paths.js';
import { RunError } from '../model/errors.js';
import type { CaseInfo } from '../model/results.js';
import { didYouMean } from '../model/suggest.js';
import { oneLine } from '../reporters/report-view.js';
import { EXIT } from './exit-codes.js';
import type { GivenValues } from './options.js';
import { planRun } from './plan.js';

/** Where a command writes: the process's standard output, or a test's. */
interface Out {
  write(text: string): unknown;
}

/** Every case a run planned with these flags would run, in the order of its report; nothing is sent, no server started. */
export async function plannedCases(flags: GivenValues): Promise<CaseInfo[]> {
  // No environment: the list is what the flags select, whatever base URL or key a shell holds (the embedded server's run).
  const { plan } = await planRun(flags, {});
  return PHASES.filter((phase) => phase.gate !== true && phase.enabled(plan)).flatMap((phase) => [...phase.planned(plan)]);
}

/** A case as `list --json` gives it. */
function caseEntry(info: CaseInfo): Record<string, string> {
  return { id: info.id, suite: info.suite, operation: info.operation, level: info.level, clause: info.clause, title: info.title };
}

/** `list [--check GLOB] [--suite S] [--case-kind K] [--json]`: the cases a run would run, one a line, or as JSON. */
export async function listCases(flags: GivenValues & { json?: boolean }, out: Out): Promise<number> {
  const cases = await plannedCases(flags);
  if (flags.json === true) {
    out.write(`${JSON.stringify({ count: cases.length, cases: cases.map(caseEntry) }, null, 2)}\n`);
    return EXIT.passed;
  }
  const width = (pick: (c: CaseInfo) => string): number => Math.min(48, Math.max(4, ...cases.map((c) => pick(c).length)));
  const [id, suite, operation] = [width((c) => c.id), width((c) => c.suite), width((c) => c.operation)];
  out.write(`${'case'.padEnd(id)}  ${'suite'.padEnd(suite)}  ${'operation'.padEnd(operation)}  level  clause\n`);
  for (const c of cases)
    out.write(
      `${oneLine(c.id, 200).padEnd(id)}  ${c.suite.padEnd(suite)}  ${c.operation.padEnd(operation)}  ${c.level.padEnd(5)}  ` +
        `${oneLine(c.clause, 120)}\n`,
    );
  const suites = new Set(cases.map((c) => c.suite)).size;
  out.write(`${cases.length} case${cases.length === 1 ? '' : 's'} in ${suites} suite${suites === 1 ? '' : 's'}; nothing was sent\n`);
  return EXIT.passed;
}

/** The lines `explain` prints of a registered check. */
function checkLines(id: string): string[] | undefined {
  const check = REGISTRY.get(id);
  if (check === undefined) return undefined;
  return [
    `${check.id}: ${check.title}`,
    `  demands: ${check.title}`,
    `  why:     ${check.clause}`,
    `  applies: when ${check.appliesWhen}`,
    `  level:   ${check.level} (${check.level === 'fail' ? 'the contract speaks: a breach fails the run' : 'practice recommends: a breach warns'})`,
    `  scope:   ${check.scope}`,
    `  where:   ${packagePath('docs', 'checks.md')} lists every check and case`,
  ];
}

/** The lines `explain` prints of a case. */
function caseLines(info: CaseInfo): string[] {
  const source =
    info.source === undefined ? undefined : `${path.join(packagePath(), info.source.file)}:${info.source.line}:${info.source.column}`;
  return [
    `${info.id}: ${oneLine(info.title, 300)}`,
    `  demands: ${oneLine(info.title, 300)}`,
    `  why:     ${oneLine(info.clause, 500)}`,
    `  suite:   ${info.suite} · operation ${info.operation} · level ${info.level}`,
    ...(source === undefined ? [] : [`  declared: ${source}`]),
    `  run it:  petstore-conformance run --check '${info.id}'`,
  ];
}

/** `explain ID`: one check's or case's clause, what it demands and why; an unknown id is one line with the closest (exit 2). */
export async function explain(ids: readonly string[], out: Out): Promise<number> {
  if (ids.length !== 1) throw new RunError('ERR_USAGE', `'explain' takes one check or case id, got ${ids.length}`);
  const id = ids[0] as string;
  const check = checkLines(id);
  if (check !== undefined) {
    out.write(`${check.join('\n')}\n`);
    return EXIT.passed;
  }
  const cases = await plannedCases({} as GivenValues);
  const found = cases.find((c) => c.id === id);
  if (found === undefined)
    throw new RunError(
      'ERR_USAGE',
      `no check or case '${oneLine(id, 100)}'${didYouMean(id, [...REGISTRY.keys(), ...cases.map((c) => c.id)])}; ` +
        '`petstore-conformance list` prints every case id',
    );
  out.write(`${caseLines(found).join('\n')}\n`);
  return EXIT.passed;
}
