import * as z from 'zod';
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { describeError, isHearthError } from '../../errors';
import type { ChangeJournal } from '../../changes/changeJournal';
import type { ChangeOrigin } from '../../changes/changeRecord';
import type { ChangeReviewer, ReviewPolicy } from '../../changes/changeReview';
import type { ConfinedRoot } from '../../fs/confinedRoot';
import type { ProtectedPathRules } from '../../fs/protectedPaths';
import type { WriteGate } from '../../fs/writeGate';
import type { Host } from '../../host';
import type { SearchResult } from '../../index/search/searchResult';
import type { PropertyNote } from '../../index/store/vectorStore';
import type { ScanRules } from '../kilnScanner';
import type { KilnLinks } from '../links/kilnLinks';
import type { NoteVectorSource } from '../links/noteCentroids';
import type { TeamLinks } from '../links/teamLinks';
import { KilnToolError } from './kilnToolErrors';

/**
 * The index's search (hybrid), injected so the kiln tools do not depend on how (or whether) the
 * index is built; with the searches a store answers itself (the team database), which the text
 * and property tools prefer to reading the notes (undefined: the notes on disk answer).
 */
export interface SemanticSearchFn {
  (query: string, limit: number, signal?: AbortSignal, options?: { chunks?: boolean }): Promise<SearchResult[]>;
  /** Full-text search (words, English stems, ranked) in the store; `snippetChars` as the index's search. */
  text?(query: string, limit: number, signal?: AbortSignal, options?: { chunks?: boolean; snippetChars?: number; folder?: string }): Promise<SearchResult[] | undefined>;
  /** Notes whose properties hold every `key=value` (text values, as `hearth search --mode property`), in path order. */
  properties?(wanted: readonly (readonly [string, string])[], limit: number, signal?: AbortSignal): Promise<PropertyNote[] | undefined>;
  /** While the index is being built: notes embedded of those the run must embed (results then cover part of the kiln). */
  indexing?(): { done: number; total: number } | undefined;
  /** The index's notes and their vectors, for related notes by note (their centroids). */
  notes?(): Promise<NoteVectorSource | undefined>;
  /** Why results are matched on words alone (the embedding model is not available), while they are. */
  wordsOnly?(): string | undefined;
}

/** What every kiln tool needs; built once per kiln by the host. */
export interface KilnToolContext {
  /** Absolute path of the kiln. */
  kilnRoot: string;
  host: Pick<Host, 'confirm' | 'log' | 'confirmProtected'>;
  /** `[cli].confirm_destructive`: ask before overwriting or deleting a note. */
  confirmDestructive: boolean;
  /** Absent when no index exists (semantic_search then answers "index not available"). */
  semanticSearch?: SemanticSearchFn;
  /** `[processing].exclude` globs (kiln-relative); .git, node_modules and .hearth are always excluded. */
  exclude?: readonly string[];
  /** `[processing].max_file_size_kb`: larger notes are skipped by searches and refused by read_note. */
  maxFileSizeKb?: number;
  /** Every write is journaled here (`hearth changes`, `hearth undo`); absent only in tests of the tools alone. */
  journal?: ChangeJournal;
  /** Shows writes as diffs to accept or reject (editor, `hearth ask --agent`); absent where nobody can review (`hearth gateway`). */
  reviewer?: ChangeReviewer;
  /** `[chat].review_edits`: which writes the reviewer sees. */
  reviewEdits?: ReviewPolicy;
  /** Confined reads of the kiln; built from `kilnRoot` when absent. */
  files?: ConfinedRoot;
  /** The write gate (DESIGN.md decision 16); built from `files`, `protection` and the host when absent. */
  gate?: WriteGate;
  /** What besides the built-in list is protected (rules files, agent_directories, the workspace root). */
  protection?: Omit<ProtectedPathRules, 'root'>;
  /** The kiln's link graph, shared with the host that keeps it current (the editor); built from `files` when absent. */
  links?: KilnLinks;
  /** With `store = "postgres"`: every member's backlinks (get_links adds them to this kiln's). */
  teamLinks?: TeamLinks;
}

/** A context with its confined files and write gate in place (what the tools themselves use). */
export type BoundKilnContext = KilnToolContext & { files: ConfinedRoot; gate: WriteGate; scanRules: ScanRules; links: KilnLinks };

/**
 * A kiln tool: MCP-shaped definition plus a handler. The same objects serve the gateway, the
 * internal agents and ACP sessions; `readOnly` lets size-aware prompts offer only the safe ones.
 */
export interface KilnTool {
  readonly name: string;
  readonly readOnly: boolean;
  readonly definition: Tool;
  /** Never throws: failures come back as `isError` results a model can read and correct. */
  call(args: unknown, signal?: AbortSignal, origin?: ChangeOrigin): Promise<CallToolResult>;
}

type Handler<S extends z.ZodType> = (args: z.output<S>, signal?: AbortSignal, origin?: ChangeOrigin) => Promise<CallToolResult | string>;

/** Builds a KilnTool from a zod schema: arguments are validated before the handler sees them. */
export function defineKilnTool<S extends z.ZodType>(spec: {
  name: string;
  title: string;
  description: string;
  schema: S;
  annotations: ToolAnnotations;
  handler: Handler<S>;
}): KilnTool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(spec.schema, { io: 'input' }) as Record<string, unknown>;
  const readOnly = spec.annotations.readOnlyHint === true;
  return {
    name: spec.name,
    readOnly,
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      annotations: { title: spec.title, ...spec.annotations },
    },
    async call(args, signal, origin) {
      const parsed = spec.schema.safeParse(args ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
        return toolError(new KilnToolError('kiln.invalid_arguments', `Invalid arguments for ${spec.name}: ${issues}`));
      }
      try {
        const result = await spec.handler(parsed.data, signal, origin);
        return typeof result === 'string' ? { content: [{ type: 'text', text: result }] } : result;
      } catch (error) {
        return toolError(error);
      }
    },
  };
}

/** The `_meta` key of a failed kiln tool's result that holds the error's `code`. */
export const ERROR_CODE_META = 'hearth/errorCode';

export function toolError(error: unknown): CallToolResult {
  const text = isHearthError(error) ? error.message : `Tool failed: ${describeError(error)}`;
  // The code rides along (MCP's _meta) so a host can tell a rejected edit from a failed one.
  return { content: [{ type: 'text', text }], isError: true, ...(isHearthError(error) ? { _meta: { [ERROR_CODE_META]: error.code } } : {}) };
}

/** A result carrying both a readable JSON text and structured content. */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}
