/**
 * One agent turn in the terminal (`hearth ask --agent NAME`): the answer streams to stdout, tool
 * activity, plans and errors go to stderr (so stdout stays the answer), and `--json` prints the
 * whole turn at the end instead. Ctrl-C cancels the turn; the exit code says how it ended.
 */
import type { AgentEvent, AgentSession, ContextUsage, PromptAttachment } from '../core/agents/agentSession';
import { RecordedSession } from '../core/agents/transcripts';
import { formatSource, SourceList, type Source } from '../core/chat/context/sources';
import type { Usage } from '../core/llm/types';

/** `hearth ask --agent`'s exit code when an edit the agent asked for was rejected or denied (the turn itself ended well). */
export const EXIT_NOT_APPLIED = 4;

export interface TurnOutput {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  json: boolean;
  /** Sections auto context attached (listed with `via: "auto_context"`). */
  contextSources?: { path: string; startLine?: number; endLine?: number }[];
  /** An external agent's session: its id (for `--resume ID`) and how it was opened. */
  session?: { id: string; how: 'new' | 'resumed' | 'loaded'; reason?: string };
}

/** The Sources block after a plain answer: one `path:line` per line. */
export function formatSourcesForTerminal(sources: readonly Source[]): string {
  return `\nSources:\n${sources.map((s) => `  ${formatSource(s)}`).join('\n')}\n`;
}

interface ToolRecord {
  id: string;
  name: string;
  arguments?: unknown;
  status: string;
  result?: string;
}

const oneLine = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export async function runAgentTurn(session: AgentSession, prompt: string, attachments: PromptAttachment[], out: TurnOutput): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    out.stderr.write('\nhearth: cancelling… (press Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  let message = '';
  let usage: Usage | undefined;
  let context: ContextUsage | undefined;
  let stopReason = 'end_turn';
  const tools = new Map<string, ToolRecord>();
  const seen: AgentEvent[] = [];
  const errors: { code: string; message: string; remedy?: string }[] = [];
  /** Edits the agent asked for that were rejected in review or denied: the exit code says so (4). */
  let notApplied = 0;
  const stderrLine = (text: string) => {
    // Tool lines between answer chunks start on a line of their own (`Updating Basil.` then `→ Update
    // note`), in a terminal and where both streams go to one file or pipe.
    if (!out.json && message && !message.endsWith('\n')) {
      out.stdout.write('\n');
      message += '\n';
    }
    out.stderr.write(text + '\n');
  };
  const handle = (event: AgentEvent) => {
    seen.push(event);
    switch (event.type) {
      case 'text':
        message += event.text;
        if (!out.json) out.stdout.write(event.text);
        break;
      case 'tool_call': {
        const record = { id: event.id, name: event.name, arguments: event.arguments, status: event.status };
        tools.set(event.id, record);
        if (!out.json) stderrLine(`→ ${event.title ?? event.name}${event.arguments !== undefined ? ` ${oneLine(JSON.stringify(event.arguments), 120)}` : ''}`);
        break;
      }
      case 'tool_update': {
        const record = tools.get(event.id) ?? { id: event.id, name: event.id, status: event.status };
        record.status = event.status;
        if (event.result !== undefined) record.result = event.result;
        tools.set(event.id, record);
        if (out.json || event.status === 'in_progress' || event.status === 'pending') break;
        if (event.status === 'denied' || event.code === 'changes.rejected') notApplied++;
        const mark = event.status === 'completed' ? '✓' : event.status === 'denied' ? '⊘ denied' : event.code === 'changes.rejected' ? '⊘ rejected' : '✗ failed';
        stderrLine(`  ${mark} ${record.name}${event.status !== 'completed' && event.result ? `: ${oneLine(event.result)}` : ''}`);
        break;
      }
      case 'plan':
        if (!out.json) stderrLine(`plan:\n${event.entries.map((e) => `  [${e.status === 'completed' ? 'x' : e.status === 'in_progress' ? '~' : ' '}] ${e.content}`).join('\n')}`);
        break;
      case 'usage':
        if (event.usage) usage = { inputTokens: (usage?.inputTokens ?? 0) + event.usage.inputTokens, outputTokens: (usage?.outputTokens ?? 0) + event.usage.outputTokens };
        // The context window is a level, not an increment: the last report stands.
        if (event.context) context = event.context;
        break;
      case 'error':
        errors.push({ code: event.code, message: event.message, ...(event.remedy ? { remedy: event.remedy } : {}) });
        if (!out.json) stderrLine(`hearth ask: ${event.message}${event.remedy ? `\n  ${event.remedy}` : ''}`);
        break;
      case 'done':
        stopReason = event.stopReason;
        break;
      case 'terminal':
        // The command once when it starts and how it ended; its output is the agent's to report.
        if (!out.json && !event.exit && !tools.has(event.id)) {
          tools.set(event.id, { id: event.id, name: 'terminal', arguments: event.command, status: 'in_progress' });
          stderrLine(`$ ${event.command}`);
        } else if (!out.json && event.exit && tools.get(event.id)?.status !== 'completed') {
          tools.set(event.id, { id: event.id, name: 'terminal', arguments: event.command, status: 'completed', result: event.output });
          stderrLine(`  exit ${event.exit.code ?? event.exit.signal}`);
        }
        break;
      case 'thought':
        break;
    }
  };
  try {
    for await (const event of session.prompt(prompt, attachments, controller.signal)) handle(event);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  const sourceList = new SourceList();
  sourceList.addAttachments(out.contextSources ?? [], 'auto_context');
  sourceList.addAttachments(attachments.filter((a) => !(out.contextSources ?? []).some((c) => c.path === a.path && c.startLine === a.startLine)));
  sourceList.addToolCalls(seen);
  const sources = sourceList.sources;
  if (out.json) {
    const transcript = session instanceof RecordedSession ? session.transcriptId : null;
    out.stdout.write(JSON.stringify({ agent: session.agent.name, kind: session.agent.kind, message, toolCalls: [...tools.values()], sources, usage: usage ?? null, ...(context ? { context } : {}), stopReason, errors, transcript, ...(out.session ? { session: out.session } : {}) }, null, 2) + '\n');
  } else {
    if (message && !message.endsWith('\n')) out.stdout.write('\n');
    if (sources.length > 0) out.stdout.write(formatSourcesForTerminal(sources));
  }
  return stopReason === 'cancelled' ? 130 : stopReason === 'error' ? 1 : notApplied > 0 ? EXIT_NOT_APPLIED : 0;
}
