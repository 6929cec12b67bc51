/**
 * Kiln context before the turn (`[chat].auto_context`): the best hybrid search hits for the user's
 * message, as a few budgeted note sections (path + line range + text) given to the agent with the
 * prompt, so an answer is grounded even when the model never calls a tool. Used by the chat panel,
 * `hearth ask --agent` and plain `hearth ask`.
 *
 * It must not slow a turn down: while the embedding model is not loaded (a cold CLI process with
 * `local_cpu`), the lexical side alone is used, and without an index the turn goes on without it
 * (the caller says so once).
 */
import type { PromptAttachment } from '../../agents/agentSession';
import { describeError } from '../../errors';
import type { SearchRequest } from '../../index/kilnIndex';
import type { SearchResult } from '../../index/search/searchResult';
import { ChatPathError } from './attachmentScope';
import { readKilnNote } from './kilnNoteTarget';

/** The part of KilnIndex auto context uses. */
export interface AutoContextIndex {
  readonly kilnRoot: string;
  readonly embedderLoaded: boolean;
  readonly setup: { providerType: string };
  exists(): Promise<boolean>;
  search(query: string, request?: SearchRequest): Promise<SearchResult[]>;
}

export interface AutoContextOptions {
  /** Sections given at most. */
  maxSections?: number;
  /** Characters of note text at most, all sections together. */
  maxChars?: number;
  signal?: AbortSignal;
  /**
   * Kiln-relative paths never given as context: the notes attached to the message (the model has
   * them whole already) and the rules files (`[context].rules_files`, already in the system prompt).
   */
  exclude?: readonly string[];
}

export interface AutoContext {
  /** Note sections for the prompt, best first; empty when nothing matched or it was skipped. */
  attachments: PromptAttachment[];
  /** Why no context was added (no index yet, search failed), for a one-time notice. */
  skipped?: string;
  /** Whether only the lexical side ran (no embedding model loaded). */
  lexicalOnly: boolean;
  /** Hits left out because the note is (or became) a link leading out of the kiln, for a notice. */
  refused?: string[];
}

export const AUTO_CONTEXT_SECTIONS = 4;
/**
 * Hits below this relevance are left out: on a 3-note kiln, notes sharing no word with the message
 * score 0.01–0.02 in hybrid search and a matching one 0.3 or more, so noise never becomes "context".
 */
export const AUTO_CONTEXT_MIN_SCORE = 0.05;
export const AUTO_CONTEXT_CHARS = 6_000;
/** Below this many characters left, no further section is added (a fragment helps nobody). */
const MIN_SECTION_CHARS = 200;

export async function gatherAutoContext(query: string, index: AutoContextIndex | undefined, options: AutoContextOptions = {}): Promise<AutoContext> {
  const maxSections = options.maxSections ?? AUTO_CONTEXT_SECTIONS;
  const maxChars = options.maxChars ?? AUTO_CONTEXT_CHARS;
  if (!index) return { attachments: [], skipped: 'no index yet', lexicalOnly: false };
  const lexicalOnly = index.setup.providerType === 'local_cpu' && !index.embedderLoaded;
  const excluded = new Set((options.exclude ?? []).map((p) => p.replace(/\\/g, '/').replace(/^\.\//, '')));
  let results: SearchResult[];
  try {
    if (!(await index.exists())) return { attachments: [], skipped: 'no index yet (run "Hearth: Reindex" or hearth index)', lexicalOnly };
    // Asked for as many more as are excluded, so what is left still fills the sections.
    const found = await index.search(query, { mode: 'hybrid', limit: maxSections + excluded.size, lexicalOnly, ...(options.signal ? { signal: options.signal } : {}) });
    results = found.filter((r) => !excluded.has(r.path));
  } catch (error) {
    return { attachments: [], skipped: `search failed: ${describeError(error)}`, lexicalOnly };
  }
  const attachments: PromptAttachment[] = [];
  const refused: string[] = [];
  let left = maxChars;
  for (const hit of results.filter((r) => r.score >= AUTO_CONTEXT_MIN_SCORE).slice(0, maxSections)) {
    if (left < MIN_SECTION_CHARS) break;
    const section = await readSection(index.kilnRoot, hit, Math.floor(left / Math.max(1, Math.min(maxSections, results.length) - attachments.length)) || left);
    if (section === 'refused') refused.push(hit.path);
    if (typeof section !== 'object') continue;
    attachments.push(section);
    left -= section.text.length;
  }
  return { attachments, lexicalOnly, ...(refused.length > 0 ? { refused } : {}) };
}

/**
 * The hit's lines from the note on disk, cut to `budget` characters with a note saying where. Read
 * through the confined reader: a note that is (or is swapped for) a link out of the kiln is 'refused'.
 */
async function readSection(kiln: string, hit: SearchResult, budget: number): Promise<PromptAttachment | 'refused' | undefined> {
  let text: string;
  try {
    text = (await readKilnNote(kiln, hit.path)).text;
  } catch (error) {
    if (error instanceof ChatPathError && error.code === 'chat.path_outside_scope') return 'refused';
    return undefined; // deleted or moved since it was indexed
  }
  const lines = text.split('\n');
  const start = Math.min(Math.max(1, hit.startLine), lines.length);
  const end = Math.min(Math.max(start, hit.endLine), lines.length);
  let body = '';
  let last = start - 1;
  for (let i = start - 1; i < end; i++) {
    const next = (body ? '\n' : '') + lines[i];
    if (body.length + next.length > budget) break;
    body += next;
    last = i + 1;
  }
  if (last < start) {
    body = lines[start - 1]!.slice(0, budget);
    last = start;
  }
  const cut = last < end ? `\n… (cut at line ${last} of ${hit.path}; lines ${last + 1}-${end} not included — read_note for the rest)` : '';
  return { path: hit.path, startLine: start, endLine: last, text: body + cut };
}

/** How a prompt without an agent (plain `hearth ask`) carries the sections: one block before the question. */
export function contextBlock(attachments: readonly PromptAttachment[]): string {
  return attachments.map((a) => `From ${a.path} (lines ${a.startLine}-${a.endLine}):\n\`\`\`\`\n${a.text}\n\`\`\`\``).join('\n\n');
}
