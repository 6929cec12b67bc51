/**
 * "Hearth: Check Local Runner" in words: whether each configured local runner answers, and whether
 * the model it is configured to use is among the models it has (a runner that answers but lacks the
 * model fails every chat turn with an error that points elsewhere).
 */
import type { ProviderModels } from './modelCatalog';
import { sameModel } from './modelTable';

export interface RunnerReport {
  line: string;
  /** The runner did not answer, or answered without the configured model. */
  problem: boolean;
}

export function runnerReport(entry: ProviderModels, configuredModel: string | undefined): RunnerReport {
  const where = `${entry.provider} (${entry.endpoint ?? 'default endpoint'})`;
  if (entry.error) return { line: `${where}: ${entry.error.message}`, problem: true };
  const chat = entry.models.filter((m) => m.kind !== 'embedding');
  const listed = `${chat.length} chat model${chat.length === 1 ? '' : 's'}${chat.length ? `: ${chat.slice(0, 5).map((m) => m.id).join(', ')}${chat.length > 5 ? ', …' : ''}` : ''}`;
  if (configuredModel && !entry.models.some((m) => sameModel(m.id, configuredModel))) {
    return { line: `${where} answers, but the configured model "${configuredModel}" is not installed there (it has ${listed}). Install it on the runner, or choose one of these with "Hearth: Switch Model".`, problem: true };
  }
  return { line: `${where} answers with ${listed}${configuredModel ? `; the configured "${configuredModel}" is there` : ''}.`, problem: false };
}
