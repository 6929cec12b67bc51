/**
 * The kiln tools as VS Code language model tools (DESIGN.md decision 22): named
 * `hearth_<kiln tool name>`, contributed in package.json (`contributes.languageModelTools`, which
 * must match the tools' own definitions: editorTools.test.ts checks it), described before they run
 * (writing tools ask in `prepareInvocation`), and called exactly as the internal agents call them —
 * through the write gate, protected paths, review and change journal of the kiln tool context.
 * Free of `vscode`: src/vscode/tools/ registers these.
 */
import type { ChangeOrigin } from '../../changes/changeRecord';
import type { KilnTool } from './kilnTool';

export const EDITOR_TOOL_PREFIX = 'hearth_';
/** Arguments larger than this (as JSON) are refused before the tool sees them. */
export const MAX_EDITOR_TOOL_ARGS_CHARS = 2_000_000;
/** A string argument longer than this is shown in a confirmation by its size, not its text. */
const LONG_VALUE = 120;

export function editorToolName(kilnTool: string): string {
  return `${EDITOR_TOOL_PREFIX}${kilnTool}`;
}

/** The kiln tool an editor tool name stands for; undefined for a name without the prefix. */
export function kilnToolOf(editorName: string): string | undefined {
  return editorName.startsWith(EDITOR_TOOL_PREFIX) && editorName.length > EDITOR_TOOL_PREFIX.length ? editorName.slice(EDITOR_TOOL_PREFIX.length) : undefined;
}

/** One `contributes.languageModelTools` entry, as package.json must hold it for `tool`. */
export interface EditorToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  userDescription: string;
  modelDescription: string;
  tags: string[];
  inputSchema: Record<string, unknown>;
}

export function editorToolContribution(tool: KilnTool): EditorToolContribution {
  const { definition } = tool;
  return {
    name: editorToolName(tool.name),
    displayName: `Hearth: ${definition.title ?? tool.name}`,
    toolReferenceName: editorToolName(tool.name),
    canBeReferencedInPrompt: true,
    userDescription: definition.description ?? tool.name,
    modelDescription: definition.description ?? tool.name,
    tags: ['hearth', 'notes', tool.readOnly ? 'read' : 'write'],
    inputSchema: definition.inputSchema as Record<string, unknown>,
  };
}

/** A value from the model shown inside a code span (it cannot close the span or add markup). */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  const cut = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return `\`${cut.replace(/[`\r\n]/g, ' ')}\``;
}

export interface ToolInvocationText {
  /** Shown while the tool runs. */
  invocation: string;
  /** For writing tools: what the user confirms before it runs (markdown). */
  confirm?: { title: string; message: string };
}

/** What the editor shows about a call before it runs; writing tools always ask. */
export function describeInvocation(tool: KilnTool, args: unknown): ToolInvocationText {
  const input = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const target = input.path ?? input.from ?? input.folder ?? input.query;
  const title = tool.definition.title ?? tool.name;
  const invocation = `${title}${target !== undefined ? ` ${shown(target)}` : ''}`;
  if (tool.readOnly) return { invocation };
  const details = Object.entries(input)
    .filter(([key]) => key !== 'path')
    // A destination path reads as itself; a note's content only as its size.
    .map(([key, value]) => `- ${key}: ${typeof value === 'string' && value.length > LONG_VALUE ? `${value.length.toLocaleString('en-US')} characters` : shown(value)}`);
  return {
    invocation,
    confirm: {
      title: `Hearth: ${title}`,
      message: [
        `${title} ${shown(input.path ?? target ?? '')} in the kiln.`,
        ...(details.length > 0 ? ['', ...details] : []),
        '',
        'Hearth shows the change as a diff to accept or reject (as `[chat].review_edits` says) and journals it: "Hearth: Undo Last Agent Change" reverts it.',
      ].join('\n'),
    },
  };
}

/** Calls a kiln tool for the editor; the result's text, and whether it failed (the model reads either). */
export async function callFromEditor(tool: KilnTool, args: unknown, signal: AbortSignal | undefined, origin: ChangeOrigin): Promise<{ text: string; isError: boolean }> {
  let size: number;
  try {
    size = JSON.stringify(args ?? {}).length;
  } catch {
    return { text: `Invalid arguments for ${tool.name}: not JSON`, isError: true };
  }
  if (size > MAX_EDITOR_TOOL_ARGS_CHARS) {
    return { text: `Invalid arguments for ${tool.name}: ${size.toLocaleString('en-US')} characters of arguments (at most ${MAX_EDITOR_TOOL_ARGS_CHARS.toLocaleString('en-US')})`, isError: true };
  }
  const result = await tool.call(args ?? {}, signal, origin);
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  return { text, isError: result.isError === true };
}
