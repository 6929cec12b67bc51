/**
 * Starts internal agent sessions from cards: picks the model (start option, then the card's, then
 * the active one), decides size-aware prompts, gathers the tools (kiln + gateway, the card's globs,
 * read-only for small models) and the rules files, and builds the session.
 */
import type { HearthConfig } from '../../config/schema';
import { describeError } from '../../errors';
import type { Logger } from '../../host';
import type { ConfinedRoot } from '../../fs/confinedRoot';
import { createKilnTools } from '../../kiln/tools/kilnTools';
import { kilnWriteGate } from '../../kiln/tools/kilnWriteGate';
import type { KilnToolContext } from '../../kiln/tools/kilnTool';
import { LlmError } from '../../llm/errors';
import type { LlmRuntime } from '../../llm/llmRuntime';
import { parseModelId } from '../../llm/modelId';
import type { ChatMessage, ProviderSettings } from '../../llm/types';
import type { AgentCard } from '../agentCard';
import { describeCard } from '../agentCards';
import type { AgentStartOptions } from '../agentSession';
import { filterTools, fromGatewayTool, fromKilnTool, type AgentTool, type GatewayToolSource } from '../agentTools';
import { InternalAgentSession } from './internalSession';
import { findRulesFiles, formatRules, type SkippedRulesFile } from './rulesFiles';
import { buildSystemPrompt } from './systemPrompt';

export interface InternalAgentDeps {
  runtime: LlmRuntime;
  config: () => HearthConfig;
  /** The kiln tools' context; the agent asks permission itself, so its own confirm is not used. */
  kilnContext: KilnToolContext;
  /** Absent when no gateway runs (its tools are then simply not offered). */
  gateway?: GatewayToolSource;
  log: Logger;
  maxSteps?: number;
}

/** A model id (`provider/model` or a model of the current provider) as settings, without touching the session's selection. */
export function resolveModel(runtime: LlmRuntime, id: string | undefined): ProviderSettings {
  const current = runtime.selection.current();
  if (!id) return current;
  const providers = runtime.selection.providers();
  const ref = parseModelId(id, providers.map((p) => p.name), current.name);
  const base = providers.find((p) => p.name === ref.provider);
  if (!base) throw new LlmError('llm.unknown_provider', `no provider named "${ref.provider}" is configured`, ref.provider);
  return ref.model ? { ...base, model: ref.model } : base;
}

/** Every tool the agent could use, before the card's and the size filter. */
export function allTools(deps: Pick<InternalAgentDeps, 'kilnContext' | 'gateway'>, files?: ConfinedRoot): AgentTool[] {
  // Permission is asked by the loop through the surface, so the kiln tools must not ask again.
  // With a reviewer, the diff review is the one question a kiln write asks (the loop does not ask too).
  const reviewed = deps.kilnContext.reviewer !== undefined && deps.kilnContext.reviewEdits !== undefined && deps.kilnContext.reviewEdits !== 'never';
  // Other files (an ACP client's): reads and writes go through them, behind a gate of their own with the same protection.
  const context = files ? { ...deps.kilnContext, files, gate: kilnWriteGate(deps.kilnContext, files) } : deps.kilnContext;
  const kiln = createKilnTools({ ...context, confirmDestructive: false }).map((tool) => fromKilnTool(tool, reviewed && !tool.readOnly));
  const gateway = deps.gateway ? deps.gateway.tools().map((tool) => fromGatewayTool(tool, deps.gateway!)) : [];
  return [...kiln, ...gateway];
}

/** Extra tools whose names the kiln's or the gateway's tools already use are left out (the built-in one wins). */
function withoutClashes(extra: readonly AgentTool[], own: readonly AgentTool[]): AgentTool[] {
  const taken = new Set(own.map((tool) => tool.name));
  return extra.filter((tool) => !taken.has(tool.name));
}

export async function startInternalAgent(card: AgentCard, options: AgentStartOptions, deps: InternalAgentDeps): Promise<InternalAgentSession> {
  const config = deps.config();
  const settings = resolveModel(deps.runtime, options.model ?? card.model);
  const provider = deps.runtime.provider(settings);
  let small = false;
  if (config.chat.size_aware_prompts) {
    try {
      small = await deps.runtime.isSmallModel(settings);
    } catch (error) {
      // Unknown size counts as large (DESIGN.md decision 6).
      deps.log.child('agents').debug(`model size of ${settings.model} unknown: ${describeError(error)}`);
    }
  }
  // A read-only mode never offers a writing tool: the model cannot be tempted into a call that would be refused.
  const tools = () => {
    const own = allTools(deps, options.kilnFiles);
    return filterTools([...own, ...withoutClashes(options.extraTools?.() ?? [], own)], { globs: card.tools, readOnlyOnly: small || options.readOnly?.() === true });
  };
  const onSkipped = ({ label, reason }: SkippedRulesFile) => deps.log.child('agents').warn(`rules file ${label} skipped: ${reason}`);
  const rules = formatRules(await findRulesFiles(options.cwd, config.context.rules_files, { onSkipped }));
  const systemPrompt = buildSystemPrompt({ cardPrompt: card.systemPrompt, tools: tools(), small, workspace: options.cwd, kiln: deps.kilnContext.kilnRoot, rules });
  deps.log.child('agents').debug(`${card.name} on ${settings.name}/${settings.model ?? ''}${small ? ' (small model: read-only tools)' : ''}`);
  return new InternalAgentSession({
    agent: describeCard(card),
    provider,
    chatOptions: { ...(settings.model ? { model: settings.model } : {}), ...(card.temperature !== undefined ? { temperature: card.temperature } : {}) },
    systemPrompt,
    history: options.history?.map((message): ChatMessage => (message.role === 'user' ? { role: 'user', content: message.text } : { role: 'assistant', content: message.text })),
    tools,
    host: options.host,
    confirmDestructive: config.cli.confirm_destructive,
    log: deps.log,
    maxSteps: deps.maxSteps,
  });
}
