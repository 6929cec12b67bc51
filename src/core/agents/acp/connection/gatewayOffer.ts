import type { McpServer } from '@agentclientprotocol/sdk';

/**
 * How the host offers Hearth's MCP gateway to external agents in `session/new` (DESIGN.md §10):
 * the `hearth gateway` command over stdio (the agent spawns it), and, inside the editor, the
 * gateway already served on loopback, used when the agent says it speaks MCP over HTTP.
 */
export interface GatewayOffer {
  stdio?: { command: string; args: string[]; env?: Record<string, string> };
  http?: { url: string; token: string };
}

export const GATEWAY_SERVER_NAME = 'hearth';

/** The stdio offer for the `hearth` CLI bundle at `cliPath`, serving the given workspace. */
export function hearthGatewayStdio(cliPath: string, workspace: string): NonNullable<GatewayOffer['stdio']> {
  // Inside the editor process.execPath is Electron; this makes it behave as plain node.
  const env = process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : undefined;
  // External agents start only in trusted folders (DESIGN.md decision 14), so the gateway they
  // spawn serves the workspace trusted: the host already decided, and the CLI's list is separate.
  return { command: process.execPath, args: [cliPath, 'gateway', '--workspace', workspace, '--trust'], ...(env ? { env } : {}) };
}

/** The MCP servers for `session/new`: HTTP when both sides can, else stdio, else none. */
export function gatewayServers(offer: GatewayOffer | undefined, agentSupportsHttp: boolean): McpServer[] {
  if (!offer) return [];
  if (offer.http && agentSupportsHttp) {
    return [{ type: 'http', name: GATEWAY_SERVER_NAME, url: offer.http.url, headers: [{ name: 'Authorization', value: `Bearer ${offer.http.token}` }] }];
  }
  if (offer.stdio) {
    const env = Object.entries(offer.stdio.env ?? {}).map(([name, value]) => ({ name, value }));
    return [{ name: GATEWAY_SERVER_NAME, command: offer.stdio.command, args: offer.stdio.args, env }];
  }
  return [];
}
