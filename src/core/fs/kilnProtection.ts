import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HearthConfig } from '../config/schema';
import type { ProtectedPathRules } from './protectedPaths';

/**
 * The configured part of the protected paths (DESIGN.md decision 15): `[context].rules_files`,
 * `agent_directories` (resolved as agent cards resolve them: `~` is home, relative from the
 * workspace root), and the workspace root besides the kiln, whose `.hearth/`, `agents/` and agent
 * configs count too.
 */
export function kilnProtection(config: Pick<HearthConfig, 'agent_directories' | 'context'>, where: { kilnRoot: string; workspaceRoot?: string; home?: string }): Omit<ProtectedPathRules, 'root'> {
  const home = where.home ?? homedir();
  const base = where.workspaceRoot ?? where.kilnRoot;
  const agentDirectories = config.agent_directories.map((dir) => resolve(base, dir === '~' || /^~[\\/]/.test(dir) ? join(home, dir.slice(1)) : dir));
  const otherRoots = where.workspaceRoot && resolve(where.workspaceRoot) !== resolve(where.kilnRoot) ? [where.workspaceRoot] : [];
  return { rulesFiles: config.context.rules_files, agentDirectories, otherRoots };
}

/** The same for an ACP agent's workspace (the root its writes are relative to), with the kiln as the other root. */
export function acpProtection(config: Pick<HearthConfig, 'agent_directories' | 'context' | 'kiln_path'>, workspaceRoot: string): Omit<ProtectedPathRules, 'root'> {
  const rules = kilnProtection(config, { kilnRoot: workspaceRoot, workspaceRoot });
  return { ...rules, otherRoots: config.kiln_path ? [resolve(workspaceRoot, config.kiln_path)] : [] };
}
