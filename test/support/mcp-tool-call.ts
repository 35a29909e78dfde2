/**
 * One `tools/call` as a raw JSON-RPC POST with a bearer token: what the tests use to see the HTTP status and
 * the challenge of a refused credential, which the SDK client turns into an exception.
 */
export async function rawToolCall(mcpUrl: URL | string, token: string, name: string, args: Record<string, unknown> = {}) {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await response.text();
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: text ? JSON.parse(text) : undefined };
}
