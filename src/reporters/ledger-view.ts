/** The ledger of judgement as every reporter words it: "judged N of M rules", and each rule not judged with why. */
import type { JudgementLedger, RuleLedgerEntry } from '../model/results.js';
import { oneLine } from './report-view.js';

/** The most rules the one line of --min-judged names; the rest are counted. */
export const MAX_NAMED_RULES = 8;

/** The rules the selection could have judged and nothing did, in the registry's order. */
export function unjudgedRules(ledger: JudgementLedger): RuleLedgerEntry[] {
  return ledger.rules.filter((rule) => rule.status === 'not-judged');
}

/** `judged 37 of 38 rules (97.3 %); 1 not judged`, and the minimum when one was asked: the line every reporter shows. */
export function ledgerLine(ledger: JudgementLedger): string {
  const unjudged = ledger.selected - ledger.judged;
  const minimum =
    ledger.minJudged === undefined ? '' : `, ${ledger.belowMinimum === true ? 'below' : 'at least'} --min-judged ${ledger.minJudged} %`;
  return (
    `judged ${ledger.judged} of ${ledger.selected} rule${ledger.selected === 1 ? '' : 's'} (${ledger.percent} %)${minimum}` +
    `${unjudged === 0 ? '' : `; ${unjudged} not judged`}`
  );
}

/** Why a rule was not judged (or not selected), its reasons with their counts: `the page is full (100) (×3); …`. */
export function reasonsText(rule: RuleLedgerEntry, max = 300): string {
  const reasons = (rule.reasons ?? []).map((r) => (r.count > 1 ? `${r.reason} (×${r.count})` : r.reason));
  return oneLine(reasons.length === 0 ? 'no reason recorded' : reasons.join('; '), max);
}

/** The one line of a run that judged less than --min-judged: how much, and which rules were not judged (the first few named). */
export function minJudgedLine(ledger: JudgementLedger, max = MAX_NAMED_RULES): string {
  const unjudged = unjudgedRules(ledger).map((rule) => rule.id);
  const named = unjudged.slice(0, max).join(', ');
  const more = unjudged.length > max ? ` and ${unjudged.length - max} more` : '';
  const cells = ledger.cells === undefined ? '' : ` and ${ledger.cells.judged} of ${ledger.cells.of} request-space cells`;
  return (
    `judged ${ledger.judged} of ${ledger.selected} rules (${ledger.percent} %)${cells}, below --min-judged ${ledger.minJudged ?? 0} %; ` +
    `not judged: ${unjudged.length === 0 ? 'none' : `${named}${more}`} (report.json's judgement says why)`
  );
}
