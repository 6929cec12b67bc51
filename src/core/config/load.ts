/**
 * Loads the effective configuration: both files, layered per key, env overrides last, every value
 * with its source, every problem with file/line/column. Never throws (DESIGN.md decision 3): a bad
 * configuration must never break the editor or the CLI.
 */
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { HearthConfigSchema, defaultConfig, type HearthConfig } from './schema';
import type { ConfigProblem, ConfigSource } from './problem';
import { canonicalEmbeddingType, canonicalLlmType, canonicalProviderType } from './providerTypes';
import { globalConfigPath, homeFolder, workspaceConfigPath } from './locations';
import { parseConfigText, readConfigText } from './parseToml';
import { validateLayer, isTable } from './validateLayer';
import { leafPaths, mergeLayers, type Layer, type MergedLayers } from './mergeLayers';
import { fillDefaults } from './fillDefaults';
import { applyEnvOverrides } from './envOverrides';
import { checkMerged, MergedLocator } from './checkMerged';
import { formatKeyPath, type KeySegment } from './keyPath';
import { withheldProblem, withholdUntrusted, type WithheldKey } from './trustGatedKeys';
import { fallBackFromWithheldProvider, withoutMissingWithheld } from './restrictedFallback';
import { loadSecretStore, NO_PROVIDER_KEYS, resolveProviderKeys, SECRET_READ_TIMEOUT_MS, type ProviderKeys } from './providerKeys';
import { registerConfigSecrets } from './configSecrets';
import type { SecretStore } from '../host';
import type { Redactor } from '../logging/redactor';

export interface LoadOptions {
  workspaceRoot: string;
  env?: NodeJS.ProcessEnv;
  /** Overrides the per-platform location (tests, `--global-config`). */
  globalConfigPath?: string;
  /**
   * Whether the workspace folder is trusted (DESIGN.md decision 14). When false, the workspace
   * file's trust-gated keys are dropped before the merge and each is reported as a warning.
   */
  trusted: boolean;
  /** How this host grants trust, for the warnings: "Workspace Trust" in the editor, "`hearth trust`" in the CLI. */
  trustName?: string;
  /** The host's secret store for `{secret:NAME}` (the editor's SecretStorage; the CLI's reads variable NAME). */
  secrets?: SecretStore;
  /** Every secret the configuration reaches is registered with it (configSecrets.ts). */
  redactor?: Redactor;
  /** How long to wait for the secret store (default SECRET_READ_TIMEOUT_MS; tests shorten it). */
  secretTimeoutMs?: number;
}

export interface LoadedConfig {
  /** Validated, defaults filled, env overrides applied, provider types canonical, kiln_path absolute. */
  config: HearthConfig;
  /** Dotted leaf key path (`chat.temperature`, `mcp.servers[0].prefix`) → where its value came from. */
  sources: Record<string, ConfigSource>;
  problems: ConfigProblem[];
  files: { global: string; workspace: string };
  trusted: boolean;
  /** Workspace keys ignored because the folder is not trusted; empty when trusted. */
  withheld: WithheldKey[];
  /** The providers' keys, read once here (providerKeys.ts); providers receive these, never the variables. */
  keys: ProviderKeys;
}

export async function loadConfig(options: LoadOptions): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const problems: ConfigProblem[] = [];
  let files = { global: options.globalConfigPath ?? '', workspace: '' };
  try {
    files = { global: options.globalConfigPath ?? globalConfigPath(env), workspace: workspaceConfigPath(options.workspaceRoot) };
    const layers: Layer[] = [];
    const withheld: WithheldKey[] = [];
    for (const source of ['global', 'workspace'] as const) {
      const file = files[source];
      const text = readConfigText(file, problems);
      if (text === undefined) continue;
      const { data, locator } = parseConfigText(text, file, problems);
      let validated = validateLayer(data, { source, file, locator, problems });
      if (source === 'workspace' && !options.trusted) {
        const filtered = withholdUntrusted({ ...validated, file, locator, workspaceRoot: options.workspaceRoot, home: homeFolder(env) });
        validated = filtered;
        withheld.push(...filtered.withheld);
        for (const key of filtered.withheld) problems.push(withheldProblem(key, options.trustName ?? 'trust'));
      }
      layers.push({ source, file, locator, ...validated });
    }
    const merged = mergeLayers(layers);
    const config = fillDefaults(HearthConfigSchema, merged.data) as HearthConfig;
    canonicalizeTypes(config);
    applyEnvOverrides(config, merged.sources, env, problems);
    const fallback = options.trusted ? undefined : fallBackFromWithheldProvider(config, merged, layers, withheld, options.trustName ?? 'trust');
    if (fallback) problems.push(fallback);
    const locator = new MergedLocator(merged, layers);
    const checked: ConfigProblem[] = [];
    checkMerged(config, merged, locator, checked);
    problems.push(...withoutMissingWithheld(checked, withheld));
    config.kiln_path = resolveKilnPath(config.kiln_path, options.workspaceRoot, env);
    await checkKilnPath(config.kiln_path, merged, locator, problems);
    // After the trust filter: a withheld api_key or {env:} reference is never read.
    const secrets = options.secrets && loadSecretStore(options.secrets, options.secretTimeoutMs ?? SECRET_READ_TIMEOUT_MS, (name) => problems.push(slowSecretProblem(name)));
    const secretSources = { env, secrets, redactor: options.redactor };
    if (options.redactor) await registerConfigSecrets(config, { ...secretSources, redactor: options.redactor });
    const keys = await resolveProviderKeys(config, secretSources);
    return { config, sources: collectSources(config, merged), problems: sortProblems(problems, files), files, trusted: options.trusted, withheld, keys };
  } catch (error) {
    // A bug here must not take the host down: report it and run on defaults.
    problems.push({ keyPath: '', severity: 'error', code: 'config.internal', message: `Hearth could not load its configuration (${error instanceof Error ? error.message : String(error)}); defaults apply.` });
    const config = defaultConfig();
    config.kiln_path = path.resolve(options.workspaceRoot || '.');
    // Nothing of the workspace file applied, so nothing is withheld on trust's account.
    const sources = collectSources(config, { data: {}, sources: new Map(), servers: [] });
    return { config, sources, problems, files, trusted: options.trusted, withheld: [], keys: NO_PROVIDER_KEYS };
  }
}

function slowSecretProblem(name: string): ConfigProblem {
  const message = `The secret store did not answer for "${name}"; {secret:${name}} counts as unset (or reads the variable ${name}) until the configuration reloads.`;
  return { keyPath: `secrets.${name}`, severity: 'warning', code: 'config.secret_unavailable', message };
}

/** Global file first, then the workspace file, then environment problems; by position within a file. */
function sortProblems(problems: ConfigProblem[], files: { global: string; workspace: string }): ConfigProblem[] {
  const rank = (p: ConfigProblem) => (p.file === files.global ? 0 : p.file === files.workspace ? 1 : 2);
  // Array.prototype.sort is stable, so problems on the same line keep the order they were found in.
  return [...problems].sort((a, b) => rank(a) - rank(b) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** `ollama`/`openai`/`anthropic` become `local_runner`/`cloud_a`/`cloud_b` everywhere a type is. */
function canonicalizeTypes(config: HearthConfig): void {
  config.chat.provider = canonicalProviderType(config.chat.provider);
  config.embedding.provider = canonicalEmbeddingType(config.embedding.provider);
  for (const provider of Object.values(config.llm.providers)) {
    if (provider.type !== undefined) provider.type = canonicalLlmType(provider.type);
  }
}

/**
 * A kiln_path that names no folder is almost always a typo: without this warning the index and
 * the kiln tools would quietly find no notes (and the index would make the folder).
 */
async function checkKilnPath(kilnPath: string, merged: MergedLayers, locator: MergedLocator, problems: ConfigProblem[]): Promise<void> {
  const source = merged.sources.get('kiln_path');
  if (source === undefined || source === 'default') return;
  const isFolder = await stat(kilnPath).then((info) => info.isDirectory(), () => false);
  if (isFolder) return;
  const message = `kiln_path is ${kilnPath}, which is not an existing folder; no notes are found there until it exists.`;
  if (source === 'env') problems.push({ keyPath: 'env.HEARTH_KILN_PATH', severity: 'warning', code: 'config.missing_path', message: `HEARTH_KILN_PATH: ${message}` });
  else problems.push(locator.problem(['kiln_path'], 'config.missing_path', 'warning', message));
}

/** `~` expanded, relative paths resolved against the workspace root; unset means the root itself. */
export function resolveKilnPath(value: string | undefined, workspaceRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  if (value === undefined || value.trim() === '') return path.resolve(workspaceRoot);
  let text = value.trim();
  const home = homeFolder(env);
  if (home && (text === '~' || text.startsWith('~/') || text.startsWith('~\\'))) text = path.join(home, text.slice(1));
  return path.resolve(workspaceRoot, text);
}

function collectSources(config: HearthConfig, merged: MergedLayers): Record<string, ConfigSource> {
  const out: Record<string, ConfigSource> = {};
  const walk = (value: unknown, segments: KeySegment[]): void => {
    if (value === undefined) return;
    const key = formatKeyPath(segments);
    if (key === 'mcp.servers' && Array.isArray(value)) {
      if (value.length === 0) out[key] = 'default';
      value.forEach((server: Record<string, unknown>, index) => {
        const origin = merged.servers[index];
        for (const rel of leafPaths(server, [])) out[`${formatKeyPath([...segments, index])}.${rel}`] = origin?.written.has(rel) ? origin.source : 'default';
      });
    } else if (isTable(value)) {
      for (const [child, inner] of Object.entries(value)) walk(inner, [...segments, child]);
    } else {
      out[key] = merged.sources.get(key) ?? 'default';
    }
  };
  walk(config, []);
  return out;
}
