/** A case runner's context built from a few plain options, for the unit tests of the case runner and the generated phases. */
import type { CaseContext } from '../src/engine/cases.js';
import { RunFindings } from '../src/checks/findings.js';
import { RunJudging } from '../src/checks/run-judging.js';
import { runSettings } from '../src/cli/run-settings.js';
import { settle } from '../src/cli/settings.js';
import { CreatedPets } from '../src/engine/observer.js';
import type { RunSettings } from '../src/engine/plan.js';
import type { RunContext } from '../src/engine/run-context.js';
import type { StoreCounts } from '../src/engine/store-counts.js';
import { DEFAULT_HTTP_OPTIONS } from '../src/http/client.js';
import { everyObserver, Observe } from '../src/http/observe.js';
import type { Sender } from '../src/http/sender.js';
import { DEFAULT_PACING } from '../src/http/pacer.js';
import type { LoadedContract } from '../src/loader/contract.js';
import { REAL_CLOCK, type Clock } from '../src/model/clock.js';
import type { ExchangeCheck } from '../src/model/check.js';
import type { Contract } from '../src/model/contract.js';
import { tellListener, type RunListener } from '../src/model/events.js';
import type { JsonValue } from '../src/model/json.js';
import type { CaseSpec, StepSpec } from '../src/model/scenario.js';
import type { AuthVariant } from '../src/model/contract-names.js';
import { StoreModel } from '../src/model/store-model.js';

/** What a test may set; everything else takes the value a plain run would have. */
export interface CaseOptions extends Partial<RunSettings> {
  contract?: Contract;
  disabled?: ReadonlyMap<string, string>;
  listener?: RunListener;
  created?: CreatedPets;
  model?: StoreModel;
  store?: StoreCounts;
  signal?: AbortSignal;
  waitClock?: Clock;
  exchangeChecks?: readonly ExchangeCheck[];
  keyAsWrong?: ReadonlyMap<AuthVariant, string>;
  variables?: ReadonlyMap<string, JsonValue>;
}

/**
 * The settings of a run given no option, on the suite's clock of 2026-11-22, read-only off, seed 1, then `overrides`: the
 * option table's defaults, so that a setting a new row fills needs no test to name it.
 */
export function plainSettings(overrides: Partial<RunSettings> = {}): RunSettings {
  const decided = { now: new Date('2026-11-22T12:00:00Z'), readOnly: false, pacing: DEFAULT_PACING, seed: 1 };
  return { ...runSettings(settle('run', {}, {}).values, decided), ...overrides };
}

/** The settings of a plain run at --concurrency 1. */
const SETTINGS: RunSettings = plainSettings({
  requestTimeoutMs: 15_000,
  maxResponseBytes: 1 << 20,
  excerptBytes: 256,
  concurrency: 1,
  consistencyWindowMs: 0,
  maxExamples: 10,
});

/** The context the case runner reads, over `sender` and the contract given (the fixtures' by default). */
export function caseContext(sender: Sender, contract: Contract, options: CaseOptions = {}): CaseContext {
  const {
    disabled,
    listener,
    created: _created,
    model,
    store,
    signal,
    waitClock,
    exchangeChecks,
    keyAsWrong,
    variables,
    ...settings
  } = options;
  const { contract: _, ...rest } = settings;
  const runId = String(variables?.get('runId') ?? 'pc-test');
  const storeModel = model ?? new StoreModel({ windowMs: 0, runId });
  return {
    plan: {
      contract: (options.contract ?? contract) as LoadedContract,
      target: { apiKey: 'test-key' },
      selection: { cases: [], suites: [], ids: new Set() },
      settings: { ...SETTINGS, ...rest },
      disabled: [],
      recordedOptions: {},
    },
    variables:
      variables ??
      new Map<string, JsonValue>([
        ['runId', runId],
        ['categoryId', 1],
        ['unknownPetId', 4503599627370497],
      ]),
    sender,
    judge: new RunJudging(
      {
        contract: options.contract ?? contract,
        disabled: disabled ?? new Map(),
        model: storeModel,
        ...(exchangeChecks === undefined ? {} : { exchangeChecks }),
      },
      new RunFindings(),
      keyAsWrong ?? new Map(),
    ),
    clock: waitClock ?? REAL_CLOCK,
    stop: signal ?? new AbortController().signal,
    emit: (event) => tellListener(listener ?? {}, event),
    provided: store === undefined ? {} : { store },
  };
}

/** Where the fake sender's requests go, as a client's base URL. */
const BASE = new URL('http://127.0.0.1:9/v1/');

/** The whole context a phase runs in, over `sender`: a phase under test sends only through it (it may open nothing of its own). */
export function phaseContext(sender: Sender, contract: Contract, options: CaseOptions = {}): RunContext {
  // The store model and the created pets see every exchange through the observe layer, as the run's client shows it to them.
  const model = options.model ?? new StoreModel({ windowMs: 0, runId: 'pc-test' });
  const created = options.created ?? new CreatedPets();
  const observed = new Observe(sender, everyObserver([model, created]));
  const cases = caseContext(observed, contract, { ...options, model });
  return {
    ...cases,
    observer: { created, model },
    runId: String(cases.variables.get('runId')),
    sender: {
      send: (request) => observed.send(request),
      base: BASE,
      urlFor: (path, query) => new URL(`${BASE.href.replace(/\/$/, '')}${path}?${new URLSearchParams([...query]).toString()}`),
      writeBudget: { spent: false },
    },
    connection: { ...DEFAULT_HTTP_OPTIONS, baseUrl: BASE.href, apiKey: 'test-key' },
    open: () => {
      throw new Error('a phase under test opened a client of its own');
    },
  };
}

/** A case of the given steps, as a declared one of the contract suite (listPets, level fail, no write); `extra` overrides. */
export function caseSpec(steps: StepSpec[], extra: Partial<CaseSpec> = {}): CaseSpec {
  return {
    id: 'demo.case',
    title: 'a demo case',
    clause: 'a clause',
    suite: 'contract',
    operation: 'listPets',
    level: 'fail',
    steps,
    writes: false,
    ...extra,
  };
}
