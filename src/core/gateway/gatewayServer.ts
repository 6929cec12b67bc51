import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeError, isHearthError } from '../errors';
import type { ChangeOrigin } from '../changes/changeRecord';
import type { Logger } from '../host';
import type { KilnTool } from '../kiln/tools/kilnTool';
import type { Gateway } from './gateway';
import type { Disposable } from '../lifecycle/disposable';

export interface GatewayServerOptions {
  gateway: Gateway;
  /**
   * Kiln tools served beside the upstreams' (they win a name clash: they are Hearth's own). A
   * function lets the editor swap them when the kiln or `[cli]` settings change without restarting.
   */
  kilnTools: readonly KilnTool[] | (() => readonly KilnTool[]);
  log: Logger;
  version?: string;
}

/** The tools the gateway serves right now: kiln tools, then every ready upstream's tools. */
export function servedTools(options: Pick<GatewayServerOptions, 'gateway' | 'kilnTools'>): Tool[] {
  const kilnTools = kilnToolsOf(options);
  const kilnNames = new Set(kilnTools.map((tool) => tool.name));
  return [...kilnTools.map((tool) => tool.definition), ...options.gateway.tools().filter((tool) => !kilnNames.has(tool.exposedName)).map((tool) => tool.definition)];
}

function kilnToolsOf(options: Pick<GatewayServerOptions, 'kilnTools'>): readonly KilnTool[] {
  return typeof options.kilnTools === 'function' ? options.kilnTools() : options.kilnTools;
}

/**
 * Routes one call. Every failure (unknown tool, upstream down, timeout, upstream error) becomes an
 * `isError` result: a model can read it and try something else, and the client's connection to
 * the gateway never dies because one upstream did.
 */
export async function callServedTool(
  options: GatewayServerOptions,
  name: string,
  args: Record<string, unknown> | undefined,
  signal?: AbortSignal,
  origin?: ChangeOrigin,
): Promise<CallToolResult> {
  const kilnTool = kilnToolsOf(options).find((tool) => tool.name === name);
  if (kilnTool) return kilnTool.call(args ?? {}, signal, origin);
  try {
    return await options.gateway.callTool(name, args, signal);
  } catch (error) {
    if (!isHearthError(error)) options.log.child('gateway').warn(`${name}: ${describeError(error)}`);
    return { content: [{ type: 'text', text: describeError(error) }], isError: true };
  }
}

/**
 * One MCP server session over the gateway. Each connected client gets its own Server (the SDK binds
 * a Server to one transport); all of them share the Gateway and announce tools/list_changed when
 * the aggregated tool set changes. Call `dispose` when the session ends.
 */
export function createGatewayServer(options: GatewayServerOptions): Disposable & { server: Server } {
  const server = new Server(
    { name: 'hearth', title: 'Hearth gateway', version: options.version ?? '0.1.0' },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: 'Hearth: tools for the notes in the kiln (read_note, text_search, semantic_search, …) and the configured upstream tool servers (prefixed names).',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: servedTools(options) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    // Each call of an MCP client is a turn of its own for the change journal (undone as one).
    callServedTool(options, request.params.name, request.params.arguments, extra.signal, { turn: `mcp-${randomUUID()}`, client: server.getClientVersion()?.name }),
  );
  const subscription = options.gateway.onDidChangeTools(() => {
    // Only a connected, initialized client can receive notifications.
    if (server.transport && server.getClientCapabilities()) server.sendToolListChanged().catch(() => {});
  });
  return { server, dispose: () => subscription.dispose() };
}
