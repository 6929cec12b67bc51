import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../host';
import type { Redactor } from '../logging/redactor';
import type { BackoffOptions } from './backoff';
import type { ClientRelay } from './clientRelay';
import type { GatewayErrorCode } from './gatewayErrors';
import type { OAuthStore } from './oauth/oauthStore';
import type { SecretResolver, UpstreamTransportFactory } from './upstreamTransport';

/** Where an upstream stands; hosts show this (status bar, "Show Tool Servers", `hearth tools`). */
export type UpstreamState =
  | { kind: 'connecting' }
  | { kind: 'ready'; toolCount: number }
  /** `nextRetryAt` (epoch ms) is absent when no retry will happen (auto_reconnect off, or stopped). */
  | { kind: 'down'; error: string; code: GatewayErrorCode; nextRetryAt?: number }
  | { kind: 'stopped' };

/** One upstream tool as the gateway exposes it: `definition.name` is the exposed (prefixed) name. */
export interface UpstreamTool {
  exposedName: string;
  originalName: string;
  definition: Tool;
}

export interface UpstreamOptions {
  log: Logger;
  resolveSecret: SecretResolver;
  /** Environment inherited by stdio servers. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  backoff?: BackoffOptions;
  /** How often remote (sse/http) upstreams are pinged to notice a silent drop; 0 disables. */
  pingIntervalMs?: number;
  /** How long a stdio server gets to exit after its stdin closes (then SIGTERM, then SIGKILL). */
  stopGraceMs?: number;
  /** Bound on the initialize handshake; defaults to the server's timeout_secs, but at least 30 s. */
  handshakeTimeoutMs?: number;
  /** Scrubs an upstream's own error text (and stderr) before it becomes a message, a state or a log line. */
  redactor?: Redactor;
  /** Opens each connection; the entry's configured transport unless injected (tests run servers in-process). */
  transport?: UpstreamTransportFactory;
  /** Where the upstream's elicitation, sampling and log messages go (the gateway's clients). */
  relay?: ClientRelay;
  /** Where OAuth tokens of http/sse upstreams are kept (editor: secret storage; CLI: a 0600 file). */
  oauthStore?: OAuthStore;
}

/**
 * What an upstream said changed in its catalog: its resource or prompt list (list_changed), or one
 * resource a client subscribed to (`notifications/resources/updated`).
 */
export type CatalogChange = 'resources' | 'prompts' | { updated: string };
