import { ProcessingSchema } from '../../config/schema';
import { ConfinedRoot } from '../../fs/confinedRoot';
import type { BoundKilnContext, KilnTool, KilnToolContext } from './kilnTool';
import { readTools } from './readTools';
import { searchTools } from './searchTools';
import { kilnWriteGate } from './kilnWriteGate';
import { writeTools } from './writeTools';
import { linkTools } from './linkTools';
import { noteEditTools } from './noteEditTools';
import { KilnLinks } from '../links/kilnLinks';

/** Names of the kiln tools (DESIGN.md decision 7), in the order they are offered. */
export const KILN_TOOL_NAMES = [
  'read_note',
  'read_metadata',
  'list_notes',
  'text_search',
  'semantic_search',
  'property_search',
  'get_kiln_info',
  'get_links',
  'related_notes',
  'unlinked_mentions',
  'create_note',
  'update_note',
  'edit_note',
  'move_note',
  'delete_note',
] as const;

/** Every kiln tool bound to one kiln; pass `{ readOnly: true }` for small models (size-aware prompts). */
export function createKilnTools(ctx: KilnToolContext, options: { readOnly?: boolean } = {}): KilnTool[] {
  const bound = bindKilnContext(ctx);
  const byName = new Map([...readTools(bound), ...searchTools(bound), ...writeTools(bound), ...linkTools(bound), ...noteEditTools(bound)].map((tool) => [tool.name, tool]));
  const tools = KILN_TOOL_NAMES.map((name) => byName.get(name)!);
  return options.readOnly ? tools.filter((tool) => tool.readOnly) : tools;
}

/** Fills in the confined files and the write gate a context was built without. */
export function bindKilnContext(ctx: KilnToolContext): BoundKilnContext {
  const files = ctx.files ?? new ConfinedRoot(ctx.kilnRoot);
  const gate = ctx.gate ?? kilnWriteGate(ctx, files);
  // Searches and reads follow the index's rules; a context built without config (tests) gets the schema's defaults.
  const defaults = ProcessingSchema.parse({});
  const scanRules = { exclude: [...(ctx.exclude ?? defaults.exclude)], max_file_size_kb: ctx.maxFileSizeKb ?? defaults.max_file_size_kb };
  return { ...ctx, files, gate, scanRules, links: ctx.links ?? new KilnLinks(files, scanRules) };
}
