/** The one constructor of a case generated from the contract, shared by every generator in this folder. */
import type { OperationInfo } from '../model/contract.js';
import { type CaseSpec, stepsWrite } from '../model/scenario.js';
import type { OperationName } from '../model/contract-names.js';

/** A generated case, traced to the operation of the OpenAPI document it is generated from. */
export function generated(
  op: OperationInfo,
  fields: Omit<CaseSpec, 'source' | 'writes' | 'operation' | 'level'> & { level?: CaseSpec['level']; operation?: OperationName },
): CaseSpec {
  const spec: CaseSpec = {
    level: 'fail',
    operation: op.name,
    source: op.source,
    writes: stepsWrite(fields.steps),
    ...fields,
  };
  // A removed operation is described no further: its cases apply only before the removal date.
  if (op.sunset !== undefined) spec.clock = { before: op.sunset };
  return spec;
}
