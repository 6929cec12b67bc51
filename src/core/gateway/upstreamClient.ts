import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientRelay } from './clientRelay';

const CLIENT_INFO = { name: 'hearth-gateway', version: '0.1.0' };

export interface UpstreamClientEvents {
  toolsChanged(): void;
  resourcesChanged(): void;
  promptsChanged(): void;
  resourceUpdated(uri: string): void;
}

/**
 * The MCP client of one upstream connection. It declares elicitation, sampling and roots (the relay hands
 * them to a gateway client that can answer) and passes the server's log messages on; without a
 * relay (tests of the bare supervision) it declares nothing, as the first gateway did.
 */
export function createUpstreamClient(upstream: string, relay: ClientRelay | undefined, events: UpstreamClientEvents): Client {
  const client = new Client(CLIENT_INFO, { capabilities: relay ? { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } } : {} });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.toolsChanged());
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => events.resourcesChanged());
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => events.promptsChanged());
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => events.resourceUpdated(notification.params.uri));
  if (!relay) return client;
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => relay.elicit(upstream, request.params, extra.signal));
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => relay.sample(upstream, request.params, extra.signal));
  client.setRequestHandler(ListRootsRequestSchema, (_request, extra) => relay.listRoots(upstream, extra.signal));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => relay.log(upstream, notification.params));
  return client;
}

/**
 * The SDK's Protocol runs a notification's handler a microtask late but settles a response at once,
 * so an upstream's last progress notification, read in the same chunk as its result, found its
 * request already gone and was dropped. Called once the client is connected: a response is handed
 * on after the notifications read before it have been dispatched.
 */
export function responsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if ('id' in message && !('method' in message)) setImmediate(() => deliver(message, extra));
    else deliver(message, extra);
  };
}
