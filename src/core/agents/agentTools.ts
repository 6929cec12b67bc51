/**
 * The tools an internal agent can call, kiln tools and the gateway's upstream tools behind one
 * shape, with what the guard rails need to know: whether a tool only reads (size-aware prompts
 * offer only those; `confirm_destructive` asks before the others).
 */
import picomatch from 'picomatch';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ChangeOrigin } from '../changes/changeRecord';
import { describeError } from '../errors';
import type { GatewayTool } from '../gateway/gateway';
import { ERROR_CODE_META, type KilnTool } from '../kiln/tools/kilnTool';
import type { ToolDefinition } from '../llm/types';

export interface ToolOutcome {
  text: string;
  isError: boolean;
  /** A failed kiln tool's error code (`changes.rejected`: the user rejected the edit in review). */
  code?: string;
}

export interface AgentTool {
  readonly name: string;
  readonly title?: string;
  /** Kiln tools by their own flag; upstream tools only when annotated `readOnlyHint: true`. */
  readonly readOnly: boolean;
  readonly definition: ToolDefinition;
  /** Never throws: failures are outcomes the model can read. */
  /** The tool shows its change to the user for review itself, so the loop's permission prompt is skipped. */
  readonly reviewed?: boolean;
  /** `origin` says which turn of which agent calls, so the change journal can group its edits. */
  call(args: Record<string, unknown>, signal?: AbortSignal, origin?: ChangeOrigin): Promise<ToolOutcome>;
}

/** What the agent needs of the gateway: its served tools and a way to call them. */
export type GatewayToolSource = { tools(): GatewayTool[]; callTool(name: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<CallToolResult> };

/** A tool result bigger than this is cut: one huge answer must not push the conversation out of the context window. */
export const MAX_TOOL_RESULT_CHARS = 40_000;

export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) parts.push(String(block.resource.text));
    else if (block.type === 'resource_link') parts.push(`[resource ${block.uri}]`);
    else parts.push(`[${block.type} content omitted]`);
  }
  if (parts.length === 0 && result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join('\n');
  return text.length > MAX_TOOL_RESULT_CHARS ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[… cut at ${MAX_TOOL_RESULT_CHARS} characters]` : text;
}

function definitionOf(tool: Tool, name: string): ToolDefinition {
  return { name, description: tool.description, parameters: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown> };
}

export function fromKilnTool(tool: KilnTool, reviewed = false): AgentTool {
  return {
    name: tool.name,
    reviewed,
    title: tool.definition.title,
    readOnly: tool.readOnly,
    definition: definitionOf(tool.definition, tool.name),
    async call(args, signal, origin) {
      const result = await tool.call(args, signal, origin);
      const code = result._meta?.[ERROR_CODE_META];
      return { text: resultText(result), isError: result.isError === true, ...(typeof code === 'string' ? { code } : {}) };
    },
  };
}

export function fromGatewayTool(tool: GatewayTool, gateway: GatewayToolSource): AgentTool {
  return {
    name: tool.exposedName,
    title: tool.definition.title ?? tool.definition.annotations?.title,
    readOnly: tool.definition.annotations?.readOnlyHint === true,
    definition: definitionOf(tool.definition, tool.exposedName),
    async call(args, signal) {
      try {
        const result = await gateway.callTool(tool.exposedName, args, signal);
        return { text: resultText(result), isError: result.isError === true };
      } catch (error) {
        // A server that is down or timed out is something the model can work around; tell it.
        return { text: `Tool failed: ${describeError(error)}`, isError: true };
      }
    },
  };
}

export interface ToolFilter {
  /** A card's `tools` globs over tool names; undefined: every tool. */
  globs?: readonly string[];
  /** Size-aware prompts for a small model: read-only tools only. */
  readOnlyOnly?: boolean;
}

export function filterTools(tools: readonly AgentTool[], filter: ToolFilter): AgentTool[] {
  const matches = filter.globs ? picomatch([...filter.globs]) : () => true;
  return tools.filter((tool) => matches(tool.name) && (!filter.readOnlyOnly || tool.readOnly));
}
