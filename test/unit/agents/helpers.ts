// Test support for the agents: a temp kiln with real notes, a config on the aimock server, a
// surface that records permission prompts and answers them as told, and event collection.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HearthConfigSchema, type HearthConfig } from '../../../src/core/config/schema';
import { silentLogger } from '../../../src/core/host';
import { LlmRuntime } from '../../../src/core/llm/llmRuntime';
import type { AgentEvent, AgentSessionHost, PermissionOutcome, PermissionRequest } from '../../../src/core/agents/agentSession';
import type { InternalAgentDeps } from '../../../src/core/agents/internal/internalAgents';
import type { GatewayToolSource } from '../../../src/core/agents/agentTools';
import type { LlmProviderType } from '../../../src/core/config/providerTypes';
import { endpointFor, GOOD_KEY } from '../llm/mockLlm';

export async function tempDir(prefix = 'hearth-agents-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

export const KILN_NOTES: Record<string, string> = {
  'recipes/bread.md': '---\ntags: [baking]\n---\n# Bread\n\nMix 500 g flour, 350 g water, salt and yeast. Bake at 230 C.\n',
  'old.md': '# Old\n\nAn outdated note.\n',
  'temp.md': '# Temp\n\nScratch.\n',
};

/** A config whose only provider is `mock` of the given type, on the aimock server. */
export function mockConfig(type: LlmProviderType, url: string, model: string, extra: Record<string, unknown> = {}): HearthConfig {
  return HearthConfigSchema.parse({
    llm: { default: 'mock', providers: { mock: { type, endpoint: endpointFor(type, url), default_model: model, api_key: '{env:MOCK_KEY}' } } },
    ...extra,
  });
}

export function agentDeps(config: HearthConfig, kilnRoot: string, gateway?: GatewayToolSource, maxSteps?: number): InternalAgentDeps {
  const runtime = new LlmRuntime(() => ({ config, sources: {}, keys: { llm: { mock: GOOD_KEY }, embedding: undefined } }), { maxRetries: 0 });
  return {
    runtime,
    config: () => config,
    kilnContext: { kilnRoot, host: { log: silentLogger, confirm: async () => true }, confirmDestructive: true },
    gateway,
    log: silentLogger,
    maxSteps,
  };
}

/** A surface that answers every permission prompt with `answer` and keeps the requests. */
export class RecordingHost implements AgentSessionHost {
  readonly requests: PermissionRequest[] = [];
  constructor(public answer: 'allow_once' | 'allow_always' | 'reject_once' | 'cancelled' = 'allow_once') {}
  async requestPermission(request: PermissionRequest): Promise<PermissionOutcome> {
    this.requests.push(request);
    if (this.answer === 'cancelled') return { outcome: 'cancelled' };
    return { outcome: 'selected', optionId: this.answer };
  }
}

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export function textOf(events: AgentEvent[]): string {
  return events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
}

export function updates(events: AgentEvent[]): Extract<AgentEvent, { type: 'tool_update' }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: 'tool_update' }> => e.type === 'tool_update' && e.status !== 'in_progress');
}

/** aimock's normalized request: the last message's text, for predicates. */
export function lastMessageText(req: { messages: { role: string; content: unknown }[] }): string {
  const last = req.messages.at(-1);
  const content = last?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}

export function firstUserText(req: { messages: { role: string; content: unknown }[] }): string {
  const user = req.messages.filter((m) => m.role === 'user').at(-1);
  const content = user?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}
