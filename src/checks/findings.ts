/** Run findings: what the recommendation-level exchange checks said about the run's responses, by check id, never a case's outcome. */
import type { CheckMeta } from '../model/check.js';
import type { Exchange } from '../model/exchange.js';
import { type CheckOutcome, type Finding, type InternalError, MAX_FINDING_EXAMPLES } from '../model/results.js';

/** Collects the run's findings and the internal errors of the checks that make them, each once per check id with a few examples. */
export class RunFindings {
  private readonly byId = new Map<string, Finding>();
  private readonly errors = new Map<string, InternalError>();

  /** Records what a recommendation check said about one response of a case: a warning is a finding, a throw an internal error. */
  record(check: Pick<CheckMeta, 'id' | 'title' | 'clause'>, caseId: string, exchange: Exchange, outcome: CheckOutcome): void {
    if (outcome.outcome === 'internal-error') {
      const known = this.errors.get(check.id) ?? { where: check.id, message: outcome.message, count: 0, cases: [] };
      known.count += 1;
      if (known.cases.length < MAX_FINDING_EXAMPLES && !known.cases.includes(caseId)) known.cases.push(caseId);
      this.errors.set(check.id, known);
      return;
    }
    if (outcome.outcome !== 'warned') return;
    const finding = this.byId.get(check.id) ?? { id: check.id, title: check.title, clause: check.clause, count: 0, examples: [] };
    finding.count += 1;
    if (finding.examples.length < MAX_FINDING_EXAMPLES)
      finding.examples.push({
        caseId,
        step: outcome.step,
        message: outcome.message,
        request: `${exchange.request.method} ${exchange.request.url}`,
        status: exchange.response.status,
        ...(outcome.failures === undefined ? {} : { failures: outcome.failures }),
      });
    this.byId.set(check.id, finding);
  }

  /** The findings, in the order their checks first found something. */
  get findings(): Finding[] {
    return [...this.byId.values()];
  }

  /** The recommendation checks that threw, once per check id. */
  get internalErrors(): InternalError[] {
    return [...this.errors.values()];
  }
}
