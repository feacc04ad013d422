/** Media-type helpers shared by the checks. */

/** The bare media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const bare = contentType.split(';')[0]?.trim().toLowerCase();
  return bare === '' ? undefined : bare;
}

/** True for application/json and any application/*+json type. */
export function isJsonMediaType(type: string | undefined): boolean {
  return type === 'application/json' || (type !== undefined && /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type));
}
