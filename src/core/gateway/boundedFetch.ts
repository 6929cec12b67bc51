import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * `max_message_mb` for remote (sse/http) upstreams: a fetch whose response bodies may not carry a
 * message larger than `maxBytes` — the whole body for a JSON response, each event (up to its blank
 * line) for an event stream. Past it the body errors, and `onTooLarge` is told, so the upstream can
 * drop the connection (failing the call in flight with the reason) instead of buffering without end.
 */
export function boundedFetch(maxBytes: number, onTooLarge: (bytes: number) => void, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const tooLarge = () => new Error(`a message of more than ${Math.round(maxBytes / (1024 * 1024))} MB`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await response.body.cancel().catch(() => {});
      onTooLarge(declared);
      throw tooLarge();
    }
    const stream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let run = 0;
    let previous = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (stream) {
            for (let i = 0; i < chunk.length; i++) {
              const byte = chunk[i];
              run = byte === 0x0a && previous === 0x0a ? 0 : run + 1;
              previous = byte;
            }
          } else {
            run += chunk.length;
          }
          if (run > maxBytes) {
            onTooLarge(run);
            controller.error(tooLarge());
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
