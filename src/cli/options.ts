/**
 * The one table of options: each declared once with its flag, environment variable, configuration key (or why it has
 * none), value kind and bounds, default, help line and how the report records it. The parseArgs tables, the help, the
 * configuration schema's properties and meta.options are read off it. Loaded by `--help`, so it imports nothing heavy.
 * Its rows are in options-table-run.ts and options-table-output.ts, its value kinds in options-kinds.ts.
 */
import type { JsonObject } from '../model/json.js';
import type { OptionCommand, OptionSpec } from './options-kinds.js';
import { OUTPUT_ROWS } from './options-table-output.js';
import { RUN_ROWS } from './options-table-run.js';

export { type OptionCommand, type RecordedValue, CASE_KINDS, SECTIONS } from './options-kinds.js';

/** Unknown where the halves share no name, never where they do: a row silently lost to the later half fails to compile. */
type Disjoint<A, B> = [Extract<keyof A, keyof B>] extends [never] ? unknown : never;

/** Every option of every command, in the order the help lists them. */
export const OPTIONS = { ...RUN_ROWS, ...OUTPUT_ROWS } as const satisfies Disjoint<typeof RUN_ROWS, typeof OUTPUT_ROWS>;

/** The long name of an option, as its flag says it (`timeout` for --timeout). */
export type OptionName = keyof typeof OPTIONS;

/** The value of an option. */
export type ValueOf<K extends OptionName> = (typeof OPTIONS)[K] extends OptionSpec<infer T> ? T : never;

/** Every option's value once the layers are merged: never undefined where the table gives a default. */
export type OptionValues = {
  readonly [K in OptionName]: (typeof OPTIONS)[K] extends { readonly default: unknown } ? ValueOf<K> : ValueOf<K> | undefined;
};

/** Values given with flags (or any one layer): each option only when given. */
export type GivenValues = { [K in OptionName]?: ValueOf<K> };

/** An option's entry with its value's type left open, for what walks the whole table. */
export type AnyOptionSpec = OptionSpec<unknown>;

/** The table as entries, in its order; the methods of a kind are bivariant, so every entry is an AnyOptionSpec. */
export function optionEntries(command?: OptionCommand): Array<[OptionName, AnyOptionSpec]> {
  const all = Object.entries(OPTIONS) as Array<[OptionName, AnyOptionSpec]>;
  return command === undefined ? all : all.filter(([, spec]) => spec.commands.includes(command));
}

/** The configuration keys that are no option's: lists only a file holds. */
export const FILE_ONLY_KEYS = {
  disable: 'checks or cases switched off by id, each with the reason the report shows (--skip-check is the flag without a reason)',
  production: 'base URLs that are production: run goes read-only against them, load refuses them',
} as const;

/** The configuration schema's properties that the options give (the others are FILE_ONLY_KEYS'), in the table's order. */
export function configSchemaProperties(): Record<string, JsonObject> {
  return Object.fromEntries(
    optionEntries().flatMap(([name, spec]) => {
      if (spec.configKey === undefined) return [];
      const relative = spec.kind.type === 'path' || spec.kind.type === 'paths' ? ' Relative to this file.' : '';
      const later = [spec.env, `--${name}`].filter((by) => by !== undefined).join(', then ');
      const by = spec.kind.merge === undefined ? 'Overridden' : 'Added to';
      const description = `${upperFirst(spec.fileHelp ?? spec.help)}.${relative} ${by} by ${later}.`;
      const was =
        spec.was === undefined
          ? []
          : [
              [
                spec.was.configKey,
                { ...spec.kind.schema, deprecated: true, description: `The old name of ${spec.configKey}, read with a warning.` },
              ],
            ];
      return [[spec.configKey, { ...spec.kind.schema, description }], ...was];
    }),
  );
}

function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
