import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Disposable } from '../lifecycle/disposable';
import type { Gateway } from './gateway';
import { resourceNotFound, upstreamOfResource } from './upstreamCatalog';

/** A client cannot make the gateway hold more subscriptions than this (each is a set entry and an upstream's). */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 1000;

/**
 * resources/subscribe and resources/unsubscribe on one gateway session. A subscription goes to the
 * upstream that serves the URI, once however many sessions ask (the gateway counts them), and is
 * given up there when the last session leaves; the upstream's `notifications/resources/updated`
 * reaches the sessions subscribed to that URI. The kiln's own notes send no updates, so
 * subscribing to one is refused rather than accepted and never honoured.
 */
export function serveSubscriptions(server: Server, gateway: Gateway, isKilnUri: (uri: string) => boolean): Disposable {
  const mine = new Set<string>();
  const release = (uri: string) => {
    if (!mine.delete(uri)) return;
    const left = (gateway.resourceSubscribers.get(uri) ?? 1) - 1;
    if (left > 0) return void gateway.resourceSubscribers.set(uri, left);
    gateway.resourceSubscribers.delete(uri);
    void upstreamOfResource(gateway, uri)
      .then((entry) => entry?.client.unsubscribeResource({ uri }))
      .catch(() => {});
  };
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (isKilnUri(uri)) throw new McpError(ErrorCode.InvalidParams, `Notes of the kiln send no updates: "${uri}" cannot be subscribed to (read it again instead)`);
    if (mine.has(uri)) return {};
    if (mine.size >= MAX_SUBSCRIPTIONS_PER_SESSION) throw new McpError(ErrorCode.InvalidParams, `At most ${MAX_SUBSCRIPTIONS_PER_SESSION} resource subscriptions per session`);
    const entry = await upstreamOfResource(gateway, uri);
    if (!entry) throw resourceNotFound(uri);
    if (!entry.client.getServerCapabilities()?.resources?.subscribe) {
      throw new McpError(ErrorCode.InvalidParams, `Tool server "${entry.upstream.name}" does not support resource subscriptions ("${uri}")`);
    }
    const count = gateway.resourceSubscribers.get(uri) ?? 0;
    if (count === 0) await entry.client.subscribeResource({ uri }, { timeout: entry.upstream.config.timeout_secs * 1000 });
    gateway.resourceSubscribers.set(uri, count + 1);
    mine.add(uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    release(request.params.uri);
    return {};
  });
  const updates = gateway.onDidChangeCatalog((change) => {
    if (typeof change !== 'object' || !mine.has(change.updated) || !server.transport) return;
    void server.sendResourceUpdated({ uri: change.updated }).catch(() => {});
  });
  return {
    dispose() {
      updates.dispose();
      for (const uri of [...mine]) release(uri);
    },
  };
}
