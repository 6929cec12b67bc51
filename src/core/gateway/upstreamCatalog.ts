import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  McpError,
  type CompleteRequest,
  type CompleteResult,
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

export interface Live {
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
  const entry = await upstreamOfResource(gateway, uri);
  if (!entry) throw resourceNotFound(uri);
  const { upstream, client } = entry;
  const result = await client.readResource({ uri }, { ...timeout(upstream), signal });
  const size = result.contents.reduce((sum, part) => sum + ('text' in part ? part.text.length : 0) + ('blob' in part ? part.blob.length : 0), 0);
  const limit = upstream.config.max_message_mb * 1024 * 1024;
  if (size > limit) throw new McpError(ErrorCode.InternalError, `Resource "${uri}" of upstream "${upstream.name}" is larger than max_message_mb (${upstream.config.max_message_mb} MB)`);
  return result;
}

export function resourceNotFound(uri: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, `Resource not found: no tool server of the Hearth gateway offers "${uri}"`, { uri });
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

/** The upstream serving the prompt exposed as `name`, and the prompt's own name there. */
async function findPrompt(gateway: Gateway, name: string): Promise<{ entry: Live; original: string } | undefined> {
  for (const entry of live(gateway, 'prompts')) {
    const { upstream, client, keep } = entry;
    const prompts = await allPages<Prompt>((cursor) => client.listPrompts(cursor ? { cursor } : undefined, timeout(upstream)), 'prompts').catch(() => []);
    const match = prompts.find((prompt) => keep(prompt.name) && exposedToolName(upstream.config.prefix, prompt.name) === name);
    if (match) return { entry, original: match.name };
  }
  return undefined;
}

export async function getUpstreamPrompt(gateway: Gateway, name: string, args: Record<string, string> | undefined, signal?: AbortSignal): Promise<GetPromptResult> {
  const found = await findPrompt(gateway, name);
  if (!found) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: no prompt named "${name}" is served by the Hearth gateway`);
  const { entry, original } = found;
  return entry.client.getPrompt({ name: original, arguments: args }, { ...timeout(entry.upstream), signal });
}

/** The ready upstream that lists `uri` or a template matching it (the one a read or subscription goes to). */
export async function upstreamOfResource(gateway: Gateway, uri: string): Promise<Live | undefined> {
  for (const entry of live(gateway, 'resources')) if (await offers(entry, uri)) return entry;
  return undefined;
}

const NO_COMPLETIONS: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

/**
 * completion/complete, forwarded to the upstream that serves the prompt (under its own name) or
 * the resource template; an upstream without the `completions` capability, or a reference nobody
 * serves, completes to nothing (a client asks as the user types: an error would only be noise).
 */
export async function completeUpstream(gateway: Gateway, params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult> {
  const { ref } = params;
  if (ref.type === 'ref/prompt') {
    const found = await findPrompt(gateway, ref.name);
    if (!found?.entry.client.getServerCapabilities()?.completions) return NO_COMPLETIONS;
    return found.entry.client.complete({ ...params, ref: { ...ref, name: found.original } }, { ...timeout(found.entry.upstream), signal });
  }
  for (const entry of live(gateway, 'resources')) {
    const { upstream, client, keep } = entry;
    if (!client.getServerCapabilities()?.completions) continue;
    const templates = await allPages<ResourceTemplate>((cursor) => client.listResourceTemplates(cursor ? { cursor } : undefined, timeout(upstream)), 'resourceTemplates').catch(() => []);
    if (templates.some((template) => keep(template.name) && template.uriTemplate === ref.uri)) return client.complete(params, { ...timeout(upstream), signal });
  }
  return NO_COMPLETIONS;
}
