/**
 * `npm run options-docs`: writes what the option table makes (schemas/config.schema.json, the meta.options part of
 * schemas/report.schema.json, docs/options.md); the npm script then lets biome format the JSON as the repository keeps it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { configSchema, GENERATED_FILES, jsonFile, optionsDoc, withRecordedOptions } from '../../src/cli/options-docs.js';
import { packagePath } from '../../src/loader/package-paths.js';

const report = await readFile(packagePath(GENERATED_FILES.reportSchema), 'utf8');
await writeFile(packagePath(GENERATED_FILES.configSchema), jsonFile(configSchema()));
await writeFile(packagePath(GENERATED_FILES.reportSchema), withRecordedOptions(report));
await writeFile(packagePath(GENERATED_FILES.optionsDoc), optionsDoc());
