import type { KilnTool, KilnToolContext } from './kilnTool';
import { readTools } from './readTools';
import { searchTools } from './searchTools';
import { writeTools } from './writeTools';

/** Names of the kiln tools (DESIGN.md decision 7), in the order they are offered. */
export const KILN_TOOL_NAMES = [
  'read_note',
  'read_metadata',
  'list_notes',
  'text_search',
  'semantic_search',
  'property_search',
  'get_kiln_info',
  'create_note',
  'update_note',
  'delete_note',
] as const;

/** Every kiln tool bound to one kiln; pass `{ readOnly: true }` for small models (size-aware prompts). */
export function createKilnTools(ctx: KilnToolContext, options: { readOnly?: boolean } = {}): KilnTool[] {
  const byName = new Map([...readTools(ctx), ...searchTools(ctx), ...writeTools(ctx)].map((tool) => [tool.name, tool]));
  const tools = KILN_TOOL_NAMES.map((name) => byName.get(name)!);
  return options.readOnly ? tools.filter((tool) => tool.readOnly) : tools;
}
