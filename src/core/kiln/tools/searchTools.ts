import * as z from 'zod';
import { propertiesSchema } from './propertyValueSchema';
import { defineKilnTool, jsonResult, type BoundKilnContext, type KilnTool } from './kilnTool';
import { confineToolPath } from './kilnPath';
import { KilnToolError } from './kilnToolErrors';
import { propertySearch } from '../propertySearch';
import { isPatternQuery, textSearch, type LineMatch } from '../textSearch';
import type { SearchResult, SectionHit } from '../../index/search/searchResult';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const limitSchema = (fallback: number) => z.number().int().min(1).max(200).optional().describe(`Maximum number of results (default ${fallback})`);

export function searchTools(ctx: BoundKilnContext): KilnTool[] {
  const textSearchTool = defineKilnTool({
    name: 'text_search',
    title: 'Text search',
    description:
      'Find notes containing a text (case-insensitive, literal; /pattern/flags for a regular expression without backreferences or lookaround). One result per note, in path order: its first matching line (startLine, heading, snippet) and its other matching lines in sections; score is 1 (an exact match). chunks: true lists every matching line instead. ' +
      'When the kiln is indexed in a team database, words (not a /pattern/) are searched there instead: notes holding any of the words in any form (indexing finds indexed), best first, score a relevance from 0 to 1.',
    schema: z.strictObject({
      query: z.string().min(1).max(10_000).describe('Text to look for, or /pattern/flags'),
      folder: z.string().optional().describe('Only search this folder (relative to the kiln)'),
      limit: limitSchema(20),
      chunks: z.boolean().optional().describe('One result per matching line ({path, line, text}) instead of per note'),
    }),
    annotations: READ_ONLY,
    async handler(args, signal) {
      const folder = args.folder ? (await confineToolPath(ctx.kilnRoot, args.folder)).relative : '';
      const limit = args.limit ?? 20;
      // The team database searches words itself; a pattern needs the notes' lines.
      const inStore = isPatternQuery(args.query) ? undefined : await ctx.semanticSearch?.text?.(args.query, limit, signal, { chunks: args.chunks, snippetChars: 300, folder });
      if (inStore) {
        const results = args.chunks ? inStore.map((hit) => ({ path: hit.path, line: hit.startLine, text: hit.snippet.trim().slice(0, 300) })) : inStore.map(noteResult);
        return jsonResult({ query: args.query, count: results.length, results });
      }
      // Per note, the first line and up to MAX_SECTIONS more: enough lines for `limit` notes.
      const lines = await textSearch(ctx.files, { ...ctx.scanRules, folder }, args.query, args.chunks ? limit : Math.min(limit * (MAX_SECTIONS + 1), 5000), signal);
      if (args.chunks) {
        const results = lines.map((hit) => ({ path: hit.path, line: hit.line, text: hit.text.trim().slice(0, 300) }));
        return jsonResult({ query: args.query, count: results.length, results });
      }
      const results = groupLineMatches(lines, limit);
      return jsonResult({ query: args.query, count: results.length, results });
    },
  });

  const semanticSearchTool = defineKilnTool({
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
        throw new KilnToolError('kiln.index_unavailable', 'Semantic search is not available: the kiln has no index yet (run `hearth index`). Use text_search instead.');
      }
      const hits = await ctx.semanticSearch(args.query, args.limit ?? 10, signal, { chunks: args.chunks });
      const results = hits.map((hit) => (args.chunks ? chunkResult(hit) : noteResult(hit)));
      // A half-built index answers from the notes indexed so far: the agent is told, so it does not conclude a note is missing.
      const indexing = ctx.semanticSearch.indexing?.();
      const partial = indexing && {
        indexing: { ...indexing, note: `The index is being built (${indexing.done} of ${indexing.total} notes embedded): results may be incomplete; text_search reads every note.` },
      };
      // Matched on words alone (the embedding model is not available): the agent may rephrase with the notes' own words.
      const why = ctx.semanticSearch.wordsOnly?.();
      const wordsOnly = why && { wordsOnly: { note: `The embedding model is not available, so these notes were matched on the query's words only (not its meaning): ${why}` } };
      return jsonResult({ query: args.query, count: hits.length, results, ...partial, ...wordsOnly });
    },
  });

  const propertySearchTool = defineKilnTool({
    name: 'property_search',
    title: 'Property search',
    description: 'Find notes whose frontmatter has all the given properties, e.g. {"status": "draft", "tags": "project"}. A list property matches when it contains the value.',
    schema: z.strictObject({
      properties: propertiesSchema.refine((value) => Object.keys(value).length > 0, 'give at least one property'),
      limit: limitSchema(50),
    }),
    annotations: READ_ONLY,
    async handler(args, signal) {
      const wanted = Object.entries(args.properties);
      const pairs = textPairs(wanted);
      const inStore = pairs ? await ctx.semanticSearch?.properties?.(pairs, args.limit ?? 50, signal) : undefined;
      const found = inStore ?? (await propertySearch(ctx.files, ctx.scanRules, wanted, args.limit ?? 50, signal));
      const notes = found.map((note) => ({ path: note.path, title: note.title, frontmatter: note.frontmatter }));
      return jsonResult({ count: notes.length, notes });
    },
  });

  return [textSearchTool, semanticSearchTool, propertySearchTool];
}

/**
 * The wanted properties as the store's `key=value` text pairs (a list wants each of its items), or
 * undefined when one needs the notes themselves (null for absent, an object compared as JSON).
 */
function textPairs(wanted: [string, unknown][]): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  const scalar = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  for (const [key, value] of wanted) {
    const items = Array.isArray(value) ? value : [value];
    if (!items.every(scalar)) return undefined;
    for (const item of items) pairs.push([key, String(item)]);
  }
  return pairs.length > 0 ? pairs : undefined;
}

/** A note's other matching lines listed with its first one, at most this many. */
const MAX_SECTIONS = 8;

/** Matching lines (path order) as one result per note: the first line as the hit, the others as sections. */
function groupLineMatches(lines: LineMatch[], limit: number) {
  const section = (hit: LineMatch): SectionHit => ({ heading: hit.headingPath.join(' > '), startLine: hit.line, endLine: hit.line, snippet: hit.text.trim().slice(0, 300), score: 1 });
  const notes = new Map<string, SearchResult & { sections: SectionHit[] }>();
  for (const hit of lines) {
    const note = notes.get(hit.path);
    if (note) {
      if (note.sections.length < MAX_SECTIONS) note.sections.push(section(hit));
    } else if (notes.size < limit) {
      notes.set(hit.path, { path: hit.path, title: hit.title, ...section(hit), sections: [] });
    }
  }
  return [...notes.values()];
}

/** A note hit as semantic_search shows it: the index's result with its sections always listed. */
function noteResult(hit: SearchResult) {
  const { path, title, heading, startLine, endLine, score, snippet } = hit;
  return { path, title, heading, startLine, endLine, score, snippet, sections: hit.sections ?? [] };
}

/** A passage (`chunks: true`) as semantic_search has always shown it: its text, the heading only when there is one. */
function chunkResult(hit: SearchResult) {
  return { path: hit.path, score: hit.score, text: hit.snippet, heading: hit.heading || undefined, startLine: hit.startLine, endLine: hit.endLine };
}
