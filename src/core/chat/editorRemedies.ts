/**
 * The one remedy an error box in the chat panel shows, naming editor commands (a user in the editor
 * has no `hearth models` at hand) and no provider-specific shell advice. Keyed by error code; codes
 * without an entry keep the agent's own remedy.
 */
import type { ErrorCode } from '../errors';

const EDITOR_REMEDIES: Partial<Record<ErrorCode, string>> = {
  'llm.unreachable': 'Start the model server or fix the endpoint, then Retry ("Hearth: Check Local Runner" tests the local runner).',
  'llm.unauthorized': 'Set a valid key with "Hearth: Set API Key", then Retry.',
  'config.missing_secret': 'Set the key with "Hearth: Set API Key", then Retry.',
  'llm.model_not_found': 'Choose a model the provider has with "Hearth: Switch Model" (or install this one), then Retry.',
  'llm.timeout': 'Retry, or raise timeout_secs for this provider ("Hearth: Open Workspace Config").',
  'llm.unknown_provider': 'Choose a configured model with "Hearth: Switch Model".',
  'llm.missing_endpoint': 'Set endpoint for this provider ("Hearth: Open Workspace Config").',
  'llm.overloaded': 'Retry in a minute, or pick another model for now with "Hearth: Switch Model".',
  'llm.request_failed': 'Check the provider in "Hearth: Show Effective Config", then Retry; details are in "Hearth: Show Log".',
};

/** Errors a withheld endpoint or key explains: the provider was reached with the defaults instead. */
const TRUST_EXPLAINS = new Set<string>(['llm.unreachable', 'llm.unauthorized', 'config.missing_secret', 'llm.missing_endpoint', 'llm.request_failed', 'llm.model_not_found']);

/**
 * `waitingForTrust`: the workspace keys that Restricted Mode withholds from the chat's provider
 * (providerKeysWaitingForTrust). "Fix the endpoint" misleads a user whose endpoint is set but waits.
 */
export function editorRemedy(code: string, waitingForTrust: readonly string[] = []): string | undefined {
  if (waitingForTrust.length > 0 && TRUST_EXPLAINS.has(code)) {
    const keys = waitingForTrust.map((key) => `\`${key}\``).join(', ');
    return `This folder is in Restricted Mode: ${keys} in its .hearth/config.toml ${waitingForTrust.length === 1 ? 'waits' : 'wait'} for Workspace Trust, so the provider's defaults were used. Trust the folder ("Manage Workspace Trust"), then Retry.`;
  }
  return EDITOR_REMEDIES[code as ErrorCode];
}

/** The withheld keys (LoadedConfig.withheld) that shape chat with `provider`: its table and `[chat]`. */
export function providerKeysWaitingForTrust(withheld: readonly { keyPath: string }[], provider: string): string[] {
  return withheld.map((key) => key.keyPath).filter((path) => path.startsWith(`llm.providers.${provider}.`) || path === `llm.providers.${provider}` || path.startsWith('chat.'));
}
