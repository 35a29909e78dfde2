/**
 * Checkout links are first-party only (spec, "Public read-only tools"): a path resolved against the public URL,
 * or an absolute URL on the public URL's origin. Anything else is refused at start, so no tool can ever hand
 * a model a link to somewhere else.
 */
export class ForeignUrlError extends Error {
  override readonly name = 'ForeignUrlError';
}

export function firstPartyUrl(value: string, publicUrl: string, what: string): string {
  const origin = new URL(publicUrl).origin;
  let resolved: URL;
  try {
    // A leading `/` is a path on the gateway; the base keeps any path prefix of the public URL.
    resolved = /^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//') ? new URL(value) : new URL(publicUrl.replace(/\/?$/, '/') + value.replace(/^\//, ''));
  } catch {
    throw new ForeignUrlError(`${what}: ${value} is not a URL or a path`);
  }
  if (resolved.origin !== origin) {
    throw new ForeignUrlError(`${what}: ${value} is not first-party: use a path (/checkout/...) or a URL on ${origin}`);
  }
  return resolved.href;
}
