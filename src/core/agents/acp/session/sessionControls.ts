/**
 * An ACP session's controls as the agent reported them: config options (`configOptions` and
 * `config_option_update`), modes (`modes`, `current_mode_update`), models (the unstable `models`
 * field), commands (`available_commands_update`) and the title (`session_info_update`). Everything is
 * checked by hand and bounded: an agent that floods thousands of options or commands, or sends
 * unknown types, costs a bounded list and a log line, never the session.
 */
import { Emitter } from '../../../lifecycle/emitter';
import type { AgentCommandView, AgentControlsView, AgentOptionCategory, AgentOptionChoice, AgentOptionView } from '../../agentControls';

export const CONTROL_LIMITS = { options: 32, choices: 200, commands: 200, name: 120, description: 400 } as const;

/** Synthesized pickers for agents that offer modes / models but not as config options. */
export const MODE_OPTION_ID = 'acp:mode';
export const MODEL_OPTION_ID = 'acp:model';

const CATEGORIES = new Set<AgentOptionCategory>(['mode', 'model', 'thought_level']);

/** How a change of one option reaches the agent. */
export type OptionRoute = { method: 'session/set_config_option'; configId: string } | { method: 'session/set_mode' } | { method: 'session/set_model' };

export class SessionControls {
  private configOptions: AgentOptionView[] = [];
  private modes: { current: string; available: AgentOptionChoice[] } | undefined;
  private models: { current: string; available: AgentOptionChoice[] } | undefined;
  private commands: AgentCommandView[] = [];
  private title: string | undefined;
  private readonly _onDidChange = new Emitter<AgentControlsView>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly warn: (message: string) => void) {}

  view(): AgentControlsView {
    const options = [...this.configOptions];
    if (this.modes && !options.some((o) => o.category === 'mode')) {
      options.unshift({ id: MODE_OPTION_ID, name: 'Mode', category: 'mode', type: 'select', value: this.modes.current, choices: this.modes.available });
    }
    if (this.models && !options.some((o) => o.category === 'model')) {
      options.push({ id: MODEL_OPTION_ID, name: 'Model', category: 'model', type: 'select', value: this.models.current, choices: this.models.available });
    }
    return { options, commands: [...this.commands], ...(this.title ? { title: this.title } : {}) };
  }

  route(id: string): OptionRoute | undefined {
    if (id === MODE_OPTION_ID && this.modes) return { method: 'session/set_mode' };
    if (id === MODEL_OPTION_ID && this.models) return { method: 'session/set_model' };
    return this.configOptions.some((o) => o.id === id) ? { method: 'session/set_config_option', configId: id } : undefined;
  }

  /** The state in a session/new, load or resume response (or a set_config_option answer). */
  applyResponse(response: unknown): void {
    if (!isRecord(response)) return;
    let changed = false;
    if (Array.isArray(response.configOptions)) changed = this.setConfigOptions(response.configOptions) || changed;
    if (isRecord(response.modes)) {
      const available = choicesOf(response.modes.availableModes, 'id', (n) => this.warn(n));
      if (typeof response.modes.currentModeId === 'string' && available.length) {
        this.modes = { current: clip(response.modes.currentModeId, CONTROL_LIMITS.name), available };
        changed = true;
      }
    }
    if (isRecord(response.models)) {
      const available = choicesOf(response.models.availableModels, 'modelId', (n) => this.warn(n));
      if (typeof response.models.currentModelId === 'string' && available.length) {
        this.models = { current: clip(response.models.currentModelId, CONTROL_LIMITS.name), available };
        changed = true;
      }
    }
    if (changed) this.fire();
  }

  /** A session/update; true when it was one of the kinds kept here. */
  applyUpdate(update: Record<string, unknown>): boolean {
    switch (update.sessionUpdate) {
      case 'available_commands_update':
        if (!Array.isArray(update.availableCommands)) return this.invalid('available_commands_update without availableCommands');
        this.commands = commandsOf(update.availableCommands, (n) => this.warn(n));
        break;
      case 'current_mode_update':
        if (typeof update.currentModeId !== 'string') return this.invalid('current_mode_update without currentModeId');
        if (this.modes) this.modes.current = clip(update.currentModeId, CONTROL_LIMITS.name);
        break;
      case 'config_option_update':
        if (!Array.isArray(update.configOptions)) return this.invalid('config_option_update without configOptions');
        this.setConfigOptions(update.configOptions);
        break;
      case 'session_info_update':
        if (typeof update.title === 'string') this.title = clip(update.title, CONTROL_LIMITS.name);
        else if (update.title === null) this.title = undefined;
        break;
      case 'current_model_update':
        if (typeof update.currentModelId === 'string' && this.models) this.models.current = clip(update.currentModelId, CONTROL_LIMITS.name);
        break;
      default:
        return false;
    }
    this.fire();
    return true;
  }

  /** After set_mode / set_model succeeded (the agent may not echo an update). */
  chose(route: OptionRoute, value: string): void {
    if (route.method === 'session/set_mode' && this.modes) this.modes.current = value;
    else if (route.method === 'session/set_model' && this.models) this.models.current = value;
    else return;
    this.fire();
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private setConfigOptions(raw: unknown[]): boolean {
    const options: AgentOptionView[] = [];
    const seen = new Set<string>();
    let skipped = 0;
    for (const item of raw) {
      const option = optionOf(item);
      if (!option || seen.has(option.id)) {
        skipped++;
        continue;
      }
      if (options.length >= CONTROL_LIMITS.options) {
        skipped += 1;
        continue;
      }
      seen.add(option.id);
      options.push(option);
    }
    if (skipped) this.warn(`${skipped} of ${raw.length} config options skipped (unknown type, malformed, or past ${CONTROL_LIMITS.options})`);
    this.configOptions = options;
    return true;
  }

  private invalid(reason: string): true {
    this.warn(`skipped an invalid session/update (${reason})`);
    return true;
  }

  private fire(): void {
    this._onDidChange.fire(this.view());
  }
}

function optionOf(item: unknown): AgentOptionView | undefined {
  if (!isRecord(item) || typeof item.id !== 'string' || !item.id || item.id.length > CONTROL_LIMITS.name || typeof item.name !== 'string') return undefined;
  const category: AgentOptionCategory = CATEGORIES.has(item.category as AgentOptionCategory) ? (item.category as AgentOptionCategory) : 'other';
  const base = { id: item.id, name: clip(item.name, CONTROL_LIMITS.name), category, ...(typeof item.description === 'string' ? { description: clip(item.description, CONTROL_LIMITS.description) } : {}) };
  if (item.type === 'boolean') return typeof item.currentValue === 'boolean' ? { ...base, type: 'boolean', value: item.currentValue } : undefined;
  if (item.type !== 'select' || typeof item.currentValue !== 'string' || !Array.isArray(item.options)) return undefined;
  // Groups are flattened: the header shows one list; the group's name prefixes each choice.
  const flat: unknown[] = [];
  for (const entry of item.options) {
    if (isRecord(entry) && Array.isArray(entry.options) && typeof entry.group === 'string') {
      for (const inner of entry.options) flat.push(isRecord(inner) && typeof entry.name === 'string' && typeof inner.name === 'string' ? { ...inner, name: `${entry.name}: ${inner.name}` } : inner);
    } else flat.push(entry);
    if (flat.length > CONTROL_LIMITS.choices) break;
  }
  const choices = choicesOf(flat, 'value', () => {});
  if (choices.length === 0) return undefined;
  return { ...base, type: 'select', value: item.currentValue, choices };
}

function choicesOf(raw: unknown, key: 'value' | 'id' | 'modelId', warn: (message: string) => void): AgentOptionChoice[] {
  if (!Array.isArray(raw)) return [];
  const choices: AgentOptionChoice[] = [];
  for (const entry of raw) {
    if (choices.length >= CONTROL_LIMITS.choices) {
      warn(`only the first ${CONTROL_LIMITS.choices} of ${raw.length} choices are shown`);
      break;
    }
    if (!isRecord(entry) || typeof entry[key] !== 'string' || (entry[key] as string).length > CONTROL_LIMITS.name) continue;
    const value = entry[key] as string;
    const name = typeof entry.name === 'string' ? clip(entry.name, CONTROL_LIMITS.name) : value;
    choices.push({ value, name, ...(typeof entry.description === 'string' ? { description: clip(entry.description, CONTROL_LIMITS.description) } : {}) });
  }
  return choices;
}

const COMMAND_NAME = /^[\w][\w.:-]{0,63}$/;

function commandsOf(raw: unknown[], warn: (message: string) => void): AgentCommandView[] {
  const commands: AgentCommandView[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const entry of raw) {
    if (commands.length >= CONTROL_LIMITS.commands) {
      skipped = raw.length - commands.length;
      break;
    }
    if (!isRecord(entry) || typeof entry.name !== 'string' || !COMMAND_NAME.test(entry.name) || seen.has(entry.name)) {
      skipped++;
      continue;
    }
    seen.add(entry.name);
    const hint = isRecord(entry.input) && typeof entry.input.hint === 'string' ? clip(entry.input.hint, CONTROL_LIMITS.name) : undefined;
    commands.push({ name: entry.name, description: typeof entry.description === 'string' ? clip(entry.description, CONTROL_LIMITS.description) : '', ...(hint ? { hint } : {}) });
  }
  if (skipped) warn(`${skipped} of ${raw.length} commands skipped (malformed, repeated, or past ${CONTROL_LIMITS.commands})`);
  return commands;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
