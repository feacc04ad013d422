/** The cases phase: the cases scenario files declare and those generated from the contract, each step sent and judged. */
import { stepsWrite } from '../../model/scenario.js';
import { caseInfo, runCases } from '../cases.js';
import { caseOptions, type Phase } from '../phase.js';

/** The cases scenario files declare and those generated from the contract (the examples and coverage phases), at once. */
export const CASES_PHASE: Phase = {
  id: 'cases',
  title: 'the cases scenario files declare and those generated from the contract, each step sent and judged',
  cases: (inputs) => inputs.cases.map(caseInfo),
  enabled: (plan) => plan.conformance !== undefined,
  planned: (plan) => plan.conformance?.cases.map(caseInfo) ?? [],
  skipReason: () => undefined,
  writes: (plan) => (plan.conformance?.cases ?? []).reduce((sum, c) => sum + c.steps.filter((step) => stepsWrite([step])).length, 0),
  run: (context) => runCases(context.plan.conformance?.cases ?? [], caseOptions(context)),
};
