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
  'llm.request_failed': 'Check the provider in "Hearth: Show Effective Config", then Retry; details are in "Hearth: Show Log".',
};

export function editorRemedy(code: string): string | undefined {
  return EDITOR_REMEDIES[code as ErrorCode];
}
