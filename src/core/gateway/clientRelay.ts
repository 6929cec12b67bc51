import {
  ErrorCode,
  McpError,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type ListRootsResult,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { toDisposable, type Disposable } from '../lifecycle/disposable';

/** One client session of the gateway, as upstreams reach it: what it can answer, and how to ask it. */
export interface GatewayPeer {
  canElicit(): boolean;
  canSample(): boolean;
  canListRoots(): boolean;
  /** Whether this session has a tool call running on `upstream` (its questions most likely belong to it). */
  busyWith(upstream: string): boolean;
  elicit(upstream: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  sample(upstream: string, params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
  listRoots(upstream: string, signal: AbortSignal): Promise<ListRootsResult>;
  log(upstream: string, params: LoggingMessageNotification['params']): void;
}

/**
 * Carries what upstream servers ask of the gateway's clients (elicitation, sampling, roots) and what they
 * tell them (log messages). An upstream connects long before any client does, so its client
 * declares both capabilities; a request no connected client can answer gets −32601, as an MCP
 * client without the capability would answer.
 */
export class ClientRelay {
  private readonly peers = new Set<GatewayPeer>();

  attach(peer: GatewayPeer): Disposable {
    this.peers.add(peer);
    return toDisposable(() => void this.peers.delete(peer));
  }

  async elicit(upstream: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const peer = this.pick(upstream, (candidate) => candidate.canElicit());
    if (!peer) throw unsupported('elicitation/create', upstream);
    return withDefaults(params, await peer.elicit(upstream, params, signal));
  }

  sample(upstream: string, params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult> {
    const peer = this.pick(upstream, (candidate) => candidate.canSample());
    if (!peer) throw unsupported('sampling/createMessage', upstream);
    return peer.sample(upstream, params, signal);
  }

  /** The roots of the client calling `upstream` (else of any client that has them): where the user's files are. */
  listRoots(upstream: string, signal: AbortSignal): Promise<ListRootsResult> {
    const peer = this.pick(upstream, (candidate) => candidate.canListRoots());
    if (!peer) throw unsupported('roots/list', upstream);
    return peer.listRoots(upstream, signal);
  }

  log(upstream: string, params: LoggingMessageNotification['params']): void {
    for (const peer of this.peers) peer.log(upstream, params);
  }

  /** The session calling a tool of `upstream` first: the question is about its call. */
  private pick(upstream: string, able: (peer: GatewayPeer) => boolean): GatewayPeer | undefined {
    const candidates = [...this.peers].filter(able);
    return candidates.find((peer) => peer.busyWith(upstream)) ?? candidates[0];
  }
}

function unsupported(method: string, upstream: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `${method} from upstream "${upstream}": no client connected to the Hearth gateway supports it`);
}

/**
 * An accepted form answers every field the user left alone with the schema's `default` (SEP-1034:
 * the form showed it pre-filled), so the upstream never sees an accepted answer missing a field
 * it offered a value for, whichever client answered.
 */
export function withDefaults(params: ElicitRequest['params'], answer: ElicitResult): ElicitResult {
  if (answer.action !== 'accept' || !('requestedSchema' in params) || !params.requestedSchema) return answer;
  const content = { ...(answer.content ?? {}) };
  for (const [name, field] of Object.entries(params.requestedSchema.properties)) {
    const fallback = (field as { default?: unknown }).default;
    if (content[name] === undefined && fallback !== undefined) content[name] = fallback as (typeof content)[string];
  }
  return { ...answer, content };
}
