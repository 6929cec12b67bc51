/** A JSON-RPC error's message with the details agents put in `data` ("Internal error" alone says little). */
export function rpcErrorText(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  const data = (error as { data?: unknown })?.data;
  const details = typeof data === 'string' ? data : typeof (data as { details?: unknown })?.details === 'string' ? (data as { details: string }).details : undefined;
  return details ? `${message} (${details})` : message;
}
