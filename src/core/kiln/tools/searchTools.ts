import { z } from 'zod';
import { defineKilnTool, jsonResult, type BoundKilnContext, type KilnTool } from './kilnTool';
import { resolveKilnPath } from './kilnPath';
import { KilnToolError } from './kilnToolErrors';
import { listNotePaths } from './kilnWalk';
import { noteTags, noteTitle, splitNote } from './noteFile';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const limitSchema = (fallback: number) => z.number().int().min(1).max(200).optional().describe(`Maximum number of results (default ${fallback})`);

/** Reads each note once, skipping those over max_file_size_kb (the indexer skips them too). */
async function* notesIn(ctx: BoundKilnContext, folder: string): AsyncGenerator<{ path: string; text: string }> {
  const maxBytes = (ctx.maxFileSizeKb ?? 1024) * 1024;
  for (const path of await listNotePaths(ctx.files, folder, { recursive: true, exclude: ctx.exclude })) {
    // Confined: a note swapped for a link out of the kiln since the listing is skipped, not read.
    const read = await ctx.files.readText(path, { maxBytes }).catch(() => undefined);
    if (read !== undefined) yield { path, text: read.text };
  }
}

/** Frontmatter value matching: scalars compare loosely (as text, case-insensitive), lists match when they contain the wanted value. */
function matchesProperty(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) return wanted.every((item) => matchesProperty(actual, item));
  if (Array.isArray(actual)) return actual.some((item) => matchesProperty(item, wanted));
  if (actual === undefined || actual === null) return wanted === null;
  if (typeof wanted === 'object' && wanted !== null) return JSON.stringify(actual) === JSON.stringify(wanted);
  const text = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)).toLowerCase();
  return text(actual) === text(wanted);
}

export function searchTools(ctx: BoundKilnContext): KilnTool[] {
  const textSearch = defineKilnTool({
    name: 'text_search',
    title: 'Text search',
    description: 'Find notes containing a text (case-insensitive, literal). Returns matching lines with their line numbers.',
    schema: z.strictObject({
      query: z.string().min(1).describe('Text to look for'),
      folder: z.string().optional().describe('Only search this folder (relative to the kiln)'),
      limit: limitSchema(20),
    }),
    annotations: READ_ONLY,
    async handler(args) {
      const folder = args.folder ? (await resolveKilnPath(ctx.kilnRoot, args.folder)).relative : '';
      const limit = args.limit ?? 20;
      const needle = args.query.toLowerCase();
      const matches: { path: string; line: number; text: string }[] = [];
      outer: for await (const note of notesIn(ctx, folder)) {
        if (!note.text.toLowerCase().includes(needle)) continue;
        const lines = note.text.split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (!lines[i].toLowerCase().includes(needle)) continue;
          matches.push({ path: note.path, line: i + 1, text: lines[i].trim().slice(0, 300) });
          if (matches.length >= limit) break outer;
        }
      }
      return jsonResult({ query: args.query, count: matches.length, matches });
    },
  });

  const semanticSearch = defineKilnTool({
    name: 'semantic_search',
    title: 'Semantic search',
    description:
      'Find the notes that best match a query (its words and its meaning), using the kiln index. One result per note: the best-matching section (lines, text) plus the other matching sections; score is a relevance from 0 to 1. chunks: true lists matching passages instead.',
    schema: z.strictObject({
      query: z.string().min(1).max(10_000).describe('What to look for, in natural language'),
      limit: limitSchema(10),
      chunks: z.boolean().optional().describe('One result per matching passage (chunk) instead of per note'),
    }),
    annotations: READ_ONLY,
    async handler(args, signal) {
      if (!ctx.semanticSearch) {
        throw new KilnToolError('index-unavailable', 'Semantic search is not available: the kiln has no index yet (run `hearth index`). Use text_search instead.');
      }
      const hits = await ctx.semanticSearch(args.query, args.limit ?? 10, signal, { chunks: args.chunks });
      return jsonResult({ query: args.query, count: hits.length, results: hits.map((hit) => ({ ...hit })) });
    },
  });

  const propertySearch = defineKilnTool({
    name: 'property_search',
    title: 'Property search',
    description: 'Find notes whose frontmatter has all the given properties, e.g. {"status": "draft", "tags": "project"}. A list property matches when it contains the value.',
    schema: z.strictObject({
      properties: z.record(z.string(), z.unknown()).refine((value) => Object.keys(value).length > 0, 'give at least one property'),
      limit: limitSchema(50),
    }),
    annotations: READ_ONLY,
    async handler(args) {
      const limit = args.limit ?? 50;
      const notes: { path: string; title: string; frontmatter: Record<string, unknown> }[] = [];
      for await (const note of notesIn(ctx, '')) {
        const parts = splitNote(note.text);
        const fields: Record<string, unknown> = { ...parts.frontmatter, tags: noteTags(parts) };
        if (!Object.entries(args.properties).every(([key, wanted]) => matchesProperty(fields[key], wanted))) continue;
        notes.push({ path: note.path, title: noteTitle(note.path, parts), frontmatter: parts.frontmatter });
        if (notes.length >= limit) break;
      }
      return jsonResult({ count: notes.length, notes });
    },
  });

  return [textSearch, semanticSearch, propertySearch];
}
