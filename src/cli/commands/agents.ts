/**
 * `hearth agents [--json]`: the internal agents (the built-in `kiln` and the cards, with where each
 * came from) and the external ACP agents (discovered and profiles, with availability and why not),
 * the agent a new conversation starts with, and cards that could not be loaded.
 */
import { relative } from 'node:path';
import type { AgentDescriptor } from '../../core/agents/agentSession';
import { COMMON_HELP, parseCommandLine, UsageError } from '../cliContext';
import { createAgentContext } from '../agentContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth agents [--history | --sessions NAME] [--json] [--workspace DIR]

Lists the internal agents (the built-in "kiln" agent and agent cards) and the external ACP agents
(discovered on PATH and [acp.agents.NAME] profiles) with their availability, and the default agent.
Cards that could not be loaded are reported with file and reason.

      --history        list the recorded conversations (.hearth/transcripts) instead, newest first
      --sessions NAME  list the external agent NAME's own saved sessions in this folder (session/list),
                       newest first; continue one with hearth ask --agent NAME --resume ID
      --json           print {default, agents, problems} (with --history: the transcript list; with
                       --sessions: {agent, sessions: [{sessionId, cwd, title, updatedAt}]})
${COMMON_HELP}
`;

interface AgentRow extends AgentDescriptor {
  source?: string;
  model?: string;
  tools?: string[];
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandLine('agents', argv, { json: { type: 'boolean' }, history: { type: 'boolean' }, sessions: { type: 'string' } });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const ctx = await createAgentContext(io, values, { startGateway: false });
  try {
    const { catalog, workspaceRoot } = ctx;
    if (values.sessions !== undefined) {
      if (!values.sessions.trim()) throw new UsageError('--sessions needs an agent name (see hearth agents)');
      const sessions = [...(await catalog.listSessions(values.sessions, workspaceRoot))].sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
      if (values.json) io.stdout.write(JSON.stringify({ agent: values.sessions, sessions }, null, 2) + '\n');
      else if (sessions.length === 0) io.stdout.write(`${values.sessions} has no saved sessions in ${workspaceRoot}.\n`);
      else for (const s of sessions) io.stdout.write(`${(s.updatedAt ?? '').slice(0, 16).replace('T', ' ').padEnd(16)}  ${s.title ?? '(untitled)'}\n    ${s.sessionId}\n`);
      return 0;
    }
    if (values.history) {
      const transcripts = (await catalog.transcripts?.list()) ?? [];
      if (values.json) io.stdout.write(JSON.stringify(transcripts, null, 2) + '\n');
      else if (transcripts.length === 0) io.stdout.write('No conversations recorded yet.\n');
      else for (const t of transcripts) io.stdout.write(`${t.updatedAt.slice(0, 16).replace('T', ' ')}  ${t.agent.padEnd(12)} ${String(t.prompts).padStart(3)} prompt(s)  ${t.title}\n    ${t.id}\n`);
      return 0;
    }
    const [agents, cards, problems, defaultAgent] = await Promise.all([catalog.list(), catalog.cards(), catalog.cardProblems(), catalog.defaultAgent()]);
    const byName = new Map(cards.map((card) => [card.name, card]));
    const rows: AgentRow[] = agents.map((agent) => {
      const card = agent.kind === 'internal' ? byName.get(agent.name) : undefined;
      return card ? { ...agent, source: card.source, ...(card.model ? { model: card.model } : {}), ...(card.tools ? { tools: card.tools } : {}) } : agent;
    });
    if (values.json) {
      io.stdout.write(JSON.stringify({ default: defaultAgent, agents: rows, problems }, null, 2) + '\n');
      return 0;
    }
    const show = (path: string) => (path === 'builtin' ? 'built-in' : relative(workspaceRoot, path).startsWith('..') ? path : relative(workspaceRoot, path));
    const width = Math.max(8, ...rows.map((row) => row.name.length)) + 2;
    const lines: string[] = ['Internal agents:'];
    for (const row of rows.filter((r) => r.kind === 'internal')) {
      const extras = [row.model && `model ${row.model}`, row.tools && `tools ${row.tools.join(', ')}`].filter(Boolean).join('; ');
      lines.push(`  ${row.name.padEnd(width)}${row.description ?? ''}  [${show(row.source ?? '')}]${extras ? `  (${extras})` : ''}`);
    }
    const external = rows.filter((r) => r.kind === 'external');
    lines.push('', 'External agents (ACP):');
    if (external.length === 0) lines.push('  none (discovery is off and no [acp.agents.NAME] profiles are configured)');
    for (const row of external) {
      const state = row.available ? 'available' : `not available: ${row.unavailableReason ?? 'unknown reason'}`;
      lines.push(`  ${row.name.padEnd(width)}${state}${row.description ? `  — ${row.description}` : ''}`);
    }
    lines.push('', `Default: ${defaultAgent}`);
    if (problems.length > 0) {
      lines.push('', 'Cards not loaded:');
      for (const problem of problems) lines.push(`  ${show(problem.file)}: ${problem.reason}`);
    }
    io.stdout.write(lines.join('\n') + '\n');
    return 0;
  } finally {
    await ctx.dispose();
  }
}
