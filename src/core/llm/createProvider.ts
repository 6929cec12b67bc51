/**
 * Builds the provider for a configured type. Hosts may supply factories for types the core cannot
 * serve itself: the editor passes one for `githubcopilot` (VS Code's Language Model API); the CLI
 * passes none, so that type fails with a clear "only inside the editor" error.
 */
import { CloudBProvider } from './cloudBProvider';
import { LlmError } from './errors';
import { LocalRunnerProvider } from './localRunnerProvider';
import { OpenAiCompatibleProvider } from './openaiCompatibleProvider';
import type { ProviderDeps } from './providerDeps';
import type { LlmProvider, ProviderSettings } from './types';
import type { LlmProviderType } from '../config/providerTypes';

export type ProviderFactory = (settings: ProviderSettings, deps: ProviderDeps) => LlmProvider;

/** Host-supplied factories by type; they win over the built-in ones. */
export type ProviderFactories = Partial<Record<LlmProviderType, ProviderFactory>>;

export function createProvider(settings: ProviderSettings, deps: ProviderDeps, factories: ProviderFactories = {}): LlmProvider {
  try {
    return build(settings, deps, factories);
  } catch (error) {
    // A misconfigured provider (custom without endpoint) must fail on use, beside the others in
    // the model list, not break whoever builds every provider.
    if (error instanceof LlmError) return new UnavailableProvider(settings, error);
    throw error;
  }
}

function build(settings: ProviderSettings, deps: ProviderDeps, factories: ProviderFactories): LlmProvider {
  const hosted = factories[settings.type];
  if (hosted) return hosted(settings, deps);
  switch (settings.type) {
    case 'local_runner':
      return new LocalRunnerProvider(settings, deps);
    case 'cloud_b':
      return new CloudBProvider(settings, deps);
    case 'cloud_a':
    case 'custom':
    case 'openrouter':
    case 'zai':
    case 'cohere':
    case 'vertexai':
      return new OpenAiCompatibleProvider(settings, deps);
    case 'githubcopilot':
      return new UnavailableProvider(
        settings,
        new LlmError(
          'llm.editor_only',
          `provider "${settings.name}" (githubcopilot) is only available inside the editor (it uses VS Code's language model API); choose another provider for the CLI, e.g. \`hearth ask --model <provider>/<model>\`.`,
          settings.name,
        ),
      );
    default:
      return new UnavailableProvider(settings, new LlmError('llm.unknown_provider', `provider "${settings.name}" has an unknown type "${String(settings.type)}"`, settings.name));
  }
}

/** Stands in for a provider that cannot run here; every call fails with the stored error. */
class UnavailableProvider implements LlmProvider {
  constructor(
    readonly settings: ProviderSettings,
    private readonly reason: LlmError,
  ) {}

  async listModels(): Promise<never> {
    throw this.reason;
  }

  // eslint-disable-next-line require-yield
  async *chat(): AsyncGenerator<never> {
    throw this.reason;
  }
}
