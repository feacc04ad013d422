/**
 * The run's settings made of the option table: each row that names a `setting` fills that field with its settled value, typed
 * by the row, so an option the engine reads costs its row and the code that reads it. What no row fills, the plan decides.
 */
import type { RunSettings } from '../engine/plan.js';
import { type OPTIONS, optionEntries, type OptionName, type OptionValues } from './options.js';

/** The setting a row fills, if it names one (a row that names none has the optional field of every row, typed as any setting). */
type SettingOf<K extends OptionName> = (typeof OPTIONS)[K] extends { readonly setting?: infer S extends keyof RunSettings }
  ? [keyof RunSettings] extends [S]
    ? never
    : S
  : never;

/** Rows whose value may be unset (no default): their setting is optional, as an unset value fills nothing. */
type Unset<K extends OptionName> = undefined extends OptionValues[K] ? K : never;

/** The settings the table fills, typed from the rows: `--timeout`'s number is requestTimeoutMs because its row says so. */
export type TableSettings = { [K in OptionName as SettingOf<Exclude<K, Unset<K>>>]: OptionValues[K] } & {
  [K in OptionName as SettingOf<Unset<K>>]?: Exclude<OptionValues[K], undefined>;
};

/** The settings no row fills: what the plan decides (the clock, the seed, read-only on production, the pacing...). */
export type PlanSettings = Omit<RunSettings, keyof TableSettings>;

/** The settings the rows fill, from settled values. */
export function tableSettings(values: OptionValues): TableSettings {
  const settings: Record<string, unknown> = {};
  for (const [name, spec] of optionEntries())
    if (spec.setting !== undefined && values[name] !== undefined) settings[spec.setting] = values[name];
  // Each field was filled by the row that names it, with that row's value.
  return settings as TableSettings;
}

/** A run's settings: the table's, then what the plan decided; a row whose type does not fit its field fails to compile here. */
export function runSettings(values: OptionValues, decided: PlanSettings): RunSettings {
  return { ...tableSettings(values), ...decided };
}
