import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { KilnTool } from '../kiln/tools/kilnTool';
import type { Disposable } from '../lifecycle/disposable';
import type { Gateway } from './gateway';
import { serveSubscriptions } from './resourceSubscriptions';
import { completeUpstream, getUpstreamPrompt, listUpstreamPrompts, listUpstreamResources, listUpstreamTemplates, readUpstreamResource, RESOURCE_NOT_FOUND } from './upstreamCatalog';

/** The kiln's notes are resources under this prefix: `hearth://kiln/<path, each segment encoded>`. */
export const KILN_RESOURCE_PREFIX = 'hearth://kiln/';

export function kilnResourceUri(path: string): string {
  return KILN_RESOURCE_PREFIX + path.split('/').map(encodeURIComponent).join('/');
}

function textOf(result: { content: unknown[] }): string {
  return (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
}

/** The notes as resources, through the kiln's own `list_notes` tool (its exclusions, its confinement). */
async function kilnResources(tools: readonly KilnTool[], signal?: AbortSignal): Promise<Resource[]> {
  const list = tools.find((tool) => tool.name === 'list_notes');
  if (!list) return [];
  const result = await list.call({}, signal);
  if (result.isError) return [];
  const notes = ((result.structuredContent as { notes?: unknown[] } | undefined)?.notes ?? []).filter((note): note is string => typeof note === 'string');
  return notes.map((path) => ({ uri: kilnResourceUri(path), name: path, title: path.replace(/\.md$/i, ''), mimeType: 'text/markdown' }));
}

/** Reads a note through `read_note`, which confines the path to the kiln (no `..`, no link out). */
async function readKilnResource(tools: readonly KilnTool[], uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
  const read = tools.find((tool) => tool.name === 'read_note');
  let path: string;
  try {
    path = uri.slice(KILN_RESOURCE_PREFIX.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: "${uri}" is not a valid note URI`, { uri });
  }
  if (!read) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: the kiln is not served here`, { uri });
  const result = await read.call({ path }, signal);
  if (result.isError) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${textOf(result)}`, { uri });
  return { contents: [{ uri, mimeType: 'text/markdown', text: textOf(result) }] };
}

/**
 * Serves resources (the kiln's notes, then every upstream's), resource templates, subscriptions,
 * prompts and completions on one gateway session, and announces list_changed when an upstream's
 * change or an upstream coming or going changes them.
 */
export function serveCatalog(server: Server, gateway: Gateway, kilnTools: () => readonly KilnTool[]): Disposable {
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({
    resources: [...(await kilnResources(kilnTools(), extra.signal)), ...(await listUpstreamResources(gateway))],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: await listUpstreamTemplates(gateway) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    return uri.startsWith(KILN_RESOURCE_PREFIX) ? readKilnResource(kilnTools(), uri, extra.signal) : readUpstreamResource(gateway, uri, extra.signal);
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await listUpstreamPrompts(gateway) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => getUpstreamPrompt(gateway, request.params.name, request.params.arguments, extra.signal));
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => completeUpstream(gateway, request.params, extra.signal));
  const subscriptions = serveSubscriptions(server, gateway, (uri) => uri.startsWith(KILN_RESOURCE_PREFIX));
  const listChanged = gateway.onDidChangeCatalog((what) => {
    if (typeof what === 'object' || !server.transport || !server.getClientCapabilities()) return;
    const sent = what === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
    void sent?.catch(() => {});
  });
  return { dispose: () => (listChanged.dispose(), subscriptions.dispose()) };
}
