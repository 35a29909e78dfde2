/**
 * Where to go after signing in (or switching account): only a path on this site. `//evil.example` and
 * `/\evil.example` are paths to a URL parser but other hosts to a browser, so both are refused, as is anything
 * absolute or with control characters. Anything refused becomes `/console`.
 */
export const defaultReturnTo = '/console';

export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return defaultReturnTo;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return defaultReturnTo;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return defaultReturnTo;
  return value;
}
