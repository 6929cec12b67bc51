import type { KeyValueStorage } from '../conversation/historyStore';

const KEY = 'hearth.chat.agentOptions';

/** Option choices per external agent (mode, model, reasoning…), remembered across conversations and restored when a session opens. */
export class AgentPreferences {
  private readonly memory = new Map<string, Record<string, string | boolean>>();

  constructor(private readonly storage?: KeyValueStorage) {}

  get(agent: string): Record<string, string | boolean> {
    return { ...(this.storage?.get<Record<string, Record<string, string | boolean>>>(KEY)?.[agent] ?? this.memory.get(agent) ?? {}) };
  }

  async remember(agent: string, id: string, value: string | boolean): Promise<void> {
    const next = { ...this.get(agent), [id]: value };
    this.memory.set(agent, next);
    if (!this.storage) return;
    const all = this.storage.get<Record<string, Record<string, string | boolean>>>(KEY) ?? {};
    await this.storage.update(KEY, { ...all, [agent]: next });
  }
}
