import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServerConfig } from '../config/schema';
import { exposedToolName, toolFilter } from './toolNames';
import type { UpstreamTool } from './upstreamTypes';

/** Every page of an upstream's tools, kept by its allow/block globs and named with its prefix. */
export async function listUpstreamTools(client: Client, config: McpServerConfig): Promise<UpstreamTool[]> {
  // A server of resources or prompts only has no tools to list (asking would be refused).
  if (!client.getServerCapabilities()?.tools) return [];
  const keep = toolFilter(config.allowed_tools, config.blocked_tools);
  const tools: UpstreamTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: config.timeout_secs * 1000 });
    for (const tool of page.tools) {
      if (!keep(tool.name)) continue;
      const exposedName = exposedToolName(config.prefix, tool.name);
      tools.push({ exposedName, originalName: tool.name, definition: { ...tool, name: exposedName } });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
