import { isAbsolute, resolve } from 'node:path';

/**
 * Paths whose contents steer what Hearth or the agents it launches run or believe (DESIGN.md
 * decision 15). Writing one is how a single injected tool call becomes a persistent command or
 * prompt, so creating or changing one always needs an explicit confirmation naming the path.
 */
export interface ProtectedPathRules {
  /** The folder writes are relative to (the kiln for kiln tools, the workspace for ACP). */
  root: string;
  /** Other folders whose config Hearth reads (the workspace when the kiln is elsewhere, or the kiln). */
  otherRoots?: readonly string[];
  /** `[context].rules_files`: names (or relative paths) of rules files, protected wherever they are. */
  rulesFiles?: readonly string[];
  /** `agent_directories`, absolute or relative to `root`; `~` already expanded by the caller. */
  agentDirectories?: readonly string[];
}

/** Why a protected path matters, for the confirmation and the error. */
export type ProtectedReason = string;

const COMMANDS = 'this file configures commands Hearth runs';

/**
 * One protected location: `dir/**` protects a folder (and everything under it) wherever that run of
 * folder names appears in the path; any other pattern protects a file whose path ends with it.
 * Compared segment by segment after normalizeSegment, so `.Cursor/Rules/x.mdc` matches on a
 * case-insensitive file system as the agent reading it would.
 */
export interface ProtectedPattern {
  path: string;
  reason: ProtectedReason;
}

/**
 * Every built-in protected path, in one list (the test names each): what Hearth itself runs, then
 * the instruction and rule files of the agents Hearth launches and of the editor's own agent, each
 * read into that agent's prompt (a planted one steers every later request). Folders first, so a
 * file inside one is reported for its folder.
 */
export const PROTECTED_PATTERNS: readonly ProtectedPattern[] = [
  { path: '.hearth/**', reason: `${COMMANDS} (Hearth's config, agent cards and change journal live in .hearth/)` },
  { path: '.git/**', reason: 'git runs hooks from .git/ (a planted hook runs on your next commit)' },
  { path: '.vscode/**', reason: 'VS Code runs tasks and applies settings from .vscode/' },
  { path: '.claude/**', reason: "Claude Code's settings and hooks in .claude/ run commands" },
  { path: '.gemini/**', reason: "Gemini CLI's settings in .gemini/ configure commands and tool servers it runs" },
  { path: '.codex/**', reason: "Codex's settings in .codex/ configure commands and tool servers it runs" },
  { path: '.github/instructions/**', reason: 'GitHub Copilot applies .github/instructions/*.instructions.md to every matching chat request' },
  { path: '.github/prompts/**', reason: "GitHub Copilot's prompt files in .github/prompts/ are offered as slash commands and run with their tools" },
  { path: '.github/chatmodes/**', reason: "GitHub Copilot's chat modes in .github/chatmodes/ set the agent's instructions and tools" },
  { path: '.github/agents/**', reason: "GitHub Copilot's custom agents in .github/agents/ set the agent's instructions and tools" },
  { path: '.clinerules/**', reason: 'Cline reads .clinerules into every prompt' },
  { path: '.cursor/rules/**', reason: 'Cursor reads .cursor/rules/ into its agent prompts' },
  { path: '.windsurf/rules/**', reason: 'Windsurf reads .windsurf/rules/ into its agent prompts' },
  { path: '.kiro/steering/**', reason: 'Kiro reads .kiro/steering/ into every prompt' },
  { path: '.roo/rules/**', reason: 'Roo Code reads .roo/rules/ into every prompt' },
  { path: '.continue/rules/**', reason: 'Continue reads .continue/rules/ into its agent prompts' },
  { path: '.mcp.json', reason: '.mcp.json lists MCP servers (commands) that agents start' },
  { path: 'CLAUDE.md', reason: 'CLAUDE.md is read into every Claude Code prompt' },
  { path: 'CLAUDE.local.md', reason: 'CLAUDE.local.md is read into every Claude Code prompt' },
  { path: 'GEMINI.md', reason: 'GEMINI.md is read into every Gemini CLI prompt' },
  { path: 'AGENTS.override.md', reason: 'Codex reads AGENTS.override.md into every prompt, in place of AGENTS.md' },
  { path: 'WARP.md', reason: "WARP.md is read into every prompt of Warp's agent" },
  { path: '.github/copilot-instructions.md', reason: 'GitHub Copilot reads .github/copilot-instructions.md into every prompt' },
  { path: '.junie/guidelines.md', reason: 'JetBrains Junie reads .junie/guidelines.md into every prompt' },
  { path: '.cursorrules', reason: 'Cursor reads .cursorrules (its older rules file) into every prompt' },
  { path: '.windsurfrules', reason: 'Windsurf reads .windsurfrules (its older rules file) into every prompt' },
];

interface CompiledPattern {
  segments: string[];
  folder: boolean;
  reason: ProtectedReason;
}

const COMPILED: readonly CompiledPattern[] = PROTECTED_PATTERNS.map(({ path, reason }) => {
  const folder = path.endsWith('/**');
  return { segments: segmentsOf(folder ? path.slice(0, -3) : path), folder, reason };
});

const AGENT_CARDS = "agent cards here are the prompts and tools of Hearth's agents (a card can replace the built-in kiln agent)";

/**
 * One segment as a file system might treat it: case-insensitive (macOS and Windows are, and a
 * repository cloned there turns `.HEARTH` into `.hearth`), trailing dots and spaces dropped
 * (Windows ignores them), and an NTFS stream suffix dropped (`CLAUDE.md::$DATA` is CLAUDE.md there).
 */
export function normalizeSegment(segment: string): string {
  return segment.replace(/:.*$/s, '').replace(/[. ]+$/, '').toLowerCase() || segment;
}

function segmentsOf(path: string): string[] {
  return path.split(/[\\/]+/).filter((part) => part !== '' && part !== '.').map(normalizeSegment);
}

export class ProtectedPaths {
  private readonly root: string;
  private readonly roots: string[][];
  private readonly rules: string[][];
  private readonly agentDirs: string[][];

  constructor(rules: ProtectedPathRules) {
    const root = (this.root = resolve(rules.root));
    this.roots = [root, ...(rules.otherRoots ?? []).map((other) => resolve(other))].map(segmentsOf);
    this.rules = (rules.rulesFiles ?? []).filter((name) => !isAbsolute(name)).map(segmentsOf).filter((s) => s.length > 0 && !s.includes('..'));
    this.agentDirs = (rules.agentDirectories ?? []).map((dir) => segmentsOf(resolve(root, dir)));
  }

  /**
   * Why writing `path` (relative to the root, or absolute) needs a confirmation, or undefined when
   * it is an ordinary file. Checked against every root Hearth reads config from.
   */
  reason(path: string): ProtectedReason | undefined {
    const absolute = segmentsOf(resolve(this.root, path));
    for (const dir of this.agentDirs) if (startsWith(absolute, dir)) return `${AGENT_CARDS} (agent_directories)`;
    for (const root of this.roots) {
      if (!startsWith(absolute, root)) continue;
      const why = reasonWithin(absolute.slice(root.length), this.rules);
      if (why) return why;
    }
    return undefined;
  }
}

/** The rules for a path relative to one root (already normalized segments). */
export function reasonWithin(segments: readonly string[], rules: readonly string[][] = []): ProtectedReason | undefined {
  if (segments.length === 0) return undefined;
  for (const pattern of COMPILED) if (pattern.folder ? containsRun(segments, pattern.segments) : endsWith(segments, pattern.segments)) return pattern.reason;
  if (segments.length >= 2 && segments[0] === 'agents') return AGENT_CARDS;
  for (const rule of rules) if (endsWith(segments, rule)) return `${rule.join('/')} is a rules file ([context].rules_files): it is read into every agent's system prompt`;
  return undefined;
}

/** Whether `run` appears as consecutive segments anywhere in `path` (the folder itself, or any folder above the file). */
function containsRun(path: readonly string[], run: readonly string[]): boolean {
  for (let at = 0; at + run.length <= path.length; at++) if (run.every((segment, i) => path[at + i] === segment)) return true;
  return false;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

function endsWith(path: readonly string[], suffix: readonly string[]): boolean {
  return suffix.length <= path.length && suffix.every((segment, i) => path[path.length - suffix.length + i] === segment);
}
