/** The cases phase: the cases scenario files declare and those generated from the contract, each step sent and judged. */
import { stepsWrite } from '../../model/scenario.js';
import { runCases, sending } from '../cases.js';
import { caseInfo } from '../case-report.js';
import type { Phase } from '../phase.js';

/** The cases scenario files declare and those generated from the contract (the examples and coverage phases), at once. */
export const CASES_PHASE: Phase = {
  id: 'cases',
  title: 'the cases scenario files declare and those generated from the contract, each step sent and judged',
  cases: (inputs) => inputs.cases.map(caseInfo),
  usesRunClient: true,
  enabled: (plan) => plan.selection.cases.length > 0,
  planned: (plan) => plan.selection.cases.map(caseInfo),
  skipReason: () => undefined,
  writes: (plan) => plan.selection.cases.reduce((sum, c) => sum + c.steps.filter((step) => stepsWrite([step])).length, 0),
  run: async (context) => ({ results: await runCases(context.plan.selection.cases, sending(context)) }),
};
