/**
 * `npm run build` runs this after tsc: the package's own YAML files (scenarios, load profiles, suites, openapi.yaml) parsed
 * once, written to dist/src/loader/parsed-yaml.json by the digest of their text, each with its value and where each value
 * stands. A run then reads them without loading the YAML parser; a file whose text differs is parsed as ever.
 */
import { writeFile } from 'node:fs/promises';
import { listYamlFiles } from '../../src/loader/cases.js';
import { readInputFile } from '../../src/loader/input-file.js';
import { packagePath } from '../../src/loader/package-paths.js';
import { PARSED_YAML_FILE, parseYamlText, yamlDigest, type ParsedYamlEntry } from '../../src/loader/yaml-file.js';
import { stringifyExactJson } from '../../src/model/json.js';

// Every YAML file, load profiles included: a run reads them all through the same reader.
const files = (await Promise.all(['scenarios', 'suites', 'schemas'].map((folder) => listYamlFiles(packagePath(folder), new Set())))).flat();
const parsed: Record<string, ParsedYamlEntry> = {};
for (const file of files) {
  // Read as a run reads it (UTF-8 only, a byte order mark dropped), so the digest is that of the text a run looks up.
  const text = await readInputFile(file).catch(() => undefined);
  // A file with a problem is left to the run, which reports it where it stands.
  if (text === undefined) continue;
  const { value, locations } = await parseYamlText(file, text);
  if (value !== undefined && locations !== undefined) parsed[yamlDigest(text)] = { value: stringifyExactJson(value), locations };
}
const out = packagePath('dist', 'src', 'loader', PARSED_YAML_FILE);
const json = JSON.stringify(parsed);
await writeFile(out, json);
