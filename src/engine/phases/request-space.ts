/**
 * The request-space phase: every cell of the request space (src/requests/request-space.ts) sent side by side, up to
 * --concurrency at once, each judged by its relation. It reports one case per relation (the worst cell is its evidence)
 * and provides the count of cells sent and judged for report.json's `requestSpace`.
 */
import { brokeRelation, relationOutcome, type SpaceCell, spaceSummary } from '../../checks/generated-outcomes.js';
import { type Contract, ROLES } from '../../model/contract.js';
import { mapConcurrently } from '../../model/concurrency.js';
import { isJsonObject } from '../../model/json.js';
import type { RequestSpaceSummary } from '../../model/request-space.js';
import type { CaseInfo, CaseResult } from '../../model/results.js';
import { contractRequests } from '../../requests/contract-requests.js';
import { packKeyless } from '../../requests/keyless-packs.js';
import { type Cell, cellName, requestSpace } from '../../requests/request-space.js';
import type { CaseSpec } from '../../model/scenario.js';
import type { RunPlan } from '../plan.js';
import { disabledCase, notJudgedCase, reportCase } from '../case-report.js';
import { type CaseContext, runCase, sending, writeBudgetSpent } from '../cases.js';
import { everyCaseDisabled, type Phase, selectedOf } from '../phase.js';

/** The relations, one case each: which expectation key of a cell's step it judges by. */
const RELATIONS: ReadonlyArray<{ key: 'keyFirst' | 'spelledValid' | 'spelledInvalid'; info: CaseInfo }> = [
  {
    key: 'keyFirst',
    info: {
      id: 'space.key-first',
      title: 'Every slot spelled every way, without the one credential: a 401 Error whatever else is wrong',
      clause: 'Authentication rule 1: a missing or invalid API key is answered with 401 and an Error body, whatever else is wrong',
      suite: 'auth',
      operation: ROLES.list,
      level: 'fail',
    },
  },
  {
    key: 'spelledValid',
    info: {
      id: 'space.valid-spellings',
      title: 'Every spelling of a valid value: refused with a 4xx Error, or answered as its canonical twin (same limit, filter, pet)',
      clause: 'reading-the-contract: a request the contract gives no response for is refused with a 4xx Error or keeps every rule',
      suite: 'request-space',
      operation: ROLES.list,
      level: 'fail',
    },
  },
  {
    key: 'spelledInvalid',
    info: {
      id: 'space.invalid-spellings',
      title: 'Every spelling that names no valid value: a 4xx Error (400 for a body), or a 2xx that breaks no stated rule, never a 5xx',
      clause: 'reading-the-contract: never more than 100 items, never a pet that is not the id asked, never a 5xx',
      suite: 'request-space',
      operation: ROLES.list,
      level: 'fail',
    },
  },
];

/** A pet the store holds, whose id the getPet cells spell; undefined when the store shows none. */
async function existingPetId(contract: Contract, context: CaseContext): Promise<string | undefined> {
  if (!contract.operations.has(ROLES.list)) return undefined;
  try {
    const listing = contractRequests(contract).listing([['limit', '1']], { label: 'the request space (a pet to spell the id of)' });
    const exchange = await context.sender.send(listing);
    const first = Array.isArray(exchange.response.json) ? exchange.response.json[0] : undefined;
    const id = isJsonObject(first) ? first['id'] : undefined;
    return typeof id === 'number' || typeof id === 'bigint' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

/** What one cell came to: its result, or why it was not sent. */
type CellRun = { cell: Cell; result?: CaseResult; unsent?: string };

/** Sends one case of the space (a cell alone, or a keyless pack): its result, or why it was not sent. */
async function runSpec(spec: CaseSpec, operation: string, context: CaseContext, petId: string | undefined): Promise<CaseResult | string> {
  if (context.stop.aborted) return 'interrupted before it was sent';
  if (operation === ROLES.get && petId === undefined) return 'the store showed no pet whose id to spell';
  if (spec.writes && writeBudgetSpent(context)) return 'the run created the pets --max-writes allows';
  const variables = petId === undefined ? context.variables : new Map([...context.variables, ['petId', BigInt(petId)]]);
  const result = await runCase(spec, { ...context, variables });
  return result.skip === 'write-budget' ? 'the run created the pets --max-writes allows' : result;
}

/** What a cell came to, from what its case came to (its result, or why it was not sent). */
function cellRun(cell: Cell, came: CaseResult | string): CellRun {
  return typeof came === 'string' ? { cell, unsent: came } : { cell, result: came };
}

/** A pack's cells: the pack's result for each, or where it broke its relation, each cell sent alone (so the broken one is named). */
async function runPack(pack: CaseSpec, members: readonly Cell[], context: CaseContext, petId: string | undefined): Promise<CellRun[]> {
  const operation = members[0]?.operation ?? '';
  const came = await runSpec(pack, operation, context, petId);
  if (typeof came === 'string' || !brokeRelation(came)) return members.map((cell) => cellRun(cell, came));
  return mapConcurrently(members, context.plan.settings.concurrency, async (cell) =>
    cellRun(cell, cell.spec === undefined ? (cell.unsent ?? 'not sent') : await runSpec(cell.spec, cell.operation, context, petId)),
  );
}

/** Every cell sent (keyless ones in packs), up to --concurrency at once; the results in the cells' order. */
async function runCells(cells: readonly Cell[], context: CaseContext, petId: string | undefined): Promise<CellRun[]> {
  const packs = new Map<CaseSpec, Cell[]>();
  const units: Array<{ pack: CaseSpec; members: Cell[] } | { cell: Cell }> = [];
  for (const cell of cells) {
    if (cell.packed === undefined) units.push({ cell });
    else if (packs.has(cell.packed)) packs.get(cell.packed)?.push(cell);
    else {
      const members = [cell];
      packs.set(cell.packed, members);
      units.push({ pack: cell.packed, members });
    }
  }
  const done = await mapConcurrently(units, context.plan.settings.concurrency, async (unit) => {
    if ('pack' in unit) return runPack(unit.pack, unit.members, context, petId);
    const { cell } = unit;
    return [
      cellRun(cell, cell.spec === undefined ? (cell.unsent ?? 'not sent') : await runSpec(cell.spec, cell.operation, context, petId)),
    ];
  });
  const byCell = new Map(done.flat().map((run) => [run.cell, run]));
  return cells.map((cell) => byCell.get(cell) ?? { cell, unsent: 'interrupted before it was sent' });
}

/** A cell as the judge reads it: its name and slot, and what it came to. */
function spaceCell({ cell, result, unsent }: CellRun): SpaceCell {
  const named = { name: cellName(cell), slot: `${cell.operation} ${cell.slot}` };
  return result === undefined ? { ...named, ...(unsent === undefined ? {} : { unsent }) } : { ...named, result };
}

async function runSpace(context: CaseContext): Promise<{ results: CaseResult[]; summary: RequestSpaceSummary }> {
  const started = performance.now();
  const { contract, settings } = context.plan;
  const relations = selectedRelations(context.plan);
  const cells = requestSpace(contract, { readOnly: settings.readOnly }).filter((cell) =>
    relations.some(({ key }) => key === cell.relation),
  );
  packKeyless(contract, cells);
  const petId = cells.some((cell) => cell.operation === ROLES.get && cell.spec !== undefined)
    ? await existingPetId(contract, context)
    : undefined;
  const runs = await runCells(cells, context, petId);
  const durationMs = Math.round(performance.now() - started);
  const results: CaseResult[] = [];
  for (const { key, info } of relations) {
    const mine = runs.filter((run) => run.cell.spec !== undefined && run.cell.relation === key);
    results.push(
      await reportCase(
        context.emit,
        info,
        () =>
          disabledCase(info, context.judge.judging.disabled) ??
          (context.stop.aborted && mine.every((run) => run.result === undefined)
            ? notJudgedCase(info, 'interrupted', 'interrupted before it ran')
            : relationOutcome(info, mine.map(spaceCell), durationMs)),
      ),
    );
  }
  return { results, summary: spaceSummary(runs.map(spaceCell)) };
}

/** The cases the phase reports. */
function spaceInfos(): CaseInfo[] {
  return RELATIONS.map(({ info }) => info);
}

/** The relations the run selected (--suite, --check): only their cells are sent. */
function selectedRelations(plan: RunPlan): Array<(typeof RELATIONS)[number]> {
  const ids = new Set(selectedOf(plan, spaceInfos()).map((info) => info.id));
  return RELATIONS.filter(({ info }) => ids.has(info.id));
}

/** The request-space phase: after the cases (the store they leave), beside the other generated phases. */
export const REQUEST_SPACE_PHASE: Phase = {
  id: 'request-space',
  title: 'every slot of every request spelled in every class its grammar admits, with and without the key, judged by relations',
  countsRequests: true,
  after: ['cases'],
  usesRunClient: true,
  writes: (plan) => {
    const keys = new Set(selectedRelations(plan).map(({ key }) => key));
    return requestSpace(plan.contract, { readOnly: plan.settings.readOnly }).filter(
      (cell) => cell.spec?.writes === true && cell.relation !== 'keyFirst' && keys.has(cell.relation),
    ).length;
  },
  sends: 'the request space: each slot of each operation in each spelling class, with and without the key (no seed)',
  cases: () => spaceInfos(),
  enabled: (plan) => selectedOf(plan, spaceInfos()).length > 0,
  planned: (plan) => selectedRelations(plan).map(({ info }) => info),
  skipReason: (plan) => everyCaseDisabled(plan, spaceInfos()),
  async run(context) {
    const { results, summary } = await runSpace(sending(context));
    return { results, provides: { requestSpace: summary } };
  },
};
