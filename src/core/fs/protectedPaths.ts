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

/** A folder name anywhere in the path that protects everything under it. */
const FOLDERS: Record<string, string> = {
  '.hearth': `${COMMANDS} (Hearth's config, agent cards and change journal live in .hearth/)`,
  '.git': 'git runs hooks from .git/ (a planted hook runs on your next commit)',
  '.vscode': 'VS Code runs tasks and applies settings from .vscode/',
  '.claude': "Claude Code's settings and hooks in .claude/ run commands",
  '.gemini': "Gemini CLI's settings in .gemini/ configure commands and tool servers it runs",
  '.codex': "Codex's settings in .codex/ configure commands and tool servers it runs",
};

/** A file name anywhere in the path. */
const FILES: Record<string, string> = {
  '.mcp.json': '.mcp.json lists MCP servers (commands) that agents start',
  'claude.md': 'CLAUDE.md is read into every Claude Code prompt',
  'gemini.md': 'GEMINI.md is read into every Gemini CLI prompt',
};

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
  for (const segment of segments.slice(0, -1)) if (FOLDERS[segment]) return FOLDERS[segment];
  const name = segments[segments.length - 1];
  if (FOLDERS[name]) return FOLDERS[name];
  if (FILES[name]) return FILES[name];
  if (segments.length >= 2 && segments[0] === 'agents') return AGENT_CARDS;
  if (endsWith(segments, ['.github', 'copilot-instructions.md'])) return 'GitHub Copilot reads .github/copilot-instructions.md into every prompt';
  for (const rule of rules) if (endsWith(segments, rule)) return `${rule.join('/')} is a rules file ([context].rules_files): it is read into every agent's system prompt`;
  return undefined;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

function endsWith(path: readonly string[], suffix: readonly string[]): boolean {
  return suffix.length <= path.length && suffix.every((segment, i) => path[path.length - suffix.length + i] === segment);
}
