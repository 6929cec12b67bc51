import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  McpError,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from './gateway';
import type { Upstream } from './upstream';
import { exposedToolName, toolFilter } from './toolNames';

/** Pages fetched per listing and upstream: a server paging forever cannot hold a listing up. */
const MAX_PAGES = 20;

/** MCP's "resource not found" (the SDK names no constant for it). */
export const RESOURCE_NOT_FOUND = -32002;

interface Live {
  upstream: Upstream;
  client: Client;
  keep: (name: string) => boolean;
}

/** Ready upstreams that declare `what`, with their filter (the same allow/block globs as their tools). */
function live(gateway: Gateway, what: 'resources' | 'prompts'): Live[] {
  return gateway.upstreamList.flatMap((upstream) => {
    const client = upstream.connectedClient;
    if (!client?.getServerCapabilities()?.[what]) return [];
    return [{ upstream, client, keep: toolFilter(upstream.config.allowed_tools, upstream.config.blocked_tools) }];
  });
}

async function allPages<T>(fetchPage: (cursor?: string) => Promise<{ nextCursor?: string } & Record<string, unknown>>, key: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...((result[key] as T[] | undefined) ?? []));
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}

function timeout(upstream: Upstream): { timeout: number } {
  return { timeout: upstream.config.timeout_secs * 1000 };
}

/** One upstream failing to list must not hide the others' entries. */
async function gather<T>(entries: Live[], list: (entry: Live) => Promise<T[]>): Promise<T[]> {
  const settled = await Promise.allSettled(entries.map(list));
  return settled.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
}

/**
 * Every ready upstream's resources, filtered by its globs (on the resource's own name), named with
 * its prefix. URIs are kept as the upstream gave them, so a client reads what it was shown.
 */
export function listUpstreamResources(gateway: Gateway): Promise<Resource[]> {
  return gather(live(gateway, 'resources'), async ({ upstream, client, keep }) => {
    const resources = await allPages<Resource>((cursor) => client.listResources(cursor ? { cursor } : undefined, timeout(upstream)), 'resources');
    return resources.filter((resource) => keep(resource.name)).map((resource) => ({ ...resource, name: upstream.config.prefix + resource.name }));
  });
}

export function listUpstreamTemplates(gateway: Gateway): Promise<ResourceTemplate[]> {
  return gather(live(gateway, 'resources'), async ({ upstream, client, keep }) => {
    const templates = await allPages<ResourceTemplate>((cursor) => client.listResourceTemplates(cursor ? { cursor } : undefined, timeout(upstream)), 'resourceTemplates');
    return templates.filter((template) => keep(template.name)).map((template) => ({ ...template, name: upstream.config.prefix + template.name }));
  });
}

/**
 * Reads a resource from the upstream that lists it (or whose template matches it); a URI no
 * served upstream offers is "resource not found". A result larger than the upstream's
 * `max_message_mb` is refused (remote and stdio transports already drop such a message).
 */
export async function readUpstreamResource(gateway: Gateway, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
  for (const entry of live(gateway, 'resources')) {
    if (!(await offers(entry, uri))) continue;
    const { upstream, client } = entry;
    const result = await client.readResource({ uri }, { ...timeout(upstream), signal });
    const size = result.contents.reduce((sum, part) => sum + ('text' in part ? part.text.length : 0) + ('blob' in part ? part.blob.length : 0), 0);
    const limit = upstream.config.max_message_mb * 1024 * 1024;
    if (size > limit) throw new McpError(ErrorCode.InternalError, `Resource "${uri}" of upstream "${upstream.name}" is larger than max_message_mb (${upstream.config.max_message_mb} MB)`);
    return result;
  }
  throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: no tool server of the Hearth gateway offers "${uri}"`, { uri });
}

async function offers({ upstream, client, keep }: Live, uri: string): Promise<boolean> {
  const resources = await allPages<Resource>((cursor) => client.listResources(cursor ? { cursor } : undefined, timeout(upstream)), 'resources').catch(() => []);
  if (resources.some((resource) => resource.uri === uri && keep(resource.name))) return true;
  const templates = await allPages<ResourceTemplate>((cursor) => client.listResourceTemplates(cursor ? { cursor } : undefined, timeout(upstream)), 'resourceTemplates').catch(() => []);
  return templates.some((template) => keep(template.name) && new UriTemplate(template.uriTemplate).match(uri) !== null);
}

/** Every ready upstream's prompts, filtered by its globs, named as its tools are (prefix + name). */
export function listUpstreamPrompts(gateway: Gateway): Promise<Prompt[]> {
  return gather(live(gateway, 'prompts'), async ({ upstream, client, keep }) => {
    const prompts = await allPages<Prompt>((cursor) => client.listPrompts(cursor ? { cursor } : undefined, timeout(upstream)), 'prompts');
    return prompts.filter((prompt) => keep(prompt.name)).map((prompt) => ({ ...prompt, name: exposedToolName(upstream.config.prefix, prompt.name) }));
  });
}

export async function getUpstreamPrompt(gateway: Gateway, name: string, args: Record<string, string> | undefined, signal?: AbortSignal): Promise<GetPromptResult> {
  for (const { upstream, client, keep } of live(gateway, 'prompts')) {
    const prompts = await allPages<Prompt>((cursor) => client.listPrompts(cursor ? { cursor } : undefined, timeout(upstream)), 'prompts').catch(() => []);
    const match = prompts.find((prompt) => keep(prompt.name) && exposedToolName(upstream.config.prefix, prompt.name) === name);
    if (match) return client.getPrompt({ name: match.name, arguments: args }, { ...timeout(upstream), signal });
  }
  throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: no prompt named "${name}" is served by the Hearth gateway`);
}
