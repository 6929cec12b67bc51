import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { Readable, Writable } from 'node:stream';
import { BoundedLineSplitter } from './boundedLines';

export interface AgentStreamHooks {
  maxMessageBytes: number;
  /**
   * Sees every well-formed message first, in arrival order; returning true keeps it from the SDK.
   * Session updates are taken here so they are applied strictly before the response that ends the
   * turn (the SDK runs notification handlers concurrently with later messages).
   */
  intercept(message: AnyMessage): boolean;
  /** A line that is not a JSON object: logged by the caller and skipped. */
  onMalformed(reason: string, sample: string): void;
  onOversized(limit: number): void;
}

/**
 * The SDK's message stream over an agent's stdio, built on Hearth's own bounded line reader so an
 * oversized line is refused without ending the connection, and a malformed one is skipped (the
 * SDK would answer the agent with a parse error for a line that was never a request).
 */
export function agentStream(stdout: Readable, stdin: Writable, hooks: AgentStreamHooks): Stream {
  // The SDK cancels the readable when it closes the connection; after that nothing may be enqueued.
  let done = false;
  const readable = new ReadableStream<AnyMessage>({
    cancel() {
      done = true;
    },
    start(controller) {
      const splitter = new BoundedLineSplitter(
        hooks.maxMessageBytes,
        (line) => {
          const text = line.toString('utf8').trim();
          if (!text) return;
          let message: unknown;
          try {
            message = JSON.parse(text);
          } catch (error) {
            hooks.onMalformed(`not JSON (${(error as Error).message})`, text.slice(0, 200));
            return;
          }
          if (typeof message !== 'object' || message === null || Array.isArray(message) || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
            hooks.onMalformed('not a JSON-RPC 2.0 message', text.slice(0, 200));
            return;
          }
          if (done) return;
          if (!hooks.intercept(message as AnyMessage)) controller.enqueue(message as AnyMessage);
        },
        hooks.onOversized,
      );
      const close = () => {
        if (done) return;
        splitter.end();
        done = true;
        controller.close();
      };
      stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
      stdout.once('end', close);
      stdout.once('close', close);
      stdout.once('error', close);
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      return new Promise<void>((resolve, reject) => {
        if (!stdin.writable) {
          reject(new Error('the agent process has exited'));
          return;
        }
        stdin.write(JSON.stringify(message) + '\n', (error) => (error ? reject(error) : resolve()));
      });
    },
  });
  return { readable, writable };
}
