/**
 * Restricted Mode and the chosen provider: a workspace `[llm].default` whose provider lost its
 * endpoint or key to trust would send every chat to a provider that cannot work (and its error's
 * only remedy, "trust the folder", is the one thing not to do in a folder one does not trust). So
 * the chat uses the user's global choice (the global file's `[llm].default`; without one, the
 * reference defaults) until the folder is trusted, and one warning on the workspace's line says so.
 * A required key that waits for trust is reported by that trust warning alone, never as missing.
 */
import type { HearthConfig } from './schema';
import type { Layer, MergedLayers } from './mergeLayers';
import type { ConfigProblem } from './problem';
import type { WithheldKey } from './trustGatedKeys';

export function fallBackFromWithheldProvider(
  config: HearthConfig,
  merged: MergedLayers,
  layers: readonly Layer[],
  withheld: readonly WithheldKey[],
  trustName: string,
): ConfigProblem | undefined {
  const chosen = config.llm.default;
  if (!chosen || merged.sources.get('llm.default') !== 'workspace') return undefined;
  const lost = withheld.filter((key) => key.keyPath.startsWith(`llm.providers.${chosen}.`));
  if (lost.length === 0) return undefined;
  const workspace = layers.find((layer) => layer.source === 'workspace');
  const globalChoice = (layers.find((layer) => layer.source === 'global')?.data.llm as { default?: unknown } | undefined)?.default;
  if (typeof globalChoice === 'string' && globalChoice !== chosen) {
    config.llm.default = globalChoice;
    merged.sources.set('llm.default', 'global');
  } else {
    delete config.llm.default;
    merged.sources.delete('llm.default');
  }
  const where = workspace?.locator?.nearest(['llm', 'default']);
  const keys = lost.map((key) => `\`${key.keyPath}\``).join(', ');
  const instead = config.llm.default ? `your global choice "${config.llm.default}"` : 'the default provider';
  return {
    file: workspace?.file ?? '',
    line: where?.line,
    column: where?.column,
    keyPath: 'llm.default',
    severity: 'warning',
    code: 'config.untrusted_key',
    message: `\`llm.default\` = "${chosen}" is not used in Restricted Mode: ${keys} of that provider ${lost.length === 1 ? 'waits' : 'wait'} for ${trustName}. Chat uses ${instead} until you trust this folder.`,
  };
}

/** Drops "missing key" errors for keys that are there but wait for trust (their trust warning stands). */
export function withoutMissingWithheld(problems: ConfigProblem[], withheld: readonly WithheldKey[]): ConfigProblem[] {
  if (withheld.length === 0) return problems;
  const waiting = new Set(withheld.map((key) => key.keyPath));
  return problems.filter((problem) => !(problem.code === 'config.missing_key' && problem.keyPath !== undefined && waiting.has(problem.keyPath)));
}
