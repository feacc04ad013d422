/**
 * States planned for the rules that need them, before the store fill makes every page full: listings while pages are not
 * full (pets with and without a status, unfiltered and filtered); refused creates (no key, a wrong key, an invalid body),
 * each named so the listings after them can be searched for its pet; and a create read back at once, nothing between.
 * Its cases run side by side; each orders its own steps, a create before the reads that look for it.
 */
import { type Contract, listLimitOf, ROLES, statusValues } from '../../model/contract.js';
import { contractRequests } from '../../requests/contract-requests.js';
import type { JsonValue } from '../../model/json.js';
import type { CaseInfo, CaseResult } from '../../model/results.js';
import type { CaseSpec, RequestSpec, StepSpec } from '../../model/scenario.js';
import { runCase, sending } from '../cases.js';
import { notJudgedCase, reportCase } from '../case-report.js';
import { selectedOf, type Phase } from '../phase.js';

const CREATE_CLAUSE = 'Endpoints › createPet';

/** The planned cases, as the catalogue lists them. */
const PLANNED_STATE_CASES: readonly CaseInfo[] = [
  {
    id: 'states.before-fill.listed',
    title:
      'Before the store fill, while pages are not full: pets created with and without a status are in the listing without a ' +
      'filter and in that of their status',
    clause:
      'reading-the-contract: a page shorter than its limit holds every matching pet (a pet without a status included, in a ' +
      'listing without a filter)',
    suite: 'lifecycle',
    operation: ROLES.list,
    level: 'fail',
  },
  {
    id: 'states.refused-create.stored-nothing',
    title:
      'Creates refused with 401 (no key, a wrong key) and with 400 (a status outside the enum), each named, leave no pet in the ' +
      'listings read right after them',
    clause:
      'reading-the-contract: a refused request changes nothing, whatever refused it (a 401 included): no pet appears that a 201 ' +
      'did not hand out',
    suite: 'lifecycle',
    operation: ROLES.create,
    level: 'fail',
  },
  {
    id: 'states.read-after-write',
    title:
      'A create read back at once, nothing between: getPet of its id, then the listing of its status and the one without a ' +
      'filter hold it (retried within the consistency window)',
    clause:
      `${CREATE_CLAUSE}: the created Pet can be fetched by its id; reading-the-contract: read-after-write within the consistency ` +
      'window, and a page that is not full holds every matching pet',
    suite: 'lifecycle',
    operation: ROLES.list,
    level: 'fail',
  },
];

const [BEFORE_FILL, REFUSED, READ_AFTER_WRITE] = PLANNED_STATE_CASES as [CaseInfo, CaseInfo, CaseInfo];

/** A status no contract value is: a create with it is refused with 400. */
const OUTSIDE_ENUM = 'extinct';

/** The planned cases for this contract; those it lacks an operation for are absent. */
function plannedStateCases(contract: Contract): CaseSpec[] {
  const create = contract.operations.get(ROLES.create);
  const list = contract.operations.get(ROLES.list);
  const get = contract.operations.get(ROLES.get);
  if (create === undefined || list === undefined) return [];
  const limit = listLimitOf(contract).max;
  const statuses = statusValues(contract);
  const { templates } = contractRequests(contract);
  const post = (json: JsonValue, auth?: RequestSpec['auth']): RequestSpec => templates.create(json, auth === undefined ? {} : { auth });
  const listing = (status?: string): RequestSpec => templates.listing(status === undefined ? { limit } : { status, limit });
  const pet = (words: string, status?: string): JsonValue => ({
    name: `{runId} ${words}`,
    categoryId: '{categoryId}',
    ...(status === undefined ? {} : { status }),
  });
  const cases: CaseSpec[] = [];

  // Every listing is read after every create: a page is judged only when it is not full (holdsIfNotFull).
  // Steps after the first of a run of creates or of reads go alongside it: the creates together, then the reads together.
  const made: StepSpec[] = [
    { request: post(pet('window without status')), expect: { status: 201 }, capture: { petNone: '/id' } },
    ...statuses.map(
      (status, i): StepSpec => ({
        request: post(pet(`window ${status}`, status)),
        expect: { status: 201 },
        capture: { [`pet${i}`]: '/id' },
        alongside: true,
      }),
    ),
  ];
  const everyId = [{ id: '{petNone}' }, ...statuses.map((_, i) => ({ id: `{pet${i}}` }))];
  cases.push({
    ...BEFORE_FILL,
    writes: true,
    steps: [
      ...made,
      { request: listing(), expect: { status: 200, holdsIfNotFull: everyId }, readAfterWrite: true },
      ...statuses.map(
        (status, i): StepSpec => ({
          request: listing(status),
          expect: { status: 200, holdsIfNotFull: { id: `{pet${i}}` } },
          readAfterWrite: true,
          alongside: true,
        }),
      ),
    ],
  });

  // A refused create with a status shows in that status's listing, one without a status only in the unfiltered one.
  const shownIn = statuses.at(-1);
  cases.push({
    ...REFUSED,
    writes: true,
    steps: [
      { request: post(pet('refused without a key', shownIn), 'none'), expect: { status: 401, schema: 'Error' } },
      {
        request: post(pet('refused with a wrong key', shownIn), 'wrong-token'),
        expect: { status: 401, schema: 'Error' },
        alongside: true,
      },
      {
        request: post(pet('refused with a status outside the enum', OUTSIDE_ENUM)),
        expect: { status: 400, schema: 'Error' },
        alongside: true,
      },
      // The invariant store.refused-create-stored-nothing judges each listing: it knows the names the refused creates carried.
      { request: listing(), expect: { status: 200 } },
      ...statuses.map((status): StepSpec => ({ request: listing(status), expect: { status: 200 }, alongside: true })),
    ],
  });

  const status = statuses.at(-1);
  const steps: StepSpec[] = [{ request: post(pet('read after write', status)), expect: { status: 201 }, capture: { petId: '/id' } }];
  if (get !== undefined)
    steps.push({
      request: templates.get('{petId}'),
      expect: { status: 200, body: { id: '{petId}' } },
      readAfterWrite: true,
    });
  // A long-lived store's full pages may keep the pet beyond them: the read by its id still judges the read after the write.
  const judgedBy = get === undefined ? {} : { fullPageJudgedBy: 'getPet of its id, read at once' };
  // The reads of the created pet go together, right after the create (a read by id first, when there is one).
  steps.push(
    {
      request: listing(status),
      expect: { status: 200, holdsIfNotFull: { id: '{petId}' } },
      readAfterWrite: true,
      ...judgedBy,
      ...(get === undefined ? {} : { alongside: true }),
    },
    { request: listing(), expect: { status: 200, holdsIfNotFull: { id: '{petId}' } }, readAfterWrite: true, alongside: true, ...judgedBy },
  );
  const readAfterWrite: CaseSpec = { ...READ_AFTER_WRITE, writes: true, steps };
  if (get?.sunset !== undefined) readAfterWrite.clock = { before: get.sunset };
  cases.push(readAfterWrite);
  return cases;
}

/**
 * The window's result on a store whose every page it read was full: the judge's not judged, its reason in the store's words
 * (it reads the outcome to reword it; the outcome stays the judge's).
 */
function windowOnFullStore(result: CaseResult, limit: number): CaseResult {
  if (result.id !== BEFORE_FILL.id || result.outcome !== 'not-judged' || result.skip !== 'precondition') return result;
  const listed = result.checks.filter((c) => c.id === 'expect.holdsIfNotFull');
  if (listed.length === 0 || listed.some((c) => c.outcome !== 'not-judged')) return result;
  return {
    ...result,
    reason:
      `not judged: the store already holds ${limit} or more pets in every listing the window reads (each page is full), ` +
      'so no page shows the whole listing (a long-lived store)',
  };
}

/** Before the store fill: the planned states, one case after another. */
export const PLANNED_STATES_PHASE: Phase = {
  id: 'planned-states',
  title: 'before the store fill: listings while pages are not full, refused creates looked for, a create read back at once',
  sends: 'POST of a few named pets (and of three creates that must be refused), each followed by the listings and reads that show it',
  usesRunClient: true,
  cases: () => PLANNED_STATE_CASES,
  enabled: (plan) => selectedOf(plan, PLANNED_STATE_CASES).length > 0,
  planned: (plan) => selectedOf(plan, PLANNED_STATE_CASES),
  skipReason: () => undefined,
  // The pets each case creates: one per status and one without (the window), one read back; a refused create makes none.
  writes: (plan) => statusValues(plan.contract).length + 2,
  async run(context) {
    const specs = plannedStateCases(context.plan.contract);
    const limit = listLimitOf(context.plan.contract).max;
    const caseContext = sending(context);
    // Side by side: each case orders its own steps (a create before the reads that look for it), and no case's writes
    // touch what another's reads judge (each looks for its own named pets; a refused create makes none).
    const results = await Promise.all(
      selectedOf(context.plan, PLANNED_STATE_CASES).map((info) => {
        const spec = specs.find((s) => s.id === info.id);
        return reportCase(context.emit, info, () =>
          spec === undefined
            ? notJudgedCase(info, 'precondition', 'the contract has no createPet or no listPets')
            : context.stop.aborted
              ? notJudgedCase(info, 'interrupted', 'interrupted before it ran')
              : runCase(spec, caseContext).then((result) => windowOnFullStore(result, limit)),
        );
      }),
    );
    return { results };
  },
};
