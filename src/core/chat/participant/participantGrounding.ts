/**
 * The grounding of a request to `@hearth` in VS Code's Chat view — the same as Hearth's own chat
 * (DESIGN.md decisions 18 and 22): notes the user named (`[[Note]]` or `path.md` in the message,
 * `#file` references to notes) are attached whole, within the attachment budget, and auto context
 * adds the best hybrid hits for the message (`[chat].auto_context`); every attached section is a
 * source. Without an index, or while one is being built, the answer goes on without kiln context
 * and says why. Free of `vscode`: the participant (src/vscode/participant/) only streams it.
 */
import type { PromptAttachment } from '../../agents/agentSession';
import { describeError } from '../../errors';
import type { ChatMessage } from '../../llm/types';
import { contextBlock, gatherAutoContext, type AutoContextIndex } from '../context/autoContext';
import { readKilnNote, resolveKilnNote } from '../context/kilnNoteTarget';
import { findNoteReferences } from '../context/noteReferences';
import { cutToBudget, DEFAULT_ATTACHMENT_BUDGET } from '../context/pendingAttachments';
import { SourceList, type Source } from '../context/sources';

/** A note the editor resolved for the request (a `#file` reference inside the kiln), kiln-relative. */
export interface ReferencedNote {
  path: string;
  startLine?: number;
  endLine?: number;
}

export interface GroundingDeps {
  kilnRoot: string | undefined;
  /** The open index; undefined when there is none (yet). */
  index: AutoContextIndex | undefined;
  /** Why the index cannot answer now (being built, failed), in words; undefined when it can. */
  indexUnavailable?: string;
  /** `[chat].auto_context`. */
  autoContext: boolean;
  /** Characters all named notes may take together. */
  budget?: number;
  signal?: AbortSignal;
}

export interface Grounding {
  attachments: PromptAttachment[];
  sources: Source[];
  /** What the answer goes without, said once in the reply (no index, a note that was not found). */
  notices: string[];
}

/** Named notes attached at most (a message naming hundreds must not read the kiln). */
export const MAX_NAMED_NOTES = 8;

export async function groundRequest(prompt: string, references: readonly ReferencedNote[], deps: GroundingDeps): Promise<Grounding> {
  const notices: string[] = [];
  const kiln = deps.kilnRoot;
  if (!kiln) return { attachments: [], sources: [], notices: ['no kiln is open (open a folder, or set kiln_path)'] };
  const named: ReferencedNote[] = [...references];
  for (const ref of findNoteReferences(prompt, MAX_NAMED_NOTES * 4)) {
    try {
      const resolved = await resolveKilnNote(kiln, ref.target);
      named.push({ path: resolved.display });
    } catch (error) {
      notices.push(describeError(error));
    }
  }
  const unique = named.filter((ref, i) => named.findIndex((other) => other.path === ref.path && other.startLine === ref.startLine) === i).slice(0, MAX_NAMED_NOTES);
  const share = Math.floor((deps.budget ?? DEFAULT_ATTACHMENT_BUDGET) / Math.max(1, unique.length));
  const attachments: PromptAttachment[] = [];
  for (const ref of unique) {
    const read = await readNamed(kiln, ref, share);
    if (typeof read === 'string') notices.push(read);
    else attachments.push(read);
  }
  const sources = new SourceList();
  sources.addAttachments(attachments);
  if (deps.autoContext) {
    if (deps.indexUnavailable) notices.push(`no kiln context: ${deps.indexUnavailable}`);
    else {
      const context = await gatherAutoContext(prompt, deps.index, deps.signal ? { signal: deps.signal } : {});
      if (context.skipped) notices.push(`no kiln context: ${context.skipped}`);
      if (context.refused) notices.push(`left out of the kiln context: ${context.refused.join(', ')} (a link leading out of the kiln is not read)`);
      const fresh = context.attachments.filter((a) => !attachments.some((n) => n.path === a.path && n.startLine === undefined));
      attachments.push(...fresh);
      sources.addAttachments(fresh, 'auto_context');
    }
  }
  return { attachments, sources: sources.sources, notices };
}

/** A named note's lines (all, or the referenced range), cut to `budget`; a string says why it could not be read. */
async function readNamed(kiln: string, ref: ReferencedNote, budget: number): Promise<PromptAttachment | string> {
  let text: string;
  try {
    // Confined: a note swapped for a link out of the kiln is refused, never read into the prompt.
    text = (await readKilnNote(kiln, ref.path)).text;
  } catch (error) {
    return `${ref.path} could not be read: ${describeError(error)}`;
  }
  const lines = text.split('\n');
  const start = Math.min(Math.max(1, ref.startLine ?? 1), Math.max(1, lines.length));
  const end = Math.min(Math.max(start, ref.endLine ?? lines.length), lines.length);
  const body = cutToBudget(lines.slice(start - 1, end).join('\n'), ref.path, budget, start);
  return { path: ref.path, startLine: start, endLine: end, text: body };
}

/** How `@hearth` answers: from the notes given, citing them so each citation becomes a link. */
export const PARTICIPANT_SYSTEM_PROMPT = [
  'You are Hearth, answering questions about the user\'s markdown notes (their kiln) inside VS Code\'s chat.',
  'Answer from the note sections given with the question. Cite each note you use as its path and line, like `garden/Composting.md:12`, so the user can open it.',
  'If the sections do not answer the question, say so plainly instead of guessing.',
].join(' ');

/** The messages for the model: the system prompt, earlier turns of the Chat view, then the sections and the question. */
export function groundedMessages(prompt: string, grounding: Pick<Grounding, 'attachments'>, history: readonly { role: 'user' | 'assistant'; text: string }[] = []): ChatMessage[] {
  const context = grounding.attachments.length > 0 ? `Note sections from the kiln:\n\n${contextBlock(grounding.attachments)}\n\nQuestion: ` : '';
  return [
    { role: 'system', content: PARTICIPANT_SYSTEM_PROMPT },
    ...history.map((turn) => ({ role: turn.role, content: turn.text })),
    { role: 'user', content: `${context}${prompt}` },
  ];
}
