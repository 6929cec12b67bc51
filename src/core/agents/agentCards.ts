/**
 * Where agent cards come from and which one wins (DESIGN.md decision 9): the global directory,
 * each of `agent_directories`, `<kiln>/.hearth/agents/`, `<kiln>/agents/`, in that order; a later
 * card replaces an earlier one of the same name. The built-in `kiln` agent comes first of all, so
 * a global card named `kiln` can replace its prompt, but a `kiln` agent always exists. Cards in the
 * kiln come with whatever folder was opened (or were written by an agent), so they never replace
 * the built-in agent or a user's card (DESIGN.md decision 14): they only add names.
 */
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { ConfinedRoot } from '../fs/confinedRoot';
import type { AgentCard, AgentCardProblem } from './agentCard';
import type { AgentDescriptor } from './agentSession';

export const BUILTIN_AGENT_NAME = 'kiln';

export const BUILTIN_KILN_CARD: AgentCard = {
  name: BUILTIN_AGENT_NAME,
  description: 'Answers from your notes: searches, reads and (with your permission) edits the kiln.',
  source: 'builtin',
  systemPrompt: [
    'You are Hearth, an assistant working in a folder of markdown notes (the kiln).',
    'Use the tools to find and read notes before answering questions about them, and cite the note paths you used.',
    'Only create, change or delete notes when the user asks for it.',
    'If a tool fails, read its error and correct the call instead of repeating it.',
  ].join('\n'),
};

export interface CardDirectoryOptions {
  /** `<global config dir>/hearth` (locations.ts globalConfigDir). */
  globalConfigDir: string;
  /** `agent_directories`; `~` is the home folder, relative entries resolve from the workspace root. */
  agentDirectories: readonly string[];
  /** The home folder `~` stands for (tests); default os.homedir(). */
  home?: string;
  workspaceRoot: string;
  kilnRoot: string;
}

/** The folders inside the kiln that hold cards; their cards never shadow built-in or user cards. */
export function workspaceCardDirectories(kilnRoot: string): string[] {
  return [join(kilnRoot, '.hearth', 'agents'), join(kilnRoot, 'agents')];
}

/** The card directories in override order (earliest first). */
export function cardDirectories(options: CardDirectoryOptions): string[] {
  const dirs = [
    join(options.globalConfigDir, 'agents'),
    ...options.agentDirectories.map((dir) => resolve(options.workspaceRoot, expandHome(dir, options.home))),
    ...workspaceCardDirectories(options.kilnRoot),
  ];
  return dirs.filter((dir, index) => dirs.indexOf(dir) === index);
}

function expandHome(dir: string, home = homedir()): string {
  return dir === '~' || dir.startsWith('~/') || dir.startsWith('~\\') ? join(home, dir.slice(1)) : dir;
}

export interface LoadedCards {
  /** By name, the built-in included; each the last one found. */
  cards: Map<string, AgentCard>;
  problems: AgentCardProblem[];
}

/**
 * @param workspaceDirectories those of `directories` that lie in the kiln (workspaceCardDirectories):
 * a card there that has the name of the built-in agent or of a card from another directory is
 * reported and left out.
 */
export async function loadAgentCards(directories: readonly string[], workspaceDirectories: readonly string[] = []): Promise<LoadedCards> {
  const cards = new Map<string, AgentCard>([[BUILTIN_AGENT_NAME, BUILTIN_KILN_CARD]]);
  const problems: AgentCardProblem[] = [];
  /** Names a workspace card may not take: the built-in agent and every user card. */
  const reserved = new Map<string, string>([[BUILTIN_AGENT_NAME, 'the built-in agent']]);
  for (const dir of directories) {
    const inWorkspace = workspaceDirectories.includes(dir);
    // A kiln's cards become system prompts sent to a provider: read confined to the kiln, so a card
    // folder or card that is a link out of it (a cloned repository's `agents -> ~/.ssh`) is not read.
    const confined = inWorkspace ? kilnCardFiles(dir) : undefined;
    let names: string[];
    try {
      const entries = confined ? await confinedEntries(confined) : await readdir(dir, { withFileTypes: true });
      if (!entries) continue; // a kiln card folder that is not there, as a missing directory below
      names = entries.filter((entry) => entry.isFile() && /\.md$/i.test(entry.name)).map((entry) => entry.name).sort();
    } catch (error) {
      // A directory that does not exist is the normal case; anything else is worth saying.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push({ file: dir, reason: `cannot read the directory: ${(error as Error).message}` });
      continue;
    }
    const seenHere = new Map<string, string>();
    for (const name of names) {
      const file = join(dir, name);
      let text: string;
      try {
        text = confined ? (await confined.files.readText(`${confined.rel}/${name}`)).text : await readFile(file, 'utf8');
      } catch (error) {
        problems.push({ file, reason: `cannot read: ${(error as Error).message}` });
        continue;
      }
      // The card parser (YAML, zod) loads with the first card there is to read.
      const { parseAgentCard } = await import('./agentCard');
      const result = parseAgentCard(text, file);
      if ('problem' in result) {
        problems.push(result.problem);
        continue;
      }
      const owner = reserved.get(result.card.name);
      if (inWorkspace && owner !== undefined) {
        problems.push({ file, reason: `has the name of ${owner}; a card in the workspace never replaces it, so this one is ignored (rename it)` });
        continue;
      }
      if (!inWorkspace) reserved.set(result.card.name, `the card ${file}`);
      const earlier = seenHere.get(result.card.name);
      if (earlier) problems.push({ file, reason: `another card in the same directory (${earlier}) is also named "${result.card.name}"; this one wins` });
      seenHere.set(result.card.name, file);
      cards.set(result.card.name, result.card);
    }
  }
  return { cards, problems };
}

interface KilnCardFiles {
  files: ConfinedRoot;
  /** The card folder's path in the kiln (`agents` or `.hearth/agents`). */
  rel: string;
}

/** A card folder of workspaceCardDirectories with the kiln it lies in. */
function kilnCardFiles(dir: string): KilnCardFiles {
  const parent = dirname(dir);
  const kiln = basename(parent) === '.hearth' ? dirname(parent) : parent;
  return { files: new ConfinedRoot(kiln), rel: relative(kiln, dir).split(sep).join('/') };
}

/** The folder's entries, opened inside the kiln; undefined when the folder is not there. */
async function confinedEntries({ files, rel }: KilnCardFiles) {
  const folder = await files.directory(rel);
  if (!folder) return undefined;
  try {
    return await folder.entries();
  } finally {
    await folder.close();
  }
}

/** How a card is listed beside the external agents. */
export function describeCard(card: AgentCard): AgentDescriptor {
  return { name: card.name, kind: 'internal', description: card.description, available: true };
}
