/**
 * `npm run build` runs this after tsc: ajv's standalone validators of every schema in schemas/, written to
 * dist/src/loader/precompiled-validators.js with the digest of the schemas they came from. A run then loads them instead of
 * importing ajv and compiling (the contract loader falls back to ajv when the digest differs).
 */
import { writeFile } from 'node:fs/promises';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createAjv } from '../../src/loader/ajv.js';
import { loadSchemaDocuments, PRECOMPILED_MODULE, schemaDigest } from '../../src/loader/contract.js';
import { packagePath } from '../../src/loader/package-paths.js';

const documents = await loadSchemaDocuments(packagePath('schemas'));
// The validators name their formats through the module the run uses too: one definition of int64.
const ajv = createAjv({ source: true, esm: true, formats: _`(await import("./schema-formats.js")).schemaFormats` });
const exportsById: Record<string, string> = {};
for (const [index, [id, { schema }]] of [...documents].entries()) {
  ajv.addSchema(schema);
  exportsById[id] = `validate${index}`;
}
const code = standaloneCode.default(ajv, Object.fromEntries(Object.entries(exportsById).map(([id, name]) => [name, id])));
const module = [
  '// Written by dist/tools/build/precompile-validators.js at build time: do not edit.',
  // ajv's standalone ESM still requires its runtime helpers (ajv/dist/runtime/*).
  "import { createRequire } from 'node:module';",
  'const require = createRequire(import.meta.url);',
  `export const digest = ${JSON.stringify(schemaDigest(documents))};`,
  `export const exportsById = ${JSON.stringify(exportsById)};`,
  code,
].join('\n');
const file = packagePath('dist', 'src', 'loader', PRECOMPILED_MODULE);
await writeFile(file, module);
// Its declarations, for the tests that read it (the contract loader checks its shape itself).
const validatorNames = Object.values(exportsById).map((name) => `export declare const ${name}: import('ajv').ValidateFunction;`);
await writeFile(
  file.replace(/\.js$/, '.d.ts'),
  ['export declare const digest: string;', 'export declare const exportsById: Record<string, string>;', ...validatorNames, ''].join('\n'),
);
