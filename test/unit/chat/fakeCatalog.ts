// A scripted AgentCatalog for the chat tests: one internal agent whose replies depend on the
// prompt, and one external agent that is not installed. Records what it was asked.
import type { AgentCatalog, AgentDescriptor, AgentEvent, AgentSession, AgentStartOptions, PromptAttachment } from '../../../src/core/agents/agentSession';
import { HearthError } from '../../../src/core/errors';

export const KILN: AgentDescriptor = { name: 'kiln', kind: 'internal', description: 'Answers from your notes', available: true };
export const GHOST: AgentDescriptor = { name: 'ghost-acp', kind: 'external', available: false, unavailableReason: 'ghost-acp is not on PATH; install it with npm i -g ghost-acp' };

export class FakeCatalog implements AgentCatalog {
  readonly prompts: { text: string; attachments: PromptAttachment[] }[] = [];
  /** The options of every start, oldest first (history given to new sessions). */
  readonly starts: AgentStartOptions[] = [];
  /** What the started sessions say they are: an external agent gets no history, only a recap. */
  sessionKind: AgentDescriptor['kind'] = 'internal';
  started = 0;
  disposed = 0;
  /** The signal of the last turn, to check that stop aborts it. */
  lastSignal: AbortSignal | undefined;
  /** When set, the next `crash` prompt succeeds instead (a retry after a fix). */
  healed = false;

  async list(): Promise<AgentDescriptor[]> {
    return [KILN, GHOST];
  }

  async defaultAgent(): Promise<string> {
    return 'kiln';
  }

  async start(name: string, options: AgentStartOptions): Promise<AgentSession> {
    if (name !== 'kiln') throw new HearthError('agent.unavailable', `${name} cannot start`);
    this.started++;
    this.starts.push(options);
    const catalog = this;
    return {
      id: `s${this.started}`,
      agent: { ...KILN, kind: this.sessionKind },
      async *prompt(text: string, attachments: PromptAttachment[] = [], signal?: AbortSignal): AsyncIterable<AgentEvent> {
        catalog.prompts.push({ text, attachments });
        catalog.lastSignal = signal;
        if (text === 'crash' && !catalog.healed) {
          throw Object.assign(new HearthError('llm.unreachable', 'cannot connect to local at http://127.0.0.1:9'), { remedy: 'Start the runner (ollama serve).' });
        }
        if (text === 'tool') {
          yield { type: 'text', text: 'Let me write that.' };
          yield { type: 'tool_call', id: 't1', name: 'create_note', arguments: { path: 'a.md' }, status: 'pending' };
          const outcome = await options.host.requestPermission(
            { toolCallId: 't1', title: 'create_note a.md', detail: '{"path":"a.md"}', options: [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }] },
            signal ?? new AbortController().signal,
          );
          const allowed = outcome.outcome === 'selected' && outcome.optionId === 'allow';
          yield allowed ? { type: 'tool_update', id: 't1', status: 'completed', result: 'created a.md' } : { type: 'tool_update', id: 't1', status: 'denied' };
          yield { type: 'done', stopReason: 'end_turn' };
          return;
        }
        if (text === 'research') {
          yield { type: 'tool_call', id: 'r1', name: 'semantic_search', arguments: { query: 'compost' }, status: 'pending' };
          yield { type: 'tool_update', id: 'r1', status: 'completed', result: JSON.stringify({ query: 'compost', count: 2, results: [{ path: 'techniques/Composting.md', startLine: 3, endLine: 9 }, { path: 'garden/beds.md', startLine: 1, endLine: 4 }] }) };
          yield { type: 'tool_call', id: 'r2', name: 'read_note', arguments: { path: 'secret.md' }, status: 'pending' };
          yield { type: 'tool_update', id: 'r2', status: 'failed', result: 'not found' };
          yield { type: 'text', text: 'See techniques/Composting.md:3.' };
          yield { type: 'done', stopReason: 'end_turn' };
          return;
        }
        if (text === 'slow') {
          yield { type: 'text', text: 'Thinking about it' };
          await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
          yield { type: 'done', stopReason: 'cancelled' };
          return;
        }
        yield { type: 'text', text: 'Hel' };
        yield { type: 'text', text: 'lo **world**' };
        yield { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } };
        yield { type: 'done', stopReason: 'end_turn' };
      },
      async dispose() {
        catalog.disposed++;
      },
    };
  }
}

/** workspaceState in a Map. */
export class MemoryStorage {
  readonly map = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    const value = this.map.get(key);
    return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.parse(JSON.stringify(value)));
  }
}

/** Resolves once `probe` returns something, letting the event loop run in between (no timers). */
export async function until<T>(probe: () => T | undefined, what = 'condition'): Promise<T> {
  for (let i = 0; i < 10_000; i++) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}
