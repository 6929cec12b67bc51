/**
 * The internal agent's system prompt: the card's prompt, explicit tool guidance for small models
 * (size-aware prompts, DESIGN.md decision 6), where it works, and the project's rules files last so
 * the user's own instructions are the freshest thing the model reads.
 */
import type { AgentTool } from '../agentTools';

export interface SystemPromptParts {
  cardPrompt: string;
  tools: readonly AgentTool[];
  small: boolean;
  workspace: string;
  kiln: string;
  /** formatRules() output; '' when there are none. */
  rules: string;
}

/** Small models loop on tools unless told exactly how and when to use them. */
export function smallModelGuidance(tools: readonly AgentTool[]): string {
  const list = tools.map((tool) => `- ${tool.name}: ${(tool.definition.description ?? '').split('\n')[0]}`).join('\n');
  return [
    'How to use tools:',
    '1. Call a tool only when you need information from the notes you do not have yet.',
    '2. Call one tool at a time with valid JSON arguments, then read its result.',
    '3. Never call the same tool with the same arguments twice; the result will not change.',
    '4. When a result answers the question, stop calling tools and answer in plain text.',
    '5. You can only read; you cannot create, change or delete notes.',
    tools.length > 0 ? `Available tools:\n${list}` : 'No tools are available: answer from the conversation.',
  ].join('\n');
}

export function buildSystemPrompt(parts: SystemPromptParts): string {
  const sections = [parts.cardPrompt.trim()];
  if (parts.small) sections.push(smallModelGuidance(parts.tools));
  const where = parts.kiln === parts.workspace ? `The workspace and kiln is ${parts.workspace}.` : `The workspace is ${parts.workspace}; the kiln (notes) is ${parts.kiln}.`;
  sections.push(`${where} Note paths given to tools are relative to the kiln.`);
  if (parts.rules) sections.push(parts.rules);
  return sections.filter(Boolean).join('\n\n');
}
