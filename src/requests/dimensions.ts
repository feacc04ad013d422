/**
 * The request space as named dimensions derived from the contract model, each a generator of deterministic cases whose
 * ids start with its name (so the catalogue lists them by dimension). Every value is judged by its case's expectation and by
 * the invariants on every exchange; a value also sent without a key expects 401 first (auth-first).
 */
import type { Contract } from '../model/contract.js';
import type { CaseSpec } from '../model/scenario.js';
import { channelCases } from './channel-cases.js';
import { edgeCases } from './edge-cases.js';
import { representationCases } from './representation-cases.js';
import { syntaxCases } from './syntax-cases.js';

/** A dimension of the request space: its name (the prefix of its case ids), what it varies, its generator. */
export interface Dimension {
  name: string;
  varies: string;
  generate(contract: Contract): CaseSpec[];
}

/** The dimensions, in the order their cases run. */
export const DIMENSIONS: readonly Dimension[] = [
  { name: 'channel', varies: 'where the key is put (query parameters, API-key headers, a cookie)', generate: channelCases },
  {
    name: 'representation',
    varies: 'what the request accepts (no Accept, */*, application/*, q-value lists)',
    generate: representationCases,
  },
  { name: 'edge', varies: 'values at the edges of each type, in every field, parameter and path segment', generate: edgeCases },
  { name: 'syntax', varies: 'the syntax and encoding of the body and the path', generate: syntaxCases },
];

/** Every case of every dimension, in a stable order. */
export function dimensionCases(contract: Contract): CaseSpec[] {
  return DIMENSIONS.flatMap((dimension) => dimension.generate(contract));
}
