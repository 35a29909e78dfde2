/**
 * Readers for error bodies that several vendors share, so compatible APIs need no plugin-to-plugin imports.
 * The OpenAI shape `{"error": {"message", "type", "param", "code"}}` is also spoken by OpenAI-compatible
 * servers; `code` is often null and `type` then names the class (https://platform.openai.com/docs/guides/error-codes).
 */
export function describeOpenAIStyleError(body: unknown): { message?: string; code?: string } {
  const error = (body as { error?: { message?: unknown; type?: unknown; code?: unknown } } | undefined)?.error;
  if (!error || typeof error !== 'object') return {};
  const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
  return { message: typeof error.message === 'string' ? error.message : undefined, code };
}
