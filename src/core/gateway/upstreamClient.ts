import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientRelay } from './clientRelay';

const CLIENT_INFO = { name: 'hearth-gateway', version: '0.1.0' };

export interface UpstreamClientEvents {
  toolsChanged(): void;
  resourcesChanged(): void;
  promptsChanged(): void;
}

/**
 * The MCP client of one upstream connection. It declares elicitation and sampling (the relay hands
 * them to a gateway client that can answer) and passes the server's log messages on; without a
 * relay (tests of the bare supervision) it declares nothing, as the first gateway did.
 */
export function createUpstreamClient(upstream: string, relay: ClientRelay | undefined, events: UpstreamClientEvents): Client {
  const client = new Client(CLIENT_INFO, { capabilities: relay ? { elicitation: { form: {}, url: {} }, sampling: {} } : {} });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.toolsChanged());
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => events.resourcesChanged());
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => events.promptsChanged());
  if (!relay) return client;
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => relay.elicit(upstream, request.params, extra.signal));
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => relay.sample(upstream, request.params, extra.signal));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => relay.log(upstream, notification.params));
  return client;
}
