/**
 * The notes a reply drew on, as a Sources list of `path:line` links: what was attached, what auto
 * context added, and what the kiln tools read or found (only calls that completed). Shared by the
 * chat panel (shown under the reply, saved with the turn) and `hearth ask` (`sources` in `--json`,
 * `path:line` lines after a plain answer).
 *
 * Free of `vscode`, DOM and Node APIs: bundled into the webview too.
 */
import type { AgentEvent } from '../../agents/agentSession';

/** `attachment`, `auto_context`, or the name of the tool that read or found the note. */
export type SourceVia = string;

export interface Source {
  path: string;
  startLine: number;
  endLine: number;
  via: SourceVia;
}

/** A reply lists at most this many sources (a search tool can return dozens). */
export const MAX_SOURCES = 30;

/** Kiln tools whose results name notes, and how to read them. */
const READERS: Record<string, (args: Record<string, unknown>, result: unknown) => { path: unknown; startLine?: unknown; endLine?: unknown }[]> = {
  read_note: (args) => [{ path: args.path, startLine: args.start_line, endLine: args.end_line }],
  read_metadata: (args) => [{ path: args.path }],
  // One result per note ({startLine, endLine}), or per line with chunks: true ({line}).
  text_search: (_args, result) => list(result, 'results').map((m) => ({ path: m.path, startLine: m.startLine ?? m.line, endLine: m.endLine ?? m.line })),
  semantic_search: (_args, result) => list(result, 'results').map((r) => ({ path: r.path, startLine: r.startLine, endLine: r.endLine })),
  property_search: (_args, result) => list(result, 'notes').map((n) => ({ path: n.path })),
};

function list(result: unknown, key: string): Record<string, unknown>[] {
  const value = (result as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
}

const line = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined);

/** Collects sources in order, each note range once. */
export class SourceList {
  private readonly items: Source[] = [];

  get sources(): Source[] {
    return [...this.items];
  }

  add(path: unknown, via: SourceVia, startLine?: unknown, endLine?: unknown): void {
    if (typeof path !== 'string' || !path || this.items.length >= MAX_SOURCES) return;
    const start = line(startLine) ?? 1;
    const end = Math.max(start, line(endLine) ?? start);
    if (this.items.some((s) => s.path === path && s.startLine === start && s.endLine === end)) return;
    this.items.push({ path, startLine: start, endLine: end, via });
  }

  addAttachments(refs: readonly { path: string; startLine?: number; endLine?: number }[], via: SourceVia = 'attachment'): void {
    for (const ref of refs) this.add(ref.path, via, ref.startLine, ref.endLine);
  }

  /** The completed kiln-tool calls among a turn's events (calls folded with their update, or streamed separately). */
  addToolCalls(events: readonly AgentEvent[]): void {
    const calls = new Map<string, { name: string; args: Record<string, unknown>; status: string; result?: string }>();
    for (const event of events) {
      if (event.type === 'tool_call') {
        const args = typeof event.arguments === 'object' && event.arguments !== null ? (event.arguments as Record<string, unknown>) : {};
        const folded = event as { result?: unknown };
        calls.set(event.id, { name: event.name, args, status: event.status, ...(typeof folded.result === 'string' ? { result: folded.result } : {}) });
      } else if (event.type === 'tool_update') {
        const call = calls.get(event.id);
        if (!call) continue;
        call.status = event.status;
        if (event.result !== undefined) call.result = event.result;
      }
    }
    for (const call of calls.values()) {
      const reader = READERS[call.name];
      if (!reader || call.status !== 'completed') continue;
      let parsed: unknown;
      try {
        parsed = call.result ? JSON.parse(call.result) : undefined;
      } catch {
        parsed = undefined; // read_note answers plain text; only search results are JSON
      }
      for (const hit of reader(call.args, parsed)) this.add(hit.path, call.name, hit.startLine, hit.endLine);
    }
  }
}

/** `path:line`, as the Sources list and `hearth ask` print a source (editors and terminals link that form). */
export function formatSource(source: Source): string {
  return `${source.path}:${source.startLine}`;
}
