/**
 * What `hearth models` and `hearth ask` share: the loaded config (problems to stderr), a redacting
 * stderr logger, the model selection, provider construction (no githubcopilot factory: the CLI has
 * no language-model API, so that type reports "only inside the editor") and a model catalog whose
 * answers survive between runs in a small cache file (5 minutes, `--refresh` to bypass).
 */
import { dirname, join } from 'node:path';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { LoadedConfig } from '../core/config/load';
import { userCacheDir } from '../core/config/locations';
import type { Logger } from '../core/host';
import { LlmRuntime } from '../core/llm/llmRuntime';
import type { ModelCatalog, ProviderModels } from '../core/llm/modelCatalog';
import type { ModelSelection } from '../core/llm/modelSelection';
import type { ProviderDeps } from '../core/llm/providerDeps';
import type { LlmProvider, ProviderSettings } from '../core/llm/types';
import { createCliContext, type CliContext, type CommonFlags } from './cliContext';
import type { TrustNeeds } from './cliTrust';
import type { CliIo } from './cliIo';

export interface LlmContext {
  /** The shared CLI context (host, workspace root, config problems). */
  cli: CliContext;
  loaded: LoadedConfig;
  log: Logger;
  selection: ModelSelection;
  deps: ProviderDeps;
  provider(settings: ProviderSettings): LlmProvider;
  catalog: ModelCatalog;
  /** Writes the catalog's successful answers back to the cache file (best effort). */
  saveCatalog(): Promise<void>;
}

export async function createLlmContext(io: CliIo, flags: CommonFlags, base?: CliContext, trustNeeds: TrustNeeds = { areas: ['llm'] }): Promise<LlmContext> {
  const cli = base ?? (await createCliContext(io, flags, { trustNeeds }));
  const { loaded, redactor } = cli;
  const log = cli.host.log;
  cli.reportConfigProblems();
  // Keys arrive resolved in each provider's settings (loaded.keys); providers read no variable.
  const deps: ProviderDeps = { redactor, log };
  // No factories: githubcopilot then reports that it only works inside the editor.
  const runtime = new LlmRuntime(() => loaded, deps);
  const { selection, catalog } = runtime;
  const provider = (settings: ProviderSettings) => runtime.provider(settings);
  const cacheFile = join(userCacheDir(io.env), 'models.json');
  try {
    catalog.seed(JSON.parse(await readFile(cacheFile, 'utf8')) as Record<string, ProviderModels>);
  } catch {
    // No cache yet, or an unreadable one: list afresh.
  }
  const saveCatalog = async () => {
    try {
      await mkdir(dirname(cacheFile), { recursive: true });
      const temp = `${cacheFile}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(await catalog.snapshot()));
      await rename(temp, cacheFile);
    } catch (error) {
      log.debug(`model cache not saved: ${(error as Error).message}`);
    }
  };
  return { cli, loaded, log, selection, deps, provider, catalog, saveCatalog };
}
