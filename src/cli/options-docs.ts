/**
 * What is generated from the option table (`npm run options-docs` writes it, a test fails when a file is stale):
 * schemas/config.schema.json, the meta.options part of schemas/report.schema.json and docs/options.md, as the catalogue
 * makes docs/checks.md.
 */
import type { JsonObject, JsonValue } from '../model/json.js';
import { shownDefault, shownFlag } from './args.js';
import { cell } from './catalogue.js';
import { configSchemaProperties, FILE_ONLY_KEYS, optionEntries, type AnyOptionSpec } from './options.js';

/** The generated files, relative to the package's folder. */
export const GENERATED_FILES = {
  configSchema: 'schemas/config.schema.json',
  reportSchema: 'schemas/report.schema.json',
  optionsDoc: 'docs/options.md',
} as const;

/** The schemas of the configuration keys that are no option's (FILE_ONLY_KEYS says what each is). */
const FILE_ONLY_SCHEMAS: Record<keyof typeof FILE_ONLY_KEYS, JsonObject> = {
  disable: {
    type: 'array',
    description:
      'Checks (e.g. auth.www-authenticate) or cases (e.g. listPets.limit.default) switched off by id; the report shows each with ' +
      'its reason.',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'reason'],
      properties: {
        id: {
          type: 'string',
          minLength: 1,
        },
        reason: {
          type: 'string',
          minLength: 1,
        },
      },
    },
  },
  production: {
    type: 'array',
    items: {
      type: 'string',
      pattern: '^https?://',
    },
    description:
      'Base URLs (or prefixes) that are production: run is read-only against them, and load is refused unless --allow-production-load.',
  },
};

/** The configuration file's schema: every option's key, in the table's order, then the file's own keys. */
export function configSchema(): JsonObject {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://petstore-conformance.dev/schemas/config.schema.json',
    title: 'Configuration file',
    description:
      "--config FILE (or PETSTORE_CONFIG): defaults for a team's runs. Environment variables and flags override it. Never the API key " +
      "itself: name a file that holds it. Every key but disable and production is an option's, generated from src/cli/options.ts by " +
      'npm run options-docs (a test fails when this file is stale).',
    type: 'object',
    additionalProperties: false,
    properties: { ...configSchemaProperties(), ...FILE_ONLY_SCHEMAS },
  };
}

/** meta.options properties that no option records: the proxy comes from HTTPS_PROXY and the others, the merged reports are merge's. */
const NOT_OPTIONS: Record<string, JsonObject> = {
  proxy: { type: 'string', description: 'The proxy the environment chose, without its credentials.' },
  merged: { type: 'array', items: { type: 'string' }, description: 'The reports a merge read.' },
};

/** The properties of meta.options: each option the table records under a key, with the schema its row gives, then NOT_OPTIONS. */
export function recordedOptionsSchema(): Record<string, JsonObject> {
  const recorded = optionEntries().flatMap(([, spec]) => ('option' in spec.recorded ? [[spec.recorded.option, spec.recorded.schema]] : []));
  return { ...Object.fromEntries(recorded), ...NOT_OPTIONS };
}

/** The report's schema with its meta.options properties generated from the table; the rest of it is written by hand. */
export function reportSchema(current: JsonObject): JsonObject {
  const defs = current['$defs'] as Record<string, JsonObject>;
  const meta = defs['meta'] as JsonObject & { properties: Record<string, JsonObject> };
  const options = { ...(meta.properties['options'] as JsonObject), properties: recordedOptionsSchema() };
  return { ...current, $defs: { ...defs, meta: { ...meta, properties: { ...meta.properties, options } } } };
}

/** The widest line the repository's JSON keeps (biome's lineWidth). */
const LINE_WIDTH = 140;

/**
 * A JSON value as the repository writes it by hand: an object or array on one line where it fits, else one member a line (biome keeps
 * either, so the file reads as it did). `indent` is the column it starts at, `lead` the characters before it on its line.
 */
export function compactJson(value: JsonValue, indent = 0, lead = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const pairs = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
  if (pairs.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const keyOf = (key: string): string => (Array.isArray(value) ? '' : `${JSON.stringify(key)}: `);
  const flat = flatJson(value);
  if (indent + lead + flat.length + 1 <= LINE_WIDTH) return flat;
  const inner = ' '.repeat(indent + 2);
  const members = pairs.map(([k, v]) => `${inner}${keyOf(k)}${compactJson(v, indent + 2, keyOf(k).length)}`);
  return `${open}\n${members.join(',\n')}\n${' '.repeat(indent)}${close}`;
}

/** A JSON value on one line, with a space inside an object's braces and after each comma. */
function flatJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(flatJson).join(', ')}]`;
  const pairs = Object.entries(value);
  return pairs.length === 0 ? '{}' : `{ ${pairs.map(([k, v]) => `${JSON.stringify(k)}: ${flatJson(v)}`).join(', ')} }`;
}

/** A JSON file as the repository keeps it: compactJson, a newline at the end. */
export function jsonFile(value: JsonValue): string {
  return `${compactJson(value)}\n`;
}

/**
 * The report schema's text with its meta.options properties put in place, the rest of the file as it was written: the generated
 * properties replace the text between the braces of `"properties"` inside `"options"` inside `"meta"`.
 */
export function withRecordedOptions(text: string): string {
  const meta = text.indexOf('"meta": {', text.indexOf('"$defs"'));
  const options = text.indexOf('"options": {', meta);
  const properties = text.indexOf('"properties": {', options);
  const open = text.indexOf('{', properties);
  const close = matchingBrace(text, open);
  const indent = properties - text.lastIndexOf('\n', properties) - 1;
  return `${text.slice(0, open)}${compactJson(recordedOptionsSchema(), indent, LINE_WIDTH)}${text.slice(close + 1)}`;
}

/** Where the brace that opens at `open` closes, strings skipped. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      for (i += 1; i < text.length && text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
    } else if (c === '{') depth += 1;
    else if (c === '}' && --depth === 0) return i;
  }
  throw new Error('the report schema has no meta.options.properties to replace');
}

/** One option's line of the page: its flag, variable, configuration key (or why none), default, commands, help and record. */
function optionRow(name: string, spec: AnyOptionSpec): string {
  const key = spec.configKey === undefined ? `none: ${spec.noConfig ?? ''}` : `\`${spec.configKey}\``;
  const fallback = shownDefault(spec);
  const recorded =
    'option' in spec.recorded
      ? `\`meta.options.${spec.recorded.option}\``
      : 'in' in spec.recorded
        ? `\`${spec.recorded.in}\``
        : 'not recorded';
  return (
    `| \`${cell(shownFlag(name, spec))}\` | ${spec.env === undefined ? '' : `\`${spec.env}\``} | ${cell(key)} | ` +
    `${fallback === undefined ? '' : cell(fallback)} | ${spec.commands.join(', ')} | ` +
    `${cell(`${spec.help}${spec.more ?? ''}`)} | ${recorded} |`
  );
}

/** docs/options.md: the configuration file, its keys, and every option of every command as the table declares it. */
export function optionsDoc(): string {
  const keys = optionEntries().flatMap(([, spec]) => (spec.configKey === undefined ? [] : [`\`${spec.configKey}\``]));
  const fileOnly = Object.keys(FILE_ONLY_KEYS).map((key) => `\`${key}\``);
  return [
    PROLOGUE,
    `The keys, each meaning what its flag does: ${keys.join(', ')}; and the file's own ${fileOnly.join(' and ')}.`,
    EPILOGUE,
    '## Every option',
    '',
    'Generated from the option table (`src/cli/options-table-*.ts`) by `npm run options-docs`; a test fails when this page is stale.',
    '',
    '| flag | variable | configuration key | default | commands | what it does | recorded as |',
    '|---|---|---|---|---|---|---|',
    ...optionEntries().map(([name, spec]) => optionRow(name, spec)),
    '',
  ].join('\n');
}

/** What the page says before the keys: written here, since the whole page is generated. */
const PROLOGUE = `# Options and the configuration file

### A configuration file

A team's defaults can live in a YAML file, validated against \`schemas/config.schema.json\` (every
problem reported at once as \`file:line:col\`, exit 2: the schema's, values that do not read, unknown
suites, \`checks\` globs that match nothing and \`disable\` ids that name nothing, each with the name
likely meant) and named with \`--config FILE\` or
\`PETSTORE_CONFIG\`. Paths in it are relative to the file. Every option is declared once, in
\`src/cli/options.ts\` (its rows in \`options-table-run.ts\` and \`options-table-output.ts\`), with its
flag, environment variable, configuration key, bounds, default, help line and the setting it fills (the
help and the run's settings are read off it; this page, the schema's keys and \`meta.options\` are generated from it
by \`npm run options-docs\`, and a test fails when one is stale). Values are merged
as typed values in layers: the defaults, the file, the environment
(\`PETSTORE_BASE_URL\`, \`PETSTORE_CATEGORY_ID\`), the flags; the later wins, but \`--header\` adds to the
file's \`headers\`. A key file the file names gives way to \`PETSTORE_API_KEY\`, and \`--api-key-file\` to
neither. A bad value is one line naming where it came from: \`--timeout must be a whole number from 100
to 600000, got '50'\`, \`PETSTORE_CATEGORY_ID must be an int64 integer, got 'abc'\`, or
\`team.yaml:3:12: /timeoutMs: must be >= 100\`.

\`\`\`yaml
baseUrl: https://staging.example.com/v1
apiKeyFile: ./secrets/petstore-key     # the key itself never goes in this file
categoryId: 7
suites: [contract, auth, limits]
reporters: [console, junit, markdown]
reportDir: ./reports
consistencyWindowMs: 5000
production: ["https://api.example.com/v1"]
disable:                               # a check or a case, by id, with the reason the report shows
  - { id: auth.www-authenticate, reason: "our gateway strips WWW-Authenticate; ticket NET-123" }
\`\`\`
`;

/** What the page says after the keys. */
const EPILOGUE = `A flag without a key has a reason in the table: \`--now\`, \`--seed\`,
\`--load\` and \`--baseline\` belong to one run, \`--skip-check\` is \`disable\` without a reason,
\`--allow-production-load\` must be given each time, \`--workers\`, \`--connections\` and \`--baseline-tolerance\`
default to the profile's, \`--quiet\` and \`--no-color\` are the terminal's, and \`serve\` reads no file. Every option
that changes a verdict is recorded in report.json's \`meta.options\`, from whichever layer it came.

A disabled check is not evaluated anywhere; a disabled case is not judged, with its reason. Every report
lists what was disabled and why (console, \`report.json\` \`meta.disabled\`), and an id that names no check
or case is refused at \`file:line:col\`.

A base URL under a \`production\` entry is never written to: \`run\` goes read-only against it (and says
so), and \`load\` or \`run --load\` refuse it unless \`--allow-production-load\`. For \`load\`, the file
supplies the target (base URL, key file, CA file) and the production list.
`;
