/**
 * `[chat].auto_context` in the CLI (`hearth ask`, `hearth ask --agent`): the best note sections for
 * the question, unless `--no-context` or the option is off. A cold process has not loaded the local
 * embedding model, so the search is lexical there (the index is not updated first: that would embed).
 * When there is nothing to search, one line on stderr says so and the question goes ahead.
 */
import type { PromptAttachment } from '../core/agents/agentSession';
import { gatherAutoContext, type AutoContextIndex } from '../core/chat/context/autoContext';

/** `exclude`: the rules files (already in the system prompt) and notes attached with the question. */
export async function cliAutoContext(
  question: string,
  enabled: boolean,
  index: () => AutoContextIndex,
  stderr: NodeJS.WritableStream,
  exclude: readonly string[] = [],
): Promise<PromptAttachment[]> {
  if (!enabled) return [];
  const context = await gatherAutoContext(question, index(), { exclude });
  if (context.skipped) stderr.write(`hearth: note: no kiln context for this question (${context.skipped}); asking without it.\n`);
  if (context.refused) stderr.write(`hearth: note: left out of the kiln context: ${context.refused.join(', ')} (a link leading out of the kiln is not read).\n`);
  return context.attachments;
}
