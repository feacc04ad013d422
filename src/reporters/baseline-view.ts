/** What every reporter says of --baseline: the headline, then the changes, new failures first, each case with what it was. */
import { sinceBaselineLine, unlikeLine, wasWords } from '../model/baseline.js';
import type { BaselineChange, RunReport, SinceBaseline } from '../model/results.js';

/** One group of changes since the baseline, in the order reports list them: new failures first. */
export interface ChangeGroup {
  key: 'new' | 'fixed' | 'still' | 'not-judged';
  title: string;
  changes: BaselineChange[];
}

/** The groups of changes of cases, new failures first; empty groups left out. */
export function changeGroups(since: SinceBaseline): ChangeGroup[] {
  const groups: ChangeGroup[] = [
    { key: 'new', title: 'new failures', changes: since.newFailures },
    { key: 'fixed', title: 'fixed', changes: since.fixed },
    { key: 'not-judged', title: 'newly not judged', changes: since.newlyNotJudged },
    { key: 'still', title: 'still failing', changes: since.stillFailing },
  ];
  return groups.filter((g) => g.changes.length > 0);
}

/** A change as one short phrase: `listPets.limit.max (was passed)`. */
export function changeText(change: BaselineChange): string {
  return `${change.id} (${wasWords(change.was)})`;
}

/** The rules that changed, in one line, when any did: `rules: 1 newly failing (errors.error-body), ...`. */
export function rulesLine(since: SinceBaseline): string | undefined {
  const parts = [
    ['newly failing', since.rules.newFailures],
    ['fixed', since.rules.fixed],
    ['newly not judged', since.rules.newlyNotJudged],
  ] as const;
  const said = parts
    .filter(([, changes]) => changes.length > 0)
    .map(
      ([words, changes]) =>
        `${changes.length} ${words} (${listedIds(
          changes.map((c) => c.id),
          5,
        )})`,
    );
  return said.length === 0 ? undefined : `rules since the baseline: ${said.join(', ')}`;
}

/** Ids in a line: the first `max`, then how many more. */
function listedIds(ids: readonly string[], max: number): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

/** Whether the run gates on new failures only (--fail-on new with a baseline). */
export function gatesOnNew(report: RunReport): boolean {
  return report.sinceBaseline !== undefined && report.meta.options['failOn'] === 'new';
}

/** The lines of the comparison in plain text, at most `max` cases a group: the headline, how the runs differ, the groups, the rules. */
export function sinceBaselineLines(since: SinceBaseline, max: number): string[] {
  const lines = [sinceBaselineLine(since)];
  const unlike = unlikeLine(since);
  if (unlike !== undefined) lines.push(`  ${unlike}`);
  for (const group of changeGroups(since)) {
    const shown = group.key === 'still' ? [] : group.changes.slice(0, max);
    lines.push(
      `  ${group.title} (${group.changes.length}):${
        shown.length === 0
          ? ` ${listedIds(
              group.changes.map((c) => c.id),
              8,
            )}`
          : ''
      }`,
    );
    for (const change of shown) lines.push(`    ${changeText(change)}`);
    if (shown.length > 0 && shown.length < group.changes.length)
      lines.push(`    and ${group.changes.length - shown.length} more in report.json (sinceBaseline)`);
  }
  const rules = rulesLine(since);
  if (rules !== undefined) lines.push(`  ${rules}`);
  if (since.newFindings.length > 0) lines.push(`  new findings: ${listedIds(since.newFindings, 8)}`);
  return lines;
}
