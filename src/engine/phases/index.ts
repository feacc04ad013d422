/**
 * PHASES: every phase of a run, in the order a run takes them (and its report lists their cases). Selection (--suite,
 * --phase, --check, --skip-check, the configuration's disable list), the plan, the catalogue, the events and the matrix
 * read this one list.
 */
import type { CaseInfo } from '../../model/results.js';
import type { Phase, PhaseInputs } from '../phase.js';
import { CASES_PHASE } from './cases.js';
import { CREATED_PETS_PHASE } from './created-pets.js';
import { FUZZ_PHASE } from './fuzz.js';
import { LOAD_PHASE } from './load.js';
import { MERGE_PHASE } from './merge.js';
import { PLANNED_STATES_PHASE } from './planned-states.js';
import { PREFLIGHT_PHASE } from './preflight.js';
import { REQUEST_SPACE_PHASE } from './request-space.js';
import { STATEFUL_PHASE } from './stateful.js';
import { STORE_FILL_PHASE } from './store-fill.js';
import { STORE_HEALTH_PHASE } from './store-health.js';
import { WAIT_FOR_PHASE } from './wait-for.js';

/** Every phase, in the order of a run. */
export const PHASES: readonly Phase[] = [
  WAIT_FOR_PHASE,
  PREFLIGHT_PHASE,
  PLANNED_STATES_PHASE,
  STORE_FILL_PHASE,
  CASES_PHASE,
  CREATED_PETS_PHASE,
  FUZZ_PHASE,
  REQUEST_SPACE_PHASE,
  STATEFUL_PHASE,
  STORE_HEALTH_PHASE,
  LOAD_PHASE,
  MERGE_PHASE,
];

/** Every case any phase can report, given the loaded inputs, in the order of a run. */
export function phaseCases(inputs: PhaseInputs): CaseInfo[] {
  return PHASES.flatMap((phase) => phase.cases(inputs));
}
