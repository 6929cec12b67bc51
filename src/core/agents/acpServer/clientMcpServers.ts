/**
 * The MCP servers an ACP client hands `hearth acp` in `session/new` (or `load`/`resume`): Hearth
 * connects to each (stdio, http or sse) with the MCP SDK and offers their tools to the session's
 * internal agent beside the kiln tools and the gateway's, named `server_tool` so two servers (or a
 * server and a kiln tool) never clash. The client's servers are the client's business: one that
 * fails to start, hangs or floods tools costs a log line and a bounded list, never the session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type * as acp from '@agentclientprotocol/sdk';
import { describeError } from '../../errors';
import { AcpError } from '../acp/acpErrors';
import { GATEWAY_SERVER_NAME } from '../acp/connection/gatewayOffer';
import { ProcessTransport } from '../../gateway/processTransport';
import { exposedToolName } from '../../gateway/toolNames';
import type { Logger } from '../../host';
import { resultText, type AgentTool } from '../agentTools';

export const CLIENT_MCP_LIMITS = { servers: 16, toolsPerServer: 200, connectMs: 15_000, callMs: 120_000 } as const;

/** The tools of the client's MCP servers for one session; close() ends every connection (and stdio server). */
export interface ClientMcpTools {
  tools(): readonly AgentTool[];
  close(): Promise<void>;
}

export async function connectClientMcpServers(
  servers: readonly acp.McpServer[] | undefined,
  options: { cwd: string; env: NodeJS.ProcessEnv; log: Logger },
): Promise<ClientMcpTools> {
  const log = options.log.child('client-mcp');
  // Another Hearth offers its own gateway as "hearth": these are the kiln tools `hearth acp` serves itself.
  const list = (servers ?? []).filter((server) => server.name !== GATEWAY_SERVER_NAME).slice(0, CLIENT_MCP_LIMITS.servers);
  if (list.length === CLIENT_MCP_LIMITS.servers && (servers?.length ?? 0) > list.length) log.warn(`the client passed ${servers!.length} MCP servers; only the first ${list.length} are used`);
  const connected = await Promise.all(list.map((server) => connectOne(server, options, log)));
  const clients = connected.filter((c): c is Connected => c !== undefined);
  const tools = clients.flatMap((c) => c.tools);
  return {
    tools: () => tools,
    close: async () => {
      await Promise.all(clients.map((c) => c.client.close().catch(() => undefined)));
    },
  };
}

interface Connected {
  client: Client;
  tools: AgentTool[];
}

async function connectOne(server: acp.McpServer, options: { cwd: string; env: NodeJS.ProcessEnv }, log: Logger): Promise<Connected | undefined> {
  const name = typeof server.name === 'string' && server.name ? server.name.slice(0, 60) : 'mcp';
  const client = new Client({ name: 'hearth-acp', version: '0.1.0' });
  try {
    const transport = transportFor(server, options);
    await withTimeout(client.connect(transport), CLIENT_MCP_LIMITS.connectMs, `connecting to "${name}"`);
    const listed = await withTimeout(client.listTools(), CLIENT_MCP_LIMITS.connectMs, `listing the tools of "${name}"`);
    if (listed.tools.length > CLIENT_MCP_LIMITS.toolsPerServer) log.warn(`"${name}" lists ${listed.tools.length} tools; only the first ${CLIENT_MCP_LIMITS.toolsPerServer} are offered`);
    const tools = listed.tools.slice(0, CLIENT_MCP_LIMITS.toolsPerServer).map((tool): AgentTool => {
      const exposed = exposedToolName(`${name}_`, tool.name);
      return {
        name: exposed,
        ...(tool.title ? { title: tool.title } : {}),
        readOnly: tool.annotations?.readOnlyHint === true,
        definition: { name: exposed, description: tool.description, parameters: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown> },
        async call(args, signal) {
          try {
            const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { ...(signal ? { signal } : {}), timeout: CLIENT_MCP_LIMITS.callMs });
            return { text: resultText(result as Parameters<typeof resultText>[0]), isError: result.isError === true };
          } catch (error) {
            return { text: `Tool failed: ${describeError(error)}`, isError: true };
          }
        },
      };
    });
    log.info(`"${name}": ${tools.length} tools`);
    return { client, tools };
  } catch (error) {
    log.warn(`the client's MCP server "${name}" is left out: ${describeError(error)}`);
    await client.close().catch(() => undefined);
    return undefined;
  }
}

function transportFor(server: acp.McpServer, options: { cwd: string; env: NodeJS.ProcessEnv }): Transport {
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    const url = new URL(server.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AcpError('acp.client_mcp_failed', `not an http(s) URL: ${url.protocol}`);
    const headers = Object.fromEntries((server.headers ?? []).map((h) => [h.name, h.value]));
    return server.type === 'sse' ? new SSEClientTransport(url, { requestInit: { headers } }) : new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  }
  const stdio = server as acp.McpServerStdio;
  if (typeof stdio.command !== 'string' || !stdio.command) throw new AcpError('acp.client_mcp_failed', 'a stdio MCP server without a command');
  const env: NodeJS.ProcessEnv = { ...options.env };
  for (const variable of stdio.env ?? []) env[variable.name] = variable.value;
  return new ProcessTransport({ command: stdio.command, args: Array.isArray(stdio.args) ? stdio.args : [], env, cwd: options.cwd });
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new AcpError('acp.client_mcp_failed', `${what} took longer than ${ms / 1000} s`)), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
