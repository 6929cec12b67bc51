import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig, TransportConfig } from '../config/schema';
import type { Redactor } from '../logging/redactor';
import { boundedFetch } from './boundedFetch';
import { UpstreamOAuthProvider } from './oauth/oauthProvider';
import type { OAuthStore } from './oauth/oauthStore';
import { ProcessTransport, type UpstreamStreamError } from './processTransport';

/** Resolves `{env:VAR}` / `{secret:NAME}` references in config values (config/resolveSecret.ts). */
export type SecretResolver = (value: string) => Promise<string | undefined>;

export interface TransportContext {
  /** The environment a stdio server inherits (before its own `env` table is applied). */
  env: NodeJS.ProcessEnv;
  resolveSecret: SecretResolver;
  cwd?: string;
  /** How long a stdio server gets to exit after its stdin closes, and again after SIGTERM. */
  stopGraceMs?: number;
  onStderrLine?: (line: string) => void;
  /** The largest message a server may send (`max_message_mb` in bytes). */
  maxMessageBytes?: number;
  /** A remote server sent a message over `maxMessageBytes` (a stdio one reports it as its transport's `broken`). */
  onTooLarge?: (bytes: number) => void;
  /** A reference in `env` that resolved to nothing (the variable is left unset). */
  onUnresolved?: (key: string, reference: string) => void;
  /** Where OAuth tokens are kept; http/sse upstreams without `auth_header` sign in with OAuth when given. */
  oauth?: { store: OAuthStore; redactor?: Redactor };
  /** The upstream's name (its OAuth record is keyed by it). */
  name?: string;
}

/**
 * One upstream connection: the SDK's Transport, plus what a process-backed one can also tell.
 * Every extra is optional, so any SDK transport (InMemoryTransport in tests) is one.
 */
export interface UpstreamConnection extends Transport {
  /** Why the stream was given up on (a message over max_message_mb, non-JSON output), when it was. */
  readonly broken?: UpstreamStreamError;
  /** The tail of the server's stderr, to explain a failed start. */
  readonly stderr?: string;
  /** Synchronous, for exit handlers: ends the server's whole tree without waiting. */
  killNow?(signal?: NodeJS.Signals): void;
}

/**
 * Opens one connection to an upstream, per connect attempt (reconnects call it again). Production
 * uses `createUpstreamTransport`; tests inject in-process servers. A factory that reads bytes
 * honours `ctx.maxMessageBytes` and reports an oversized message through `ctx.onTooLarge` (or `broken`).
 */
export type UpstreamTransportFactory = (server: McpServerConfig, ctx: TransportContext) => Promise<UpstreamConnection>;

/** The production factory: the entry's configured transport. */
export const configuredTransport: UpstreamTransportFactory = (server, ctx) => createUpstreamTransport(server.transport, { ...ctx, name: ctx.name ?? server.name });

/**
 * Builds the SDK transport for one upstream. References in `env` and `auth_header` are resolved
 * at connect time, so a rotated key is picked up by the next reconnect.
 */
export async function createUpstreamTransport(config: TransportConfig, ctx: TransportContext): Promise<UpstreamConnection> {
  switch (config.type) {
    case 'stdio': {
      const env: NodeJS.ProcessEnv = { ...ctx.env };
      for (const [key, value] of Object.entries(config.env)) {
        // In an env table a bare upper-case word ("DEBUG") is a value, not a variable name: only
        // explicit {env:}/{secret:} references are resolved here.
        if (!/^\s*\{(env|secret):[^}]+\}\s*$/.test(value)) {
          env[key] = value;
          continue;
        }
        const resolved = await ctx.resolveSecret(value);
        if (resolved !== undefined) env[key] = resolved;
        else ctx.onUnresolved?.(key, value);
      }
      return new ProcessTransport({
        command: config.command, args: config.args, env, cwd: ctx.cwd, graceMs: ctx.stopGraceMs, onStderrLine: ctx.onStderrLine, maxMessageBytes: ctx.maxMessageBytes,
      });
    }
    case 'sse':
    case 'http': {
      const headers: Record<string, string> = {};
      if (config.auth_header !== undefined) {
        const value = await resolveEmbedded(config.auth_header, ctx.resolveSecret);
        if (value) headers.Authorization = value;
      }
      const url = new URL(config.url);
      const requestInit: RequestInit = { headers };
      const fetch = ctx.maxMessageBytes ? boundedFetch(ctx.maxMessageBytes, (bytes) => ctx.onTooLarge?.(bytes)) : undefined;
      // `auth_header` keeps working as before; without it the SDK answers a 401 with OAuth (stored tokens, refresh).
      const authProvider =
        config.auth_header === undefined && ctx.oauth
          ? new UpstreamOAuthProvider(
              { name: ctx.name ?? url.host, url: config.url, clientId: config.oauth_client_id, scopes: config.oauth_scopes },
              ctx.oauth.store,
              { redactor: ctx.oauth.redactor },
            )
          : undefined;
      return config.type === 'sse' ? new SSEClientTransport(url, { requestInit, fetch, authProvider }) : new StreamableHTTPClientTransport(url, { requestInit, fetch, authProvider });
    }
  }
}

const EMBEDDED_REF = /\{(?:env|secret):[^}]+\}/g;

/**
 * Resolves a header value that is a reference (`{env:TOKEN}`, a bare `TOKEN`) or contains them
 * (`Bearer {env:TOKEN}`, the usual way to write an Authorization header). Undefined when a
 * reference is unset, so no half-filled header is ever sent.
 */
export async function resolveEmbedded(value: string, resolve: SecretResolver): Promise<string | undefined> {
  const refs = value.match(EMBEDDED_REF) ?? [];
  if (refs.length === 0 || (refs.length === 1 && refs[0] === value.trim())) return resolve(value);
  let result = value;
  for (const ref of refs) {
    const resolved = await resolve(ref);
    if (resolved === undefined) return undefined;
    result = result.replace(ref, () => resolved);
  }
  return result;
}
