/**
 * What a user can do about a failed model request, by error code (spec section 7), shown beside
 * the error in the conversation. The LlmError message already names the provider and details.
 */
import type { ErrorCode } from '../../errors';

const REMEDIES: Partial<Record<ErrorCode, string>> = {
  'llm.unreachable': 'Start the model server (for the local runner: `ollama serve`) or fix the endpoint; `hearth models` shows which providers answer.',
  'llm.unauthorized': 'Verify that the environment variable (or api_key) named above holds a valid key.',
  // A hosted provider without a key (MissingSecretError, raised where the resolved key is used).
  'config.missing_secret': 'Set the API key in the environment variable named above, or use "Hearth: Set API Key".',
  'llm.model_not_found': 'For the local runner pull the model first (`ollama pull NAME`); for hosted providers check the name with `hearth models`.',
  'llm.timeout': 'Raise timeout_secs for this provider, or try again.',
  'llm.editor_only': 'Choose another provider for the CLI (`--model provider/model`).',
  'llm.unknown_provider': 'Use a provider named in [llm.providers] (`hearth models` lists them).',
  'llm.missing_endpoint': 'Set endpoint for this provider in the config.',
  'llm.overloaded': 'Try again in a minute, or use another model for now (`--model provider/model`; `hearth models` lists them).',
  'llm.request_failed': 'Check the provider settings and try again; run with --verbose for details.',
};

export function llmRemedy(code: string): string | undefined {
  return REMEDIES[code as ErrorCode];
}
