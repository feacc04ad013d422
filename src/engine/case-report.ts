/** A case as reports show it: its description, the results of a case not judged, and its events, always paired. */
import { notJudgedCase } from '../checks/run-judging.js';
import type { Emit } from '../model/events.js';
import type { CaseInfo, CaseResult } from '../model/results.js';
import type { CaseSpec } from '../model/scenario.js';

// The judge's form of a case not judged, where the phases that skip a case reach it.
export { notJudgedCase };

/** The static description of a case, as the catalogue and reports show it. */
export function caseInfo(spec: CaseSpec): CaseInfo {
  const { id, title, clause, suite, operation, level, source } = spec;
  return source === undefined ? { id, title, clause, suite, operation, level } : { id, title, clause, suite, operation, level, source };
}

/** A case the configuration disabled, not judged, with its reason; undefined when it is not disabled. */
export function disabledCase(info: CaseInfo, disabled: ReadonlyMap<string, string>): CaseResult | undefined {
  const reason = disabled.get(info.id);
  return reason === undefined ? undefined : notJudgedCase(info, 'disabled', `disabled by the configuration: ${reason}`);
}

/**
 * Runs one case with its events paired: case-start, the result, case-end. What stops the run inside it (a load that
 * cannot start) still ends the case for the listeners, not finished, before it goes on up.
 */
export async function reportCase(emit: Emit, info: CaseInfo, run: () => Promise<CaseResult> | CaseResult): Promise<CaseResult> {
  await emit({ type: 'case-start', info });
  let result: CaseResult;
  try {
    result = await run();
  } catch (error) {
    const ended = notJudgedCase(info, 'interrupted', `not finished: ${error instanceof Error ? error.message : String(error)}`);
    await emit({ type: 'case-end', result: ended });
    throw error;
  }
  await emit({ type: 'case-end', result });
  return result;
}
