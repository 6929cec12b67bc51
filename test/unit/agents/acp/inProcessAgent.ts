// An ACP agent in the test's own process: the client reads and writes bytes exactly as it would a
// child's stdio (so the bounded line reader, malformed-line handling and the size limit all run),
// and the agent end is the SDK's ndJsonStream over the other side of the same linked pair.
import * as acp from '@agentclientprotocol/sdk';
import { PassThrough, Readable } from 'node:stream';
import type { AgentChannel, AgentExit, AgentLaunch, AgentTransport } from '../../../../src/core/agents/acp/connection/agentTransport';

/** The agent's end of the link. */
export interface InProcessPeer {
  /** The SDK's message stream: hand it to `acp.agent(...).connect(stream)`. */
  stream: acp.Stream;
  launch: AgentLaunch;
  /** Bytes to the client past the SDK (hostile input: broken JSON, oversized lines). */
  writeRaw(text: string): Promise<void>;
  /** Diagnostic output, as a process's stderr (kept as the tail, reported line by line). */
  writeStderr(text: string): void;
  /** The agent ends by itself (a crash), with this exit code. */
  exit(code: number): void;
}

/** One in-process agent as the client sees it. `pid` is undefined: nothing was spawned. */
export class InProcessChannel implements AgentChannel {
  readonly output = new PassThrough();
  readonly input = new PassThrough();
  readonly pid = undefined;
  readonly exit: Promise<AgentExit>;
  private ended = false;
  private tail = '';
  private settle!: (exit: AgentExit) => void;
  /** A running child keeps the event loop alive; so does a running in-process agent (the client's own timers are unref'd). */
  private readonly alive = setInterval(() => {}, 60_000);

  constructor(readonly launch: AgentLaunch) {
    this.exit = new Promise((resolve) => (this.settle = resolve));
    // As for a dead process's stdin: a late write is the client's to notice (it checks `writable`), never an uncaught error.
    this.input.on('error', () => {});
  }

  get hasExited(): boolean {
    return this.ended;
  }

  get stderr(): string {
    return this.tail.trim();
  }

  /** The agent's end: the SDK stream over the pair, and the hooks a process would have. */
  peer(): InProcessPeer {
    const output = this.output;
    const writeBytes = (chunk: Uint8Array | string) => new Promise<void>((resolve) => (this.ended ? resolve() : output.write(chunk, () => resolve())));
    // Writes after the end are dropped, as a dead process's would be.
    const agentOutput = new WritableStream<Uint8Array>({ write: (chunk) => writeBytes(chunk) });
    const agentInput = Readable.toWeb(this.input) as ReadableStream<Uint8Array>;
    return {
      stream: acp.ndJsonStream(agentOutput, agentInput),
      launch: this.launch,
      writeRaw: (text) => writeBytes(text),
      writeStderr: (text) => {
        this.tail = (this.tail + text).slice(-2000);
        for (const line of text.split('\n')) if (line.trim()) this.launch.onStderrLine?.(line);
      },
      exit: (code) => this.end({ code, signal: null }),
    };
  }

  async stop(): Promise<void> {
    // The client closing the agent's input is the end of an ACP agent, as EOF on stdin is for a process.
    this.end({ code: 0, signal: null });
  }

  killNow(): void {
    this.end({ code: null, signal: 'SIGKILL' });
  }

  private end(exit: AgentExit): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.alive);
    this.input.end();
    this.output.end();
    this.settle(exit);
  }
}

/** A transport that runs `serve` in process for each start, and keeps every channel it made (restarts show as more). */
export function inProcessAgent(serve: (peer: InProcessPeer) => void): AgentTransport & { channels: InProcessChannel[] } {
  const channels: InProcessChannel[] = [];
  const start = async (launch: AgentLaunch) => {
    const channel = new InProcessChannel(launch);
    channels.push(channel);
    serve(channel.peer());
    return channel;
  };
  return Object.assign(start, { channels });
}
