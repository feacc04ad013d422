/**
 * The variant catalogue: the reference pet store bent in named ways. Broken variants each break one
 * clause and name the cases or checks that must catch them; conformant variants use a freedom the contract
 * leaves and must pass. `npm run matrix` and test/matrix.test.ts hold the suite to both.
 * Each lives in variants/ with the others of its clause; this file is their one list.
 */
import type { ReferenceServerOptions } from './reference-server.js';
import { AUTH_VARIANTS } from './variants/auth.js';
import { LISTING_VARIANTS } from './variants/listing.js';
import { FILTER_VARIANTS } from './variants/filter.js';
import { CREATE_VARIANTS } from './variants/create.js';
import { BODY_VARIANTS } from './variants/bodies.js';
import { GET_PET_VARIANTS } from './variants/get-pet.js';
import { DEPRECATION_VARIANTS } from './variants/deprecation.js';
import { ERROR_VARIANTS } from './variants/errors.js';
import { WIRE_VARIANTS } from './variants/wire.js';
import { CONSISTENCY_VARIANTS } from './variants/consistency.js';
import { TRANSPORT_VARIANTS } from './variants/transport.js';
import type { Variant } from './variants/kit.js';
import { REQUEST_SPACE_VARIANTS } from './variants/request-space.js';
import { SYNTAX_VARIANTS } from './variants/syntax.js';
import { LOAD_VARIANTS, type LoadVariant } from './variants/load.js';

export type { LoadVariant, Variant };
export { cappedSlot, LEAK_AFTER, LOAD_VARIANT_PROFILE, LOAD_VARIANTS, leakDelayMs, SHED_AFTER } from './variants/load.js';

/** The reference store as it is: the variant every other one is told apart from. */
const REFERENCE: Variant = {
  name: 'reference',
  verdict: 'conformant',
  description: 'the reference server as it is',
  clause: 'all',
  caughtBy: [],
};

/**
 * The order docs/checks.md and the matrix list the variants in: broken first, then conformant, then those no run can
 * complete, each in the order it was added (kept from before the variants were grouped by clause). A new variant goes in
 * its clause's file and here.
 */
const CATALOGUE_ORDER: readonly string[] = [
  'auth-off-list',
  'auth-off-create',
  'auth-off-get',
  'auth-accepts-basic',
  'auth-accepts-empty-bearer',
  'auth-accepts-any-token',
  'auth-prefix-compare',
  'auth-truncated-compare',
  'auth-validates-first',
  'auth-401-empty-body',
  'auth-403-instead',
  'limit-default-50',
  'limit-no-cap',
  'limit-ignored',
  'limit-short-pages',
  'limit-off-by-one',
  'limit-500-on-malformed',
  'limit-zero-returns-all',
  'limit-max-rejected',
  'filter-ignored',
  'filter-leaky',
  'filter-500-unknown',
  'filter-misses-new',
  'create-accepts-missing-name',
  'create-accepts-missing-category',
  'create-accepts-string-category',
  'create-accepts-float-category',
  'create-accepts-any-status',
  'create-accepts-array-body',
  'create-500-on-bad-json',
  'create-accepts-empty-body',
  'create-returns-200',
  'create-omits-id',
  'create-drops-status',
  'create-same-id',
  'create-not-persisted',
  'create-uses-client-id',
  'name-emoji-500',
  'name-long-500',
  'category-int64-max-500',
  'name-latin1-mangled',
  'auth-key-case-insensitive',
  'auth-scheme-ignored',
  'status-case-folded',
  'category-numeric-string-coerced',
  'create-category-as-double',
  'get-unknown-200',
  'get-unknown-500',
  'get-malformed-500',
  'get-404-plain-text',
  'error-status-mismatch',
  'error-missing-message',
  'error-html-400',
  'json-as-text-plain',
  'ids-as-double',
  'get-removed-early',
  'get-served-after-removal',
  'sunset-wrong-date',
  'small-store-ignores-limit',
  'filter-no-default-cap',
  'hangs-on-one-query',
  'hangs-on-full-pages',
  'intermittent-500',
  'create-replaces-pet-1',
  'get-misreads-seed',
  'drops-limit-100',
  'auth-scheme-suffix',
  'auth-trailing-token',
  'json-lenient',
  'utf8-lenient',
  'surrogate-500',
  'surrogate-poisons-store',
  'refusal-stores',
  'surrogate-replaced',
  'nesting-500',
  'client-id-crash',
  'number-edges-500',
  'bom-500',
  'body-limit-html',
  'listing-wrapped',
  'listing-duplicate-keys',
  'listing-bom',
  'filter-lenient',
  'ids-lenient',
  'ids-safe-integers',
  'body-before-auth',
  'create-idempotent-by-body',
  'stores-refused-create',
  'drops-statusless',
  'listing-trails-one-write',
  'key-in-query',
  'key-in-x-api-key',
  'key-in-cookie',
  'accept-missing-406',
  'accept-literal-json-only',
  'path-bytes-before-auth',
  'path-bytes-plain-400',
  'path-bytes-html-500',
  'nan-in-unknown',
  'utf16-accepted',
  'comments-accepted',
  'zero-id-400',
  'long-number-500',
  'chunked-body-400',
  'name-cut-at-nul',
  'name-html-escaped',
  'name-sql-500',
  'name-trimmed',
  'name-normalised',
  'status-empty-as-absent',
  'ids-int32-500',
  'reference',
  'clamps-limit',
  'extra-fields',
  'default-status-available',
  'accept-negotiated',
  'newest-first',
  'malformed-id-404',
  'rejects-unknown-fields',
  'unsupported-media-type',
  'lenient-media-type',
  'unprocessable-422',
  'rate-limited',
  'closes-idle-connections',
  'big-ids',
  'connection-close',
  'eventual-listing',
  'empty-store',
  'large-store',
  'no-optional-headers',
  'deprecation-everywhere',
  'unknown-status-empty',
  'filter-empty-as-absent',
  'rejects-client-id',
  'length-required',
  'removed-on-time',
  'removed-404',
  'deprecation-true',
  'lowercase-scheme-refused',
  'unversioned-base',
  'wrong-base-path',
  'rate-limited-for-a-day',
  'dies-mid-run',
];

/** The variants of `groups`, in CATALOGUE_ORDER; one listed twice, or not at all, is our bug, told at load. */
function inCatalogueOrder(groups: ReadonlyArray<readonly Variant[]>): readonly Variant[] {
  const byName = new Map(groups.flat().map((v) => [v.name, v]));
  const listed = new Set(CATALOGUE_ORDER);
  const unlisted = [...byName.keys()].filter((name) => !listed.has(name));
  if (byName.size !== groups.flat().length || listed.size !== CATALOGUE_ORDER.length || unlisted.length > 0)
    throw new Error(`the variant catalogue lists a variant twice or not at all: ${unlisted.join(', ') || 'a repeated name'}`);
  return CATALOGUE_ORDER.map((name) => {
    const variant = byName.get(name);
    if (variant === undefined) throw new Error(`the variant catalogue lists ${name}, which no clause file defines`);
    return variant;
  });
}

/** Every variant: broken first, then conformant, then those no run can complete. */
export const VARIANTS: readonly Variant[] = inCatalogueOrder([
  [REFERENCE],
  AUTH_VARIANTS,
  LISTING_VARIANTS,
  FILTER_VARIANTS,
  CREATE_VARIANTS,
  BODY_VARIANTS,
  GET_PET_VARIANTS,
  DEPRECATION_VARIANTS,
  ERROR_VARIANTS,
  WIRE_VARIANTS,
  CONSISTENCY_VARIANTS,
  TRANSPORT_VARIANTS,
  REQUEST_SPACE_VARIANTS,
  SYNTAX_VARIANTS,
]);

/** Every variant `serve --variant` serves: the catalogue's, then those that show only under load. */
export const SERVED_VARIANTS: ReadonlyArray<Pick<Variant, 'name' | 'wrap' | 'server'>> = [...VARIANTS, ...LOAD_VARIANTS];

/** The server options that make the reference server behave as a variant. */
export function variantServerOptions(variant: Pick<Variant, 'wrap' | 'server'>): Partial<ReferenceServerOptions> {
  const options: Partial<ReferenceServerOptions> = {};
  if (variant.wrap) options.wrap = variant.wrap;
  if (variant.server?.firstId !== undefined) options.firstId = variant.server.firstId;
  if (variant.server?.seed !== undefined) options.seed = variant.server.seed;
  const now = variant.server?.now;
  if (now !== undefined) options.now = () => new Date(now);
  return options;
}
