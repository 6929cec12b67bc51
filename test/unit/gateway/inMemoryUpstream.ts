// MCP upstreams in the test's own process: each connect attempt gets a fresh McpServer over the
// SDK's InMemoryTransport.createLinkedPair(), so the gateway's supervision (handshake, tool
// listing, reconnect with backoff, error mapping) runs without spawning anything.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer as createEverything } from '@modelcontextprotocol/server-everything/dist/server/index.js';
import type { McpServerConfig } from '../../../src/core/config/schema';
import { configuredTransport, type TransportContext, type UpstreamTransportFactory } from '../../../src/core/gateway/upstreamTransport';
import { createDynamicServer } from './fixtures/dynamicServerTools.mjs';
import { serverConfig } from './helpers';

/** A server for one connection (answering only after `startAfterMs`, if set); `undefined` for one that never answers (a hung start). */
export type ServerMaker = (ctx: TransportContext) => { server: McpServer; cleanup?: () => void; startAfterMs?: number } | undefined;

/** One connection made by the factory: the server's end, and a way to drop it as a crash would. */
export interface InMemoryLink {
  server?: McpServer;
  /** The server goes away: the client's transport closes, as when a process dies. */
  drop(): Promise<void>;
}

/** The real server-everything from npm, in process. */
export const everything: ServerMaker = () => createEverything();
/** The dynamic test server (fixtures/dynamicServerTools.mjs). */
export const dynamic: ServerMaker = () => ({ server: createDynamicServer() });
/** A server that never completes the handshake. */
export const mute: ServerMaker = () => undefined;

/**
 * An UpstreamTransportFactory serving upstreams named in `servers` in process; any other upstream
 * gets its configured transport (a real process, a real HTTP server), as in production.
 * `links` lists every connection per upstream name, so tests see reconnects and can drop them.
 */
export function inMemoryUpstreams(servers: Record<string, ServerMaker>): UpstreamTransportFactory & { links: Map<string, InMemoryLink[]> } {
  const links = new Map<string, InMemoryLink[]>();
  const open: UpstreamTransportFactory = async (config, ctx) => {
    const make = servers[config.name];
    if (!make) return configuredTransport(config, ctx);
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const made = make(ctx);
    if (made) {
      // The server's own timers (server-everything's) end with the connection, however it ends.
      serverSide.onclose = () => made.cleanup?.();
      // Until the server connects, the client's messages wait in the pair's queue, as bytes wait in a pipe.
      if (made.startAfterMs) setTimeout(() => void made.server.connect(serverSide), made.startAfterMs);
      else await made.server.connect(serverSide);
    }
    const link: InMemoryLink = { server: made?.server, drop: () => serverSide.close() };
    links.set(config.name, [...(links.get(config.name) ?? []), link]);
    return client;
  };
  return Object.assign(open, { links });
}

/** An upstream entry for an in-process server (the transport is not used; the name picks the server). */
export function inMemoryConfig(name: string, prefix: string, extra: Record<string, unknown> = {}): McpServerConfig {
  return serverConfig({ name, prefix, transport: { type: 'stdio', command: 'in-process' }, ...extra });
}
