/**
 * `@hearth /agent NAME TASK` free of `vscode`: one of Hearth's agents (internal, or external over
 * ACP) from the catalog runs the task; its tool calls and plan become progress lines, its text goes
 * to the reply. The catalog builds its agents with Hearth's write gate, review and journal, so an
 * edit made here is reviewed and undoable as everywhere else, and it keeps the trust rules (an
 * external agent in Restricted Mode is listed as unavailable and never starts). Any failure ends
 * as an outcome with a message (what failed, the remedy), never a throw: the Chat view shows it.
 */
import type { AgentCatalog, AgentDescriptor, AgentEvent, AgentSessionHost } from '../../agents/agentSession';
import { describeError } from '../../errors';
import type { Logger } from '../../host';
import { parseAgentCommand } from './participantCommands';

/** Where the turn shows: the Chat view's response stream, adapted by the host. */
export interface ParticipantReply {
  /** A transient line ("Starting kiln…", "Read note…"). */
  progress(text: string): void;
  /** Markdown of Hearth's own (the usage hint, the agent list). */
  markdown(text: string): void;
  /** The agent's text as it streams (the host turns citations into anchors). */
  write(text: string): Promise<void>;
  /** The agent is done: what the host held back goes out. */
  end(): Promise<void>;
}

export interface ParticipantAgentDeps {
  catalog: AgentCatalog | undefined;
  kilnRoot: string | undefined;
  workspaceRoot: string | undefined;
  /** A Hearth model (`provider/model`) picked in the Chat view: the session uses it. */
  model?: string;
  /** Asks the user about a permission request (a closed question rejects). */
  host: AgentSessionHost;
  /** Scrubs known secrets from what the reply shows. */
  redact(text: string): string;
  log: Logger;
}

/** How the turn ended: `error` is the message for the Chat view's error box. */
export interface ParticipantAgentOutcome {
  error?: string;
  metadata: { command: 'agent'; agent?: string; cancelled?: boolean };
}

/** Tool calls the progress shows by name at most per turn (a loop of hundreds must not flood the view). */
export const MAX_PROGRESS_LINES = 50;

export async function runParticipantAgent(prompt: string, reply: ParticipantReply, signal: AbortSignal, deps: ParticipantAgentDeps): Promise<ParticipantAgentOutcome> {
  const metadata = { command: 'agent' as const };
  const { catalog } = deps;
  if (!catalog) return { error: 'Hearth\'s agents did not start; see "Hearth: Show Log".', metadata };
  let agents: AgentDescriptor[];
  try {
    agents = await catalog.list();
  } catch (error) {
    return { error: `Hearth could not list its agents: ${deps.redact(describeError(error))}. Check "Hearth: Show Log", then ask again.`, metadata };
  }
  const parsed = parseAgentCommand(prompt);
  if (!parsed) {
    reply.markdown(`Name an agent and its task: \`@hearth /agent ${agents[0]?.name ?? 'kiln'} tidy the tags of my garden notes\`.\n\n${agentList(agents)}`);
    return { metadata };
  }
  const agent = agents.find((a) => a.name === parsed.name);
  if (!agent) return { error: `No agent named "${shortName(parsed.name)}". ${agentList(agents)}`, metadata };
  if (!agent.available) return { error: `The agent "${agent.name}" is not available: ${agent.unavailableReason ?? 'unknown reason'}.`, metadata };
  const cwd = deps.workspaceRoot ?? deps.kilnRoot;
  if (!cwd) return { error: 'Open a folder first: an agent works in the workspace.', metadata };
  if (signal.aborted) return { metadata: { ...metadata, cancelled: true } };
  reply.progress(`Starting ${agent.name}…`);
  let session;
  try {
    session = await catalog.start(agent.name, { host: deps.host, cwd, ...(deps.kilnRoot ? { kilnRoot: deps.kilnRoot } : {}), ...(deps.model ? { model: deps.model } : {}) });
  } catch (error) {
    return { error: `The agent "${agent.name}" could not start: ${deps.redact(describeError(error))}. Check its configuration ("Hearth: Show Log"), then ask again.`, metadata };
  }
  const progress = new AgentProgress();
  let failed: string | undefined;
  try {
    for await (const event of session.prompt(parsed.task, [], signal)) {
      if (signal.aborted) break;
      if (event.type === 'text') await reply.write(event.text);
      else if (event.type === 'error') failed = `${event.message}${event.remedy ? ` ${event.remedy}` : ''}`;
      else {
        const line = progress.line(event);
        if (line) reply.progress(line);
      }
    }
    await reply.end();
  } catch (error) {
    if (!signal.aborted) failed = `The agent "${agent.name}" failed: ${describeError(error)}`;
  } finally {
    await session.dispose().catch((error: unknown) => deps.log.warn(`ending the agent session failed: ${describeError(error)}`));
  }
  if (signal.aborted) return { metadata: { ...metadata, agent: agent.name, cancelled: true } };
  return failed ? { error: deps.redact(failed), metadata: { ...metadata, agent: agent.name } } : { metadata: { ...metadata, agent: agent.name } };
}

/** Turns an agent's events into progress lines: a tool call by its title, a refused or failed one, the plan. */
export class AgentProgress {
  private shown = 0;

  line(event: AgentEvent): string | undefined {
    switch (event.type) {
      case 'tool_call':
        if (++this.shown > MAX_PROGRESS_LINES) return this.shown === MAX_PROGRESS_LINES + 1 ? 'more tool calls…' : undefined;
        return `${oneLine(event.title ?? event.name)}…`;
      case 'tool_update':
        if (event.status === 'denied' || event.code === 'changes.rejected') return 'a change was rejected';
        return event.status === 'failed' ? 'a tool call was unsuccessful' : undefined;
      case 'plan':
        return `Plan: ${event.entries.map((e) => `${e.status === 'completed' ? '✓' : e.status === 'in_progress' ? '…' : '·'} ${oneLine(e.content)}`).join('; ')}`;
      default:
        return undefined;
    }
  }
}

/** An agent or tool title as one short line (a model-made title may be long or span lines). */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

function shortName(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}

/** The agents as a markdown list, with why each unavailable one is. */
export function agentList(agents: readonly AgentDescriptor[]): string {
  if (agents.length === 0) return 'No agents are configured.';
  const rows = agents.map((a) => `- \`${a.name}\` (${a.kind})${a.description ? ` — ${oneLine(a.description)}` : ''}${a.available ? '' : ` — unavailable: ${a.unavailableReason ?? 'unknown reason'}`}`);
  return `Agents:\n${rows.join('\n')}`;
}
