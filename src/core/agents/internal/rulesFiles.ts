/**
 * Rules files (DESIGN.md decision 8, spec 2.7): every configured name found from the git root down
 * to the workspace directory, outermost first, so a deeper (more specific) file comes later in the
 * system prompt and wins where they disagree. Without a git root only the workspace directory counts.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isConfinedRulesName } from '../../config/schema';

export interface RulesFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the git root (or the workspace), as shown in the prompt. */
  label: string;
  text: string;
}

/** Rules files larger than this are cut: a stray huge file must not eat the model's context. */
const MAX_RULES_BYTES = 64 * 1024;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The nearest directory at or above `dir` holding `.git` (a directory or a worktree's file). */
export async function findGitRoot(dir: string): Promise<string | undefined> {
  let current = resolve(dir);
  for (;;) {
    if (await exists(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Directories from `top` down to `bottom` inclusive; just `bottom` when it is not inside `top`. */
function chain(top: string, bottom: string): string[] {
  const rel = relative(top, bottom);
  if (rel.startsWith('..') || resolve(top, rel) !== bottom) return [bottom];
  const dirs = [top];
  let current = top;
  for (const part of rel.split(sep).filter(Boolean)) {
    current = join(current, part);
    dirs.push(current);
  }
  return dirs;
}

export async function findRulesFiles(workspaceDir: string, names: readonly string[]): Promise<RulesFile[]> {
  const bottom = resolve(workspaceDir);
  const root = (await findGitRoot(bottom)) ?? bottom;
  const found: RulesFile[] = [];
  // The schema refuses these already; names can also come from elsewhere than a config file.
  const confined = names.filter(isConfinedRulesName);
  for (const dir of chain(root, bottom)) {
    for (const name of confined) {
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      const raw = await readFile(path).catch(() => undefined);
      if (!raw) continue;
      const text = raw.subarray(0, MAX_RULES_BYTES).toString('utf8').trim();
      if (text) found.push({ path, label: relative(root, path).split(sep).join('/'), text });
    }
  }
  return found;
}

/** The rules as one system-prompt section, each file under a separator naming it; '' when none. */
export function formatRules(files: readonly RulesFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map((file) => `--- ${file.label} ---\n${file.text}`);
  return `Project rules (from the repository root down to the workspace; later files take priority):\n\n${parts.join('\n\n')}`;
}
