import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { serveCatalog } from './gatewayCatalog';
import { gatewayPeer } from './gatewayPeer';
import { progressRelay } from './progressRelay';
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
 * Routes one call. A name nobody serves is the caller's mistake: JSON-RPC −32602, as the MCP spec
 * says. Every failure of a served tool (upstream down, timeout, upstream error) becomes an
 * `isError` result: a model can read it and try something else, and the client's connection to
 * the gateway never dies because one upstream did.
 */
export async function callServedTool(
  options: GatewayServerOptions,
  name: string,
  args: Record<string, unknown> | undefined,
  signal?: AbortSignal,
  origin?: ChangeOrigin,
  onprogress?: (progress: Progress) => void,
): Promise<CallToolResult> {
  const kilnTool = kilnToolsOf(options).find((tool) => tool.name === name);
  if (kilnTool) return kilnTool.call(args ?? {}, signal, origin);
  if (!options.gateway.hasTool(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: no tool named "${name}" is served by the Hearth gateway`);
  try {
    return await options.gateway.callTool(name, args, signal, onprogress);
  } catch (error) {
    if (!isHearthError(error)) options.log.child('gateway').warn(`${name}: ${describeError(error)}`);
    return { content: [{ type: 'text', text: describeError(error) }], isError: true };
  }
}

/**
 * One MCP server session over the gateway. Each connected client gets its own Server (the SDK binds
 * a Server to one transport); all of them share the Gateway and announce tools/list_changed when
 * the aggregated tool set changes. The session relays what passes between its client and the
 * upstreams: progress, log messages and their level, cancellation, elicitation and sampling.
 * Call `dispose` when the session ends.
 */
export function createGatewayServer(options: GatewayServerOptions): Disposable & { server: Server } {
  const server = new Server(
    { name: 'hearth', title: 'Hearth gateway', version: options.version ?? '0.1.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
      instructions: 'Hearth: tools for the notes in the kiln (read_note, text_search, semantic_search, …) and the configured upstream tool servers (prefixed names).',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: servedTools(options) }));
  const busy = new Map<string, number>();
  const peer = gatewayPeer(server, busy);
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    peer.setLevel(request.params.level);
    await options.gateway.setLogLevel(request.params.level);
    return {};
  });
  // A client's roots changed (a folder opened): every upstream that may have asked hears of it.
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => options.gateway.rootsChanged());
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args, _meta } = request.params;
    const token = _meta?.progressToken;
    const progress =
      token === undefined ? undefined : progressRelay((update) => extra.sendNotification({ method: 'notifications/progress', params: { ...update, progressToken: token } }));
    const upstream = options.gateway.upstreamOfTool(name);
    if (upstream) busy.set(upstream, (busy.get(upstream) ?? 0) + 1);
    try {
      // Each call of an MCP client is a turn of its own for the change journal (undone as one).
      return await callServedTool(options, name, args, extra.signal, { turn: `mcp-${randomUUID()}`, client: server.getClientVersion()?.name }, progress?.onprogress);
    } finally {
      await progress?.end();
      if (upstream) busy.set(upstream, (busy.get(upstream) ?? 1) - 1);
    }
  });
  const subscriptions = [
    options.gateway.onDidChangeTools(() => {
      // Only a connected, initialized client can receive notifications.
      if (server.transport && server.getClientCapabilities()) server.sendToolListChanged().catch(() => {});
    }),
    options.gateway.clients.attach(peer),
    serveCatalog(server, options.gateway, () => kilnToolsOf(options)),
  ];
  return { server, dispose: () => subscriptions.forEach((subscription) => void subscription.dispose()) };
}
