/** The HTML report's part of --baseline: a section of what changed since, and the NEW mark on a case that fails anew. */
import { sinceBaselineLine, unlikeLine, wasWords } from '../model/baseline.js';
import type { RunReport } from '../model/results.js';
import { changeGroups, rulesLine } from './baseline-view.js';
import { escapeHtml } from './html.js';

/** The most cases a group lists in the page; report.json holds them all. */
const MAX_LISTED = 100;

/** The style of the section and the mark (the page's colours by variable). */
export const BASELINE_STYLE =
  '.b-new { background: var(--failed); outline: 2px solid #000; } #since-baseline ul { margin: 4px 0 8px; } ' +
  '#since-baseline .unlike { color: var(--could-not-test); }';

/** The ids of the cases that fail anew, for the mark. */
export function newFailureIds(report: RunReport): ReadonlySet<string> {
  return new Set((report.sinceBaseline?.newFailures ?? []).map((c) => c.id));
}

/** The mark a case that fails anew carries beside its outcome. */
export function newMark(id: string, isNew: ReadonlySet<string>): string {
  return isNew.has(id) ? '<span class="badge b-new" title="failing now, not in the baseline">NEW</span>' : '';
}

/** The section: the headline, how the runs differ, each group of cases (new failures first, linked to their cards), the rules. */
export function sinceBaselineSection(report: RunReport): string {
  const since = report.sinceBaseline;
  if (since === undefined) return '';
  const unlike = unlikeLine(since);
  const groups = changeGroups(since).map((group) => {
    const items = group.changes.slice(0, MAX_LISTED).map((change) => {
      const link =
        group.key === 'fixed' ? escapeHtml(change.id) : `<a href="#result-${escapeHtml(change.id)}">${escapeHtml(change.id)}</a>`;
      return `<li><code>${link}</code> <span class="n">${escapeHtml(wasWords(change.was))}</span></li>`;
    });
    const more = group.changes.length > MAX_LISTED ? `<li>and ${group.changes.length - MAX_LISTED} more in report.json</li>` : '';
    const open = group.key === 'new' || group.changes.length <= 10 ? ' open' : '';
    return `<details${open}><summary><b>${escapeHtml(group.title)}</b> (${group.changes.length})</summary><ul>${items.join('')}${more}</ul></details>`;
  });
  const rules = rulesLine(since);
  return [
    `<section id="since-baseline"><h2>${escapeHtml(sinceBaselineLine(since))}</h2>`,
    `<p class="where">compared with ${escapeHtml(since.file)}</p>`,
    unlike === undefined ? '' : `<p class="unlike">${escapeHtml(unlike)}</p>`,
    ...groups,
    rules === undefined ? '' : `<p>${escapeHtml(rules)}</p>`,
    '</section>',
  ].join('\n');
}
