/**
 * Agent cards (DESIGN.md decision 9): a markdown file whose YAML frontmatter names and describes an
 * internal agent and whose body (or the section under `# System Prompt`) is its system prompt.
 */
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';

export interface AgentCard {
  name: string;
  description: string;
  /** `provider/model` (or a model of the active provider) for this agent's sessions. */
  model?: string;
  /** Globs over tool names (kiln and gateway); absent means every tool. */
  tools?: string[];
  temperature?: number;
  tags?: string[];
  systemPrompt: string;
  /** The card's file, or `builtin`. */
  source: string;
}

/** Why a card was skipped; shown to the user, never fatal. */
export interface AgentCardProblem {
  file: string;
  reason: string;
}

const CardFrontmatter = z.object({
  name: z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "-" and "." only, no spaces'),
  description: z.string().trim().min(1),
  model: z.string().trim().min(1).optional(),
  tools: z.array(z.string().min(1)).optional(),
  temperature: z.number().min(0).max(2).optional(),
  tags: z.array(z.string()).optional(),
});

const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const PROMPT_HEADING = /^#[ \t]+System Prompt[ \t]*$/im;

/** The section under `# System Prompt` (to the next level-1 heading), else the whole body. */
function systemPromptOf(body: string): string {
  const heading = PROMPT_HEADING.exec(body);
  if (!heading) return body.trim();
  const rest = body.slice(heading.index + heading[0].length);
  const next = /^#[ \t]+\S/m.exec(rest);
  return (next ? rest.slice(0, next.index) : rest).trim();
}

export function parseAgentCard(text: string, file: string): { card: AgentCard } | { problem: AgentCardProblem } {
  const match = FRONTMATTER.exec(text);
  if (!match) return { problem: { file, reason: 'no YAML frontmatter (a card starts with --- and needs name and description)' } };
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch (error) {
    return { problem: { file, reason: `frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}` } };
  }
  const parsed = CardFrontmatter.safeParse(data ?? {});
  if (!parsed.success) {
    const reason = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'frontmatter'}: ${issue.message}`).join('; ');
    return { problem: { file, reason } };
  }
  const systemPrompt = systemPromptOf(text.slice(match[0].length));
  return { card: { ...parsed.data, systemPrompt, source: file } };
}
