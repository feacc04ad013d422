/** Earlier reports given as input: a baseline to compare a run or a load with, and the load reports `merge` combines. */
import { type ConformanceBaseline, ruleState, runTarget } from '../model/baseline.js';
import { RunError } from '../model/errors.js';
import { OUTCOMES, type Outcome, type RuleLedgerEntry, type RuleState } from '../model/results.js';
import { RAW_LOAD_FORMAT, type LoadMetrics, type LoadReport } from '../model/load.js';
import { fileWhere, readInputFile } from './input-file.js';

/** The largest report.json read back (a baseline, a shard to merge). */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

async function readJson(file: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readInputFile(file, MAX_REPORT_BYTES));
  } catch (error) {
    throw new RunError(
      'ERR_CONFIG',
      `${what}${fileWhere(file, error)}: ${error instanceof SyntaxError ? 'not JSON' : (error as Error).message}`,
    );
  }
}

/** An earlier report.json given as --baseline: its cases and rules (a run's), and its load (when it measured one). */
export interface BaselineReport {
  /** The cases, rules and findings of a run, with what it ran against; absent for a load's or merge's report (no cases). */
  conformance?: ConformanceBaseline;
  /** Its load, when it measured one. */
  load?: LoadReport & { metrics: LoadMetrics };
  /** The suite's version that wrote it. */
  version: string;
  /** What it tested: its base URL, or `embedded` (see runTarget). */
  target: string;
}

type Loose = Record<string, unknown> | undefined;

function objectOf(value: unknown): Loose {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The `id` → `field` pairs of a report's list (cases, rules), the entries without a string id and field left out. */
function byId(list: unknown, of: (entry: Record<string, unknown>) => string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of Array.isArray(list) ? list : []) {
    const entry = objectOf(item);
    const value = entry === undefined ? undefined : of(entry);
    if (typeof entry?.['id'] === 'string' && value !== undefined) map.set(entry['id'], value);
  }
  return map;
}

const OUTCOME_SET: ReadonlySet<string> = new Set(OUTCOMES);

/** A rule's state from its ledger entry as read (see ruleState). */
function ruleStateOf(entry: Record<string, unknown>): RuleState | undefined {
  const outcomes = objectOf(entry['outcomes']) ?? {};
  const status = entry['status'];
  if (status !== 'judged' && status !== 'not-judged') return undefined;
  return ruleState({ status, outcomes: outcomes as Partial<Record<Outcome, number>> } as RuleLedgerEntry);
}

/**
 * Reads an earlier report.json as a baseline: a file that is not one (not JSON, not a report, a run that did not start)
 * is a usage error, one line (exit 2).
 */
export async function readBaselineReport(file: string): Promise<BaselineReport> {
  const value = objectOf(await readJson(file, '--baseline '));
  if (value?.['status'] === 'not-started')
    throw new RunError(
      'ERR_CONFIG',
      `--baseline ${file}: the note of a run that did not start (nothing was judged); give the report.json of a run that did`,
    );
  const meta = objectOf(value?.['meta']);
  const version = objectOf(meta?.['tool'])?.['version'];
  if (typeof version !== 'string' || typeof meta?.['baseUrl'] !== 'string' || !Array.isArray(value?.['cases']))
    throw new RunError('ERR_CONFIG', `--baseline ${file}: not a report.json of petstore-conformance (no meta and cases)`);
  const target = runTarget({ baseUrl: meta['baseUrl'], embeddedServer: meta['embeddedServer'] === true });
  const read: BaselineReport = { version, target };
  const load = objectOf(value['load']) as (LoadReport & { metrics?: LoadMetrics }) | undefined;
  const measured = typeof load?.metrics?.rps === 'number' && typeof load.metrics.latency?.p99 === 'number';
  if (measured && typeof load.profile?.name === 'string' && Array.isArray(load.profile.queries) && Array.isArray(load.stages))
    read.load = load as LoadReport & { metrics: LoadMetrics };
  const cases = byId(value['cases'], (c) => (OUTCOME_SET.has(String(c['outcome'])) ? String(c['outcome']) : undefined));
  // A load's report holds the load's one case: a conformance baseline is a run's, with cases of the suites.
  const suites = Array.isArray(meta['suites']) ? meta['suites'] : [];
  if (suites.some((suite) => suite !== 'load')) {
    const contract = meta['contract'];
    read.conformance = {
      file,
      version,
      ...(typeof contract === 'string' ? { contract } : {}),
      target,
      cases: cases as Map<string, Outcome>,
      rules: byId(objectOf(value['judgement'])?.['rules'], ruleStateOf) as Map<string, RuleState>,
      findings: new Set(byId(value['findings'], () => 'found').keys()),
    };
  }
  return read;
}

/**
 * Reads the load parts of reports to merge, side by side; the problem of the first file named is the one told, whichever read ends first.
 */
export async function readLoadReports(files: readonly string[]): Promise<LoadReport[]> {
  const reads = await Promise.allSettled(files.map(readLoadReport));
  return reads.map((read) => {
    if (read.status === 'rejected') throw read.reason;
    return read.value;
  });
}

/** Reads the load part of a report.json to merge; one without raw results is a usage error. */
export async function readLoadReport(file: string): Promise<LoadReport> {
  const value = await readJson(file, '');
  const load = (value as { load?: LoadReport } | null)?.load;
  if (!Array.isArray(load?.stages) || typeof load.profile?.name !== 'string' || load.stages.some((s) => !Array.isArray(s.raw))) {
    throw new RunError('ERR_CONFIG', `${file}: not the report.json of a load run (no load.stages with raw results)`);
  }
  const other = load.stages.flatMap((s) => s.raw).find((r) => (r as { format?: unknown }).format !== RAW_LOAD_FORMAT);
  if (other !== undefined) {
    throw new RunError(
      'ERR_CONFIG',
      `${file}: its raw results are not in the format ${RAW_LOAD_FORMAT} (written by an earlier version, which counted differently); run ` +
        `the load again with this version to merge it`,
    );
  }
  return load;
}
