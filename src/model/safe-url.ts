/** URLs as messages show them: never their userinfo or query, where a password or a key may travel. */

/** A URL (absolute, or relative to `base`) without userinfo, its query shown as `?…`; text that is no URL is returned as it is. */
export function safeUrl(raw: string, base?: string): string {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return raw;
  }
  url.username = '';
  url.password = '';
  const query = url.search !== '';
  url.search = '';
  url.hash = '';
  return `${url.href}${query ? '?…' : ''}`;
}
