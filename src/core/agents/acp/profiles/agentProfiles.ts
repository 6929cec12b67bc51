import type { AcpAgentProfile } from '../../../config/schema';
import { KNOWN_AGENTS, type AgentLaunch } from './knownAgents';

export type AgentOrigin = 'discovered' | 'profile';

/** One agent as configuration defines it: a launch definition, or why there is none. */
export interface AgentDefinition {
  name: string;
  origin: AgentOrigin;
  description: string;
  launch?: AgentLaunch;
  /** Why the profile cannot be used (unknown `extends`, a cycle, no command). */
  problem?: string;
}

/**
 * Every agent that can be listed: the known agents (only when discovery is on) and every
 * `[acp.agents.X]` profile. A profile takes its `extends` target's command, args and env, then
 * overrides field by field, env merged key by key (DESIGN.md §10). A profile named like a known
 * agent builds on that agent without saying `extends`, so `[acp.agents.gemini] env.X = …` only adds
 * to Gemini's definition. Profiles may extend known agents even when discovery is off.
 */
export function defineAgents(profiles: Record<string, AcpAgentProfile>, enableDiscovery: boolean): AgentDefinition[] {
  const known = new Map(KNOWN_AGENTS.map((agent) => [agent.name, agent]));
  const resolved = new Map<string, { launch?: AgentLaunch; problem?: string }>();

  const resolve = (name: string, chain: string[]): { launch?: AgentLaunch; problem?: string } => {
    const done = resolved.get(name);
    if (done) return done;
    if (chain.includes(name)) return { problem: `"extends" forms a cycle: ${[...chain, name].join(' → ')}` };
    const profile = profiles[name];
    if (!profile) {
      const base = known.get(name);
      return base ? { launch: knownLaunch(base) } : { problem: `extends "${name}", which is neither a profile nor a known agent` };
    }
    const parentName = profile.extends ?? (known.has(name) ? name : undefined);
    let parent: { launch?: AgentLaunch; problem?: string } = {};
    if (parentName !== undefined) {
      // A known agent's own profile extends the built-in definition, not itself.
      parent = parentName === name ? { launch: knownLaunch(known.get(name)!) } : resolve(parentName, [...chain, name]);
      if (parent.problem) return remember(name, { problem: parent.problem });
    }
    const command = profile.command ?? parent.launch?.command;
    if (!command) return remember(name, { problem: `profile [acp.agents.${name}] has no "command" and extends nothing that has one` });
    const launch: AgentLaunch = {
      command,
      args: profile.args ? [...profile.args] : [...(parent.launch?.args ?? [])],
      env: { ...(parent.launch?.env ?? {}), ...(profile.env ?? {}) },
      // A command of the profile's own replaces the other names the base is installed under.
      ...(!profile.command && parent.launch?.fallbackCommands ? { fallbackCommands: [...parent.launch.fallbackCommands] } : {}),
    };
    return remember(name, { launch });
  };
  const remember = (name: string, value: { launch?: AgentLaunch; problem?: string }) => {
    resolved.set(name, value);
    return value;
  };

  const definitions: AgentDefinition[] = [];
  if (enableDiscovery) {
    for (const agent of KNOWN_AGENTS) {
      if (profiles[agent.name]) continue;
      definitions.push({ name: agent.name, origin: 'discovered', description: agent.description, launch: knownLaunch(agent) });
    }
  }
  for (const name of Object.keys(profiles)) {
    const result = resolve(name, []);
    const description = known.get(name)?.description ?? (profiles[name].extends ? `profile extending ${profiles[name].extends}` : 'profile');
    definitions.push({ name, origin: 'profile', description, ...result });
  }
  return definitions;
}

function knownLaunch(agent: AgentLaunch): AgentLaunch {
  return { command: agent.command, args: [...agent.args], env: { ...agent.env }, ...(agent.fallbackCommands ? { fallbackCommands: [...agent.fallbackCommands] } : {}) };
}
