/** What the option table generates: a test fails when schemas/config.schema.json, meta.options or docs/options.md is stale. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  compactJson,
  configSchema,
  GENERATED_FILES,
  optionsDoc,
  recordedOptionsSchema,
  withRecordedOptions,
} from '../../../src/cli/options-docs.js';
import type { JsonValue } from '../../../src/model/json.js';
import { root } from '../../helpers.js';

const read = (file: string): Promise<string> => readFile(path.join(root, file), 'utf8');
const STALE = 'stale: npm run options-docs regenerates it from the option table';

t.test('the generated files are what the option table makes (values and their order; biome owns the spacing)', async (t) => {
  t.equal(
    JSON.stringify(JSON.parse(await read(GENERATED_FILES.configSchema))),
    JSON.stringify(configSchema()),
    `config.schema.json ${STALE}`,
  );
  const report = await read(GENERATED_FILES.reportSchema);
  const schema = JSON.parse(report) as { $defs: { meta: { properties: { options: { properties: unknown } } } } };
  t.equal(
    JSON.stringify(schema.$defs.meta.properties.options.properties),
    JSON.stringify(recordedOptionsSchema()),
    `meta.options of report.schema.json ${STALE}`,
  );
  t.same(JSON.parse(withRecordedOptions(report)), JSON.parse(report), 'putting the properties in place changes nothing else');
  t.equal(await read(GENERATED_FILES.optionsDoc), optionsDoc(), `docs/options.md ${STALE}`);
});

t.test('compactJson: one line where it fits, one member a line where not; the same value either way', async (t) => {
  const cases: [JsonValue, string][] = [
    [{ a: 1 }, '{ "a": 1 }'],
    [[], '[]'],
    [{ list: ['x', 'y'] }, '{ "list": ["x", "y"] }'],
    [{ long: 'x'.repeat(140) }, `{\n  "long": "${'x'.repeat(140)}"\n}`],
  ];
  for (const [value, text] of cases) {
    t.equal(compactJson(value), text);
    t.same(JSON.parse(compactJson(value)), value);
  }
});
