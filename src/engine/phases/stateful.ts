/**
 * The stateful phase: fast-check's model-based testing over a model of the pets this run created. Random sequences of
 * createPet, getPet and listPets (with and without limit and status) are checked against the model after every step; a
 * failure shrinks to the shortest sequence, reported as numbered requests with their curls. Other writers on a shared
 * staging are tolerated (only this run's pets are looked for), and so is the consistency window (reads retry within it).
 */
import fc from 'fast-check';
import { sequenceFailed, sequencesOutcome, stepInSequence, type SequenceRun } from '../../checks/generated-outcomes.js';
import { type Contract, listLimitOf, statusValues, ROLES } from '../../model/contract.js';
import { contractRequests } from '../../requests/contract-requests.js';
import type { Exchange } from '../../model/exchange.js';
import { isJsonObject, type JsonValue } from '../../model/json.js';
import { idDigits } from '../../model/store-model.js';
import type { CaseInfo, CaseResult } from '../../model/results.js';
import type { CaseSpec, StepSpec } from '../../model/scenario.js';
import { runCase, sending, writeBudgetSpent, type CaseContext } from '../cases.js';
import { notJudgedCase, reportCase } from '../case-report.js';
import { runExamples } from '../property-examples.js';
import { everyCaseDisabled, selectedOf, type Phase } from '../phase.js';
import type { RunPlan } from '../plan.js';
import { writtenStatus } from '../run-context.js';

/** What the stateful phase is told: the seed it replays, how many sequences it draws and the most commands each holds. */
export interface StatefulOptions {
  seed: number;
  sequences: number;
  maxCommands: number;
}

/** The stateful phase's own settings, read from the run's: a sequence is several requests, so a third as many sequences as examples. */
function statefulOptions(plan: RunPlan): StatefulOptions {
  const { seed, maxExamples, sequenceLength } = plan.settings;
  return { seed, sequences: Math.max(1, Math.ceil(maxExamples / 3)), maxCommands: sequenceLength };
}

/** The case the stateful phase reports as. */
const STATEFUL_CASE: CaseInfo = {
  id: 'stateful.pets',
  title: 'Random sequences of createPet, getPet and listPets agree with a model of the pets this run created',
  clause:
    'Created pets carry the fields sent and can be fetched by their id; ' +
    'listPets: at most limit, only that status, a page that is not full holds every match; ids are unique',
  suite: 'stateful',
  operation: ROLES.list,
  level: 'fail',
};

/** A pet the run created, as the model holds it. */
interface ModelPet {
  id: JsonValue;
  name: string;
  status: string;
}

/** The model: every pet this run created in the current sequence. */
interface Model {
  pets: ModelPet[];
}

/** The real system: where requests go, and what they showed (for the report). */
interface Real {
  /** Runs one step as a case: its result, and its last exchange as the server sent it (absent when nothing was sent). */
  run(step: StepSpec, label: string): Promise<{ result: CaseResult; exchange: Exchange | undefined }>;
}

/** A step that failed its checks: the sequence fails, and fast-check shrinks it. */
class StepFailed extends Error {}

/** The commands of the model, derived from the operations the contract has. */
function commandsOf(
  contract: Contract,
  runId: string,
  categoryId: JsonValue,
  context: CaseContext,
): Array<fc.Arbitrary<fc.AsyncCommand<Model, Real>>> {
  const now = context.plan.settings.now;
  const statuses = statusValues(contract);
  const create = contract.operations.get(ROLES.create);
  const get = contract.operations.get(ROLES.get);
  const list = contract.operations.get(ROLES.list);
  const max = listLimitOf(contract).max;
  const { templates } = contractRequests(contract);
  const commands: Array<fc.Arbitrary<fc.AsyncCommand<Model, Real>>> = [];
  if (create !== undefined) {
    commands.push(
      fc.record({ drawn: fc.constantFrom(...statuses), tag: fc.nat(9999) }).map(({ drawn, tag }): fc.AsyncCommand<Model, Real> => {
        // The spare status, once known: the pages of the others stay short for the rules only such a page can judge.
        const status = writtenStatus(drawn, context.variables);
        return {
          // No create once the run made the pets --max-writes allows.
          check: () => !writeBudgetSpent(context),
          toString: () => `createPet(${status})`,
          async run(model, real) {
            const name = `${runId} stateful ${tag}`;
            const { result, exchange } = await real.run(
              {
                request: templates.create({ name, categoryId, status }),
                expect: { status: 201, body: { name, categoryId, status } },
                capture: { id: '/id' },
              },
              `createPet ${status}`,
            );
            // Not sent (the run was interrupted, or --max-writes reached meanwhile): the model has no new pet.
            if (stepInSequence(result) === 'unjudged') return;
            const body = exchange?.response.json;
            const created = isJsonObject(body) && idDigits(body['id']) !== undefined ? body['id'] : undefined;
            if (created === undefined) throw new StepFailed('no id to follow');
            if (model.pets.some((p) => String(p.id) === String(created)))
              throw new StepFailed(`id ${String(created)} was given to two pets`);
            model.pets.push({ id: created, name, status });
          },
        };
      }),
    );
  }
  // getPet is read only while it exists: not from its removal date on, by the suite's clock.
  if (get !== undefined && (get.sunset === undefined || now < new Date(`${get.sunset}T00:00:00Z`))) {
    commands.push(
      fc.nat().map(
        (n): fc.AsyncCommand<Model, Real> => ({
          check: (model) => model.pets.length > 0,
          toString: () => `getPet(#${n})`,
          async run(model, real) {
            const pet = model.pets[n % model.pets.length] as ModelPet;
            await real.run(
              {
                request: templates.get(String(pet.id)),
                expect: { status: 200, body: { id: pet.id, name: pet.name, status: pet.status } },
                readAfterWrite: true,
              },
              `getPet ${String(pet.id)}`,
            );
          },
        }),
      ),
    );
  }
  if (list !== undefined) {
    commands.push(
      fc
        .record({
          status: fc.option(fc.constantFrom(...statuses), { nil: undefined }),
          limit: fc.option(fc.constantFrom(1, 5, max), { nil: undefined }),
        })
        .map(
          ({ status, limit }): fc.AsyncCommand<Model, Real> => ({
            check: () => true,
            toString: () => `listPets(${status ?? 'any'}, ${limit ?? 'default'})`,
            async run(model, real) {
              const query: Record<string, string | number> = {};
              if (status !== undefined) query['status'] = status;
              if (limit !== undefined) query['limit'] = limit;
              // Only this run's pets are looked for: a shared staging holds others, and the page may be full of them.
              const mine = model.pets
                .filter((p) => status === undefined || p.status === status)
                .map((p) => ({ id: p.id, status: p.status }));
              const expect: StepSpec['expect'] = {
                status: 200,
                maxItems: limit ?? listLimitOf(contract).default,
                ...(status === undefined ? {} : { everyItem: { status } }),
                ...(mine.length > 0 ? { holdsIfNotFull: mine } : {}),
              };
              await real.run({ request: templates.listing(query), expect, readAfterWrite: true }, `listPets ${JSON.stringify(query)}`);
            },
          }),
        ),
    );
  }
  return commands;
}

/** Runs one sequence of commands against the service, with a model of its own; never throws. */
async function runSequence(cmds: Iterable<fc.AsyncCommand<Model, Real>>, context: CaseContext): Promise<SequenceRun> {
  const run: SequenceRun = { requests: 0, exchanges: [] };
  const real: Real = {
    async run(step, label) {
      const spec: CaseSpec = { ...STATEFUL_CASE, title: label, writes: step.request.method === 'POST', steps: [step] };
      let exchange: Exchange | undefined;
      const result = await runCase(spec, context, (sent) => {
        exchange = sent;
      });
      run.requests += result.exchanges.reduce((sum, e) => sum + e.attempts, 0);
      run.exchanges.push(...result.exchanges.map((e) => ({ ...e, step: run.exchanges.length })));
      // The judge says what the step does to its sequence: an ending step is kept with the sequence up to it, as is the first warning.
      const effect = stepInSequence(result);
      if (effect === 'ends') {
        run.failing = { exchanges: [...run.exchanges], result };
        throw new StepFailed(result.reason ?? label);
      }
      if (effect === 'warns' && run.warned === undefined) run.warned = { exchanges: [...run.exchanges], result };
      return { result, exchange };
    },
  };
  try {
    await fc.asyncModelRun(() => ({ model: { pets: [] }, real }), cmds);
  } catch (error) {
    // What broke the model (an id given to two pets, a create without an id) is the service's; anything else a bug here.
    if (run.failing === undefined)
      run.thrown = { message: error instanceof Error ? error.message : String(error), brokeModel: error instanceof StepFailed };
  }
  return run;
}

/** Runs the sequences, drawn by the seed, up to --concurrency at once, the first failing one shrunk; sequencesOutcome decides. */
async function runStateful(contract: Contract, stateful: StatefulOptions, context: CaseContext): Promise<CaseResult> {
  const started = performance.now();
  if (writeBudgetSpent(context))
    return notJudgedCase(
      STATEFUL_CASE,
      'write-budget',
      `the run created the ${context.plan.settings.maxWrites} pets --max-writes allows; the sequences create more`,
    );
  const runId = String(context.variables.get('runId') ?? 'run');
  const commands = commandsOf(contract, runId, context.variables.get('categoryId') ?? 1, context);
  const { results, failure } = await runExamples({
    arbitrary: fc.commands(commands, { maxCommands: stateful.maxCommands }),
    seed: stateful.seed,
    numRuns: stateful.sequences,
    concurrency: context.plan.settings.concurrency,
    run: (cmds) => runSequence(cmds, context),
    fails: sequenceFailed,
  });
  const durationMs = Math.round(performance.now() - started);
  const shrunk = failure === undefined ? {} : { failure: { minimal: failure.minimal, shrinks: failure.shrinks, replays: failure.replays } };
  return sequencesOutcome({ info: STATEFUL_CASE, seed: stateful.seed, runs: results, durationMs, ...shrunk });
}

/** The stateful phase, whole when its suite is selected (and, under --check, a glob names its case); never in read-only mode. */
export const STATEFUL_PHASE: Phase = {
  id: 'stateful',
  title: 'random sequences of createPet, getPet and listPets checked against a model of the pets this run created',
  countsRequests: true,
  // Its sequences follow only the pets they create, but what the cases did to the store must show the same to them in
  // every run: it runs after the cases, beside the created-pets and fuzzing phases.
  after: ['cases'],
  usesRunClient: true,
  reads: ['seed', 'maxExamples', 'sequenceLength'],
  writes: (plan) => statefulOptions(plan).sequences * statefulOptions(plan).maxCommands,
  sends:
    'sequences of up to --sequence-length createPet, getPet and listPets requests, a third as many as --max-examples, drawn from --seed',
  cases: () => [STATEFUL_CASE],
  enabled: (plan) => selectedOf(plan, [STATEFUL_CASE]).length > 0,
  planned: () => [STATEFUL_CASE],
  skipReason: (plan) =>
    everyCaseDisabled(plan, [STATEFUL_CASE]) ??
    (plan.settings.readOnly ? { code: 'read-only', reason: 'read-only: the sequences create pets' } : undefined),
  async run(context) {
    const cases = sending(context);
    const stateful = statefulOptions(context.plan);
    return { results: [await reportCase(context.emit, STATEFUL_CASE, () => runStateful(context.plan.contract, stateful, cases))] };
  },
};
