/** The one way this project builds ajv: strict, all errors, standard formats, a bounded int64. */
import { Ajv2020, type CodeOptions } from 'ajv/dist/2020.js';
import { schemaFormats } from './schema-formats.js';

/** A fresh ajv instance in strict mode with the standard formats; `code` makes it write standalone validators (the build does). */
export function createAjv(code?: CodeOptions): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, ...(code === undefined ? {} : { code }) });
  for (const [name, format] of Object.entries(schemaFormats)) ajv.addFormat(name, format);
  return ajv;
}
