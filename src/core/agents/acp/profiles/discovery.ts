import { findExecutable } from '../../../process/findExecutable';
import type { AgentDescriptor } from '../../agentSession';
import type { AgentDefinition } from './agentProfiles';

/** A listed agent together with what `start` needs. */
export interface ProbedAgent {
  descriptor: AgentDescriptor;
  definition: AgentDefinition;
  /** The absolute path the command resolved to, when it did. */
  executable?: string;
}

/**
 * Checks every agent's command on PATH, all at once, each bounded by `timeoutMs` (a PATH entry on
 * a hung network mount must not stall the agent list). Nothing is spawned: probing an agent must
 * not start it (some print banners, ask to log in, or take seconds to boot).
 */
export async function probeAgents(definitions: AgentDefinition[], env: NodeJS.ProcessEnv, cwd: string | undefined, timeoutMs: number): Promise<ProbedAgent[]> {
  return Promise.all(definitions.map((definition) => probeOne(definition, env, cwd, timeoutMs)));
}

async function probeOne(definition: AgentDefinition, env: NodeJS.ProcessEnv, cwd: string | undefined, timeoutMs: number): Promise<ProbedAgent> {
  const base = { name: definition.name, kind: 'external' as const, description: definition.description };
  if (!definition.launch) {
    return { definition, descriptor: { ...base, available: false, unavailableReason: definition.problem ?? 'no command configured' } };
  }
  const { command } = definition.launch;
  // The profile may point PATH somewhere else; it is the PATH the agent will be started with.
  const probeEnv = definition.launch.env.PATH ? { ...env, PATH: definition.launch.env.PATH } : env;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const found = await Promise.race([findFirst([command, ...(definition.launch.fallbackCommands ?? [])], probeEnv, cwd), timedOut]);
    if (found === 'timeout') return { definition, descriptor: { ...base, available: false, unavailableReason: `looking for "${command}" on PATH took longer than ${timeoutMs} ms` } };
    return { definition, executable: found, descriptor: { ...base, available: true } };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const names = [command, ...(definition.launch.fallbackCommands ?? [])].map((name) => `"${name}"`).join(' or ');
    const reason = code === 'EACCES' ? `"${command}" is not executable` : command.includes('/') ? `"${command}" does not exist` : `${names} is not on PATH; install it or set command in [acp.agents.${definition.name}]`;
    return { definition, descriptor: { ...base, available: false, unavailableReason: reason } };
  } finally {
    clearTimeout(timer);
  }
}

/** The first of `commands` found; the error of the first when none is (it names the main command). */
async function findFirst(commands: string[], env: NodeJS.ProcessEnv, cwd: string | undefined): Promise<string> {
  let firstError: unknown;
  for (const command of commands) {
    try {
      return await findExecutable(command, env, cwd);
    } catch (error) {
      firstError ??= error;
    }
  }
  throw firstError;
}
