/**
 * Saves a chat model choice into the user's config or the workspace's (issue 29 "choices that
 * stick and never break a file"). A file must stay valid on its own: the workspace file is read by
 * teammates, CI and the CLI without the user's global config, and the global file by every other
 * workspace. So when the chosen provider is defined only in the other file, its complete non-secret
 * definition (type, endpoint, default model, the other settings) is copied with the choice; a key
 * stays only as a `{env:}`/`{secret:}` reference, a literal one is left out with a note; an endpoint
 * carrying a credential refuses the save, saying why. The result is loaded alone, by the loader
 * `hearth config check` uses, before anything is written: an error the edit would add refuses it.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'smol-toml';
import { HearthError } from '../errors';
import { planConfigEdit, readConfigFile, setConfigValues, type ConfigAssignment, type ConfigScalar } from './edit';
import { WORKSPACE_DIR_NAME, CONFIG_FILE_NAME } from './locations';
import { loadConfig } from './load';
import { maskConfigSecrets } from './maskSecrets';
import type { ConfigProblem, ConfigSource } from './problem';
import { apiKeyEnvHint, parseSecretReference } from './resolveSecret';

export type ConfigTarget = 'user' | 'workspace';

/** The model chat uses now: a `[llm.providers]` name (or the implicit `[chat]` provider) and its model. */
export interface ModelChoice {
  provider: string;
  model?: string;
  /** No `[llm.providers]`: `[chat]` describes the one provider. */
  implicit?: boolean;
}

export interface SaveModelChoiceOptions {
  target: ConfigTarget;
  files: { global: string; workspace: string };
  /** Where each effective value came from (LoadedConfig.sources). */
  sources: Readonly<Record<string, ConfigSource>>;
}

export interface SavedModelChoice {
  file: string;
  /** Dotted keys written, e.g. `llm.default`. */
  keys: string[];
  /** What the user should know: a key left out, a variable teammates need, a value that wins elsewhere. */
  notes: string[];
}

/** The save would leave a file that is invalid on its own or carries a secret; nothing was written. */
export class ModelChoiceRefusedError extends HearthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config.save_refused', message, options);
  }
}

const TOML_OPTIONS = { integersAsBigInt: 'asNeeded' } as const;
/** Copied first, in this order, so a copied table reads as one written by hand. */
const KEY_ORDER = ['type', 'endpoint', 'default_model', 'api_key'];

/** Writes the choice into the target file (created when missing); throws ModelChoiceRefusedError and writes nothing when it cannot. */
export async function saveModelChoice(choice: ModelChoice, options: SaveModelChoiceOptions): Promise<SavedModelChoice> {
  const file = options.target === 'user' ? options.files.global : options.files.workspace;
  const other = options.target === 'user' ? options.files.workspace : options.files.global;
  const [targetText, otherText] = await Promise.all([readConfigFile(file), readConfigFile(other).catch(() => '')]);
  const plan = planModelChoice(choice, { ...options, file, other, targetText, otherText });
  const edited = planConfigEdit(targetText, plan.assignments, file);
  await checkAlone(options.target, targetText, edited, file);
  await setConfigValues(file, plan.assignments);
  return { file, keys: plan.assignments.map((a) => a.keyPath.join('.')), notes: plan.notes };
}

interface PlanInput extends SaveModelChoiceOptions {
  file: string;
  other: string;
  targetText: string;
  otherText: string;
}

/** The keys to write and the notes, from both files' text; throws ModelChoiceRefusedError. */
export function planModelChoice(choice: ModelChoice, input: PlanInput): { assignments: ConfigAssignment[]; notes: string[] } {
  const targetDoc = parseDoc(input.targetText, input.file);
  const otherDoc = parseDoc(input.otherText, input.other);
  const assignments: ConfigAssignment[] = [];
  const notes: string[] = [];
  const where = input.target === 'user' ? 'your user config' : "this workspace's .hearth/config.toml";
  const otherName = input.target === 'user' ? 'the workspace config' : 'your user config';

  if (choice.implicit) {
    // The one provider [chat] describes: its type and endpoint travel with the model when only the other file sets them.
    const targetChat = table(targetDoc, ['chat']);
    for (const key of ['provider', 'endpoint']) {
      const value = table(otherDoc, ['chat'])[key];
      if (targetChat[key] !== undefined || value === undefined || input.sources[`chat.${key}`] === 'default') continue;
      if (key === 'endpoint') refuseCredential(`chat.endpoint`, value, input.other, where);
      if (isScalar(value)) assignments.push({ keyPath: ['chat', key], value });
    }
    if (choice.model) assignments.push({ keyPath: ['chat', 'model'], value: choice.model });
    return { assignments, notes };
  }

  const name = choice.provider;
  assignments.push({ keyPath: ['llm', 'default'], value: name });
  const own = table(targetDoc, ['llm', 'providers', name]);
  const theirs = table(otherDoc, ['llm', 'providers', name]);
  if (own.type === undefined) {
    if (theirs.type === undefined) {
      throw new ModelChoiceRefusedError(`Cannot save "${name}" to ${where}: neither config file defines [llm.providers.${name}] with its \`type\`, so the saved choice would name a provider that does not exist there.`);
    }
    const keys = Object.keys(theirs).sort((a, b) => rank(a) - rank(b));
    for (const key of keys) {
      if (own[key] !== undefined || (key === 'default_model' && choice.model)) continue;
      const value = theirs[key];
      if (!isScalar(value)) continue;
      if (key === 'api_key') {
        const kind = typeof value === 'string' ? parseSecretReference(value).kind : 'literal';
        if (kind === 'literal') {
          notes.push(`The api_key of "${name}" in ${otherName} is a literal key: it was not copied. ${keyAdvice(String(theirs.type))}`);
          continue;
        }
      }
      if (key === 'endpoint') refuseCredential(`llm.providers.${name}.endpoint`, value, input.other, where);
      assignments.push({ keyPath: ['llm', 'providers', name, key], value });
    }
    if (theirs.api_key === undefined && apiKeyEnvHint(String(theirs.type))) notes.push(`"${name}" reads its key from the environment: ${keyAdvice(String(theirs.type))}`);
    notes.unshift(`[llm.providers.${name}] was defined only in ${otherName}; its definition was copied so the file works on its own.`);
  }
  if (choice.model) assignments.push({ keyPath: ['llm', 'providers', name, 'default_model'], value: choice.model });
  // [chat].model set in a file overrides the provider's default_model for chat (DESIGN.md decision 4).
  const chatModel = input.sources['chat.model'];
  if (choice.model && (chatModel === 'global' || chatModel === 'workspace')) assignments.push({ keyPath: ['chat', 'model'], value: choice.model });
  if (input.target === 'user' && input.sources['llm.default'] === 'workspace') {
    notes.push("This workspace's .hearth/config.toml sets [llm].default, which wins in this workspace; the choice applies to the others.");
  }
  return { assignments: dedupe(assignments), notes };
}

function keyAdvice(type: string): string {
  const variable = apiKeyEnvHint(type);
  return `Whoever uses it sets ${variable ? `${variable} or ` : ''}a key with "Hearth: Set API Key" (or writes api_key = "{env:VAR}").`;
}

/** An endpoint with a user:password, a token as user name or a key in its query must not be copied into another file. */
function refuseCredential(keyPath: string, value: unknown, from: string, where: string): void {
  if (typeof value !== 'string') return;
  const masked = maskConfigSecrets({ endpoint: value }).endpoint;
  if (masked === value) return;
  throw new ModelChoiceRefusedError(
    `Cannot copy \`${keyPath}\` from ${from} into ${where}: the URL carries a credential (${masked}). Write the credential as {env:VAR} in ${from}, or save the choice to the config that defines the provider.`,
  );
}

/**
 * Loads the target file alone (no other config file, no environment), as `hearth config check` would
 * for someone who has only it, before and after the edit: an error the edit adds refuses the save.
 */
async function checkAlone(target: ConfigTarget, before: string, after: string, file: string): Promise<void> {
  const [was, now] = await Promise.all([errorsAlone(target, before), errorsAlone(target, after)]);
  const known = new Set(was.map((p) => `${p.keyPath}\u0000${p.message}`));
  const added = now.filter((p) => !known.has(`${p.keyPath}\u0000${p.message}`));
  if (added.length > 0) {
    throw new ModelChoiceRefusedError(`Saving would leave ${file} invalid for someone without the other config file: ${added.map((p) => p.message).join(' ')} Nothing was written.`);
  }
}

async function errorsAlone(target: ConfigTarget, text: string): Promise<ConfigProblem[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'hearth-save-'));
  try {
    const workspaceRoot = path.join(scratch, 'ws');
    const alone = path.join(scratch, CONFIG_FILE_NAME);
    const file = target === 'user' ? alone : path.join(workspaceRoot, WORKSPACE_DIR_NAME, CONFIG_FILE_NAME);
    await mkdir(path.dirname(file), { recursive: true });
    await mkdir(workspaceRoot, { recursive: true });
    await writeFile(file, text, 'utf8');
    const globalConfigPath = target === 'user' ? alone : path.join(scratch, 'no-global.toml');
    const loaded = await loadConfig({ workspaceRoot, globalConfigPath, trusted: true, env: {} });
    return loaded.problems.filter((p) => p.severity === 'error');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function parseDoc(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text, TOML_OPTIONS) as Record<string, unknown>;
  } catch (error) {
    throw new ModelChoiceRefusedError(`${file} has a TOML syntax error; fix it before Hearth can save the model choice.`, { cause: error });
  }
}

function table(doc: Record<string, unknown>, keyPath: string[]): Record<string, unknown> {
  let node: unknown = doc;
  for (const key of keyPath) node = node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : {};
}

function isScalar(value: unknown): value is ConfigScalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function rank(key: string): number {
  const at = KEY_ORDER.indexOf(key);
  return at < 0 ? KEY_ORDER.length : at;
}

/** The last assignment of a key wins (default_model set both as copied and as chosen). */
function dedupe(assignments: ConfigAssignment[]): ConfigAssignment[] {
  const last = new Map(assignments.map((a) => [a.keyPath.join('\u0000'), a]));
  return assignments.filter((a) => last.get(a.keyPath.join('\u0000')) === a);
}
