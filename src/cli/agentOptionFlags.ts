/**
 * `hearth ask --agent NAME --mode M --model X` for an external agent: each flag names one of the
 * agent's own choices (by id or by name, case-insensitive); a choice it does not offer is a usage
 * error that lists what it offers.
 */
import { optionFor } from '../core/agents/agentControls';
import type { AgentSession } from '../core/agents/agentSession';
import { UsageError } from './cliContext';

export async function applyAgentFlags(session: AgentSession, flags: { mode?: string; model?: string }): Promise<void> {
  for (const category of ['mode', 'model'] as const) {
    const wanted = flags[category];
    if (wanted === undefined) continue;
    const view = session.controls?.current();
    const option = view ? optionFor(view, category) : undefined;
    if (!option || option.type !== 'select') throw new UsageError(`--${category}: the agent "${session.agent.name}" offers no ${category} choice`);
    const lower = wanted.toLowerCase();
    const choice = option.choices.find((c) => c.value === wanted) ?? option.choices.find((c) => c.value.toLowerCase() === lower || c.name.toLowerCase() === lower);
    if (!choice) throw new UsageError(`--${category} ${wanted}: "${session.agent.name}" offers ${option.choices.map((c) => c.value).join(', ')}`);
    if (choice.value !== option.value) await session.controls!.setOption(option.id, choice.value);
  }
}
