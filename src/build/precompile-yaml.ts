/**
 * `npm run build` runs this after tsc: the package's own YAML files (scenarios, load profiles, suites, openapi.yaml) parsed
 * once, written to dist/loader/parsed-yaml.json by the digest of their text, each with its value and where each value
 * stands. A run then reads them without loading the YAML parser; a file whose text differs is parsed as ever.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packagePath } from '../loader/package-paths.js';
import { PARSED_YAML_FILE, parseYamlText, yamlDigest, type ParsedYamlEntry } from '../loader/yaml-file.js';
import { stringifyExactJson } from '../model/json.js';

async function yamlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : Promise.resolve(/\.ya?ml$/.test(e.name) ? [path.join(dir, e.name)] : []))));
  return nested.flat();
}

const files = (await Promise.all(['scenarios', 'suites', 'schemas'].map((folder) => yamlFiles(packagePath(folder))))).flat().sort();
const parsed: Record<string, ParsedYamlEntry> = {};
for (const file of files) {
  const text = await readFile(file, 'utf8');
  const { value, locations } = await parseYamlText(file, text);
  // A file with a problem is left to the run, which reports it where it stands.
  if (value !== undefined && locations !== undefined) parsed[yamlDigest(text)] = { value: stringifyExactJson(value), locations };
}
const out = packagePath('dist', 'loader', PARSED_YAML_FILE);
const json = JSON.stringify(parsed);
await writeFile(out, json);
