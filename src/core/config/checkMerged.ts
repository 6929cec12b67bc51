/**
 * Rules that only make sense on the merged result, since either file may supply half of a table:
 * a provider needs a `type`, a custom provider an endpoint, server names and prefixes are unique,
 * and `[llm].default` names a provider that exists. Each problem is reported in the file (and on
 * the entry) that wrote the offending table.
 */
import { HearthConfigSchema, type HearthConfig } from './schema';
import type { ConfigProblem, ConfigProblemCode } from './problem';
import { formatKeyPath, type KeySegment } from './keyPath';
import type { Layer, MergedLayers } from './mergeLayers';
import { didYouMean } from './didYouMean';
import { describeIssue } from './validateLayer';

/** Turns a path in the merged config into a problem located in the right file. */
export class MergedLocator {
  constructor(
    private readonly merged: MergedLayers,
    private readonly layers: readonly Layer[],
  ) {}

  problem(segments: KeySegment[], code: ConfigProblemCode, severity: 'error' | 'warning', message: string): ConfigProblem {
    const [a, b, index, ...rest] = segments;
    if (a === 'mcp' && b === 'servers' && typeof index === 'number' && this.merged.servers[index]) {
      const origin = this.merged.servers[index];
      const layer = this.layers.find((l) => l.source === origin.source);
      const fileSegments = ['mcp', 'servers', origin.fileIndex, ...rest];
      const at = layer?.locator?.nearest(fileSegments);
      return { file: layer?.file, line: at?.line, column: at?.column, keyPath: formatKeyPath(fileSegments), severity, code, message };
    }
    const layer = this.layerFor(segments);
    const at = layer?.locator?.nearest(segments);
    return { file: layer?.file, line: at?.line, column: at?.column, keyPath: formatKeyPath(segments), severity, code, message };
  }

  /** The highest layer that wrote the key or, failing that, the nearest table around it. */
  private layerFor(segments: KeySegment[]): Layer | undefined {
    for (let n = segments.length; n > 0; n--) {
      const prefix = formatKeyPath(segments.slice(0, n));
      let found: 'global' | 'workspace' | undefined;
      for (const [key, source] of this.merged.sources) {
        if (key !== prefix && !key.startsWith(`${prefix}.`) && !key.startsWith(`${prefix}[`)) continue;
        if (source === 'workspace') found = 'workspace';
        else if (source === 'global' && !found) found = 'global';
      }
      if (found) return this.layers.find((l) => l.source === found);
    }
    return undefined;
  }
}

/** Drops what cannot be used (providers without a type, duplicate servers) and reports every rule broken. */
export function checkMerged(config: HearthConfig, merged: MergedLayers, where: MergedLocator, problems: ConfigProblem[]): void {
  for (const [name, provider] of Object.entries(config.llm.providers)) {
    if ((provider as { type?: string }).type !== undefined) continue;
    delete config.llm.providers[name];
    // An invalid `type` was reported where it is written; a second "missing" would only confuse.
    const typePath = formatKeyPath(['llm', 'providers', name, 'type']);
    if (problems.some((p) => p.keyPath === typePath && p.code === 'config.invalid_value')) continue;
    problems.push(where.problem(['llm', 'providers', name, 'type'], 'config.missing_key', 'error', `[llm.providers.${name}] is missing the required key \`type\`; the provider is ignored.`));
  }

  const dropServers = new Set<number>();
  const parsed = HearthConfigSchema.safeParse(config);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const segments = issue.path as KeySegment[];
      const value = segments.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k as PropertyKey], config);
      const isServer = segments[0] === 'mcp' && segments[1] === 'servers' && typeof segments[2] === 'number';
      if (issue.code === 'custom' && isServer) {
        dropServers.add(segments[2] as number);
        problems.push(where.problem(segments, 'config.duplicate', 'error', `${issue.message[0].toUpperCase()}${issue.message.slice(1)}; this entry is ignored.`));
      } else if (issue.code === 'custom') {
        problems.push(where.problem(segments, value === undefined ? 'config.missing_key' : 'config.invalid_value', 'error', `${issue.message[0].toUpperCase()}${issue.message.slice(1)}.`));
      } else {
        problems.push(where.problem(segments, 'config.invalid_value', 'error', `\`${formatKeyPath(segments)}\` ${describeIssue(issue, value)}.`));
      }
    }
  }
  // Highest index first so the earlier indices stay valid.
  for (const index of [...dropServers].sort((x, y) => y - x)) {
    config.mcp.servers.splice(index, 1);
    merged.servers.splice(index, 1);
  }

  const active = config.llm.default;
  const names = Object.keys(config.llm.providers);
  if (active !== undefined && !names.includes(active)) {
    const suggestion = didYouMean(active, names);
    const known = names.length === 0 ? 'No [llm.providers.<name>] table is defined.' : suggestion ? `Did you mean "${suggestion}"?` : `Defined providers: ${names.join(', ')}.`;
    const problem = where.problem(['llm', 'default'], 'config.unknown_provider', 'warning', `[llm].default names "${active}", but there is no [llm.providers.${active}]. ${known}`);
    problems.push(suggestion ? { ...problem, fix: { replace: active, with: suggestion } } : problem);
  }
  // DESIGN.md decision 4: with [llm.providers], [llm].default picks the provider; [chat].provider
  // only describes the implicit one. A written one that asks for another type than the active
  // provider's would otherwise be dropped without a word (the same type, as in the template, is harmless).
  const chatProvider = merged.sources.get('chat.provider');
  const activeName = active !== undefined && names.includes(active) ? active : names[0];
  const activeType = activeName === undefined ? undefined : (config.llm.providers[activeName] as { type?: string }).type;
  if (activeType !== undefined && (chatProvider === 'global' || chatProvider === 'workspace') && config.chat.provider !== activeType) {
    problems.push(
      where.problem(
        ['chat', 'provider'],
        'config.ignored_key',
        'warning',
        `\`chat.provider\` = "${config.chat.provider}" is ignored while [llm.providers] are configured: [llm].default chooses the active provider ("${activeName}", ${activeType}).`,
      ),
    );
  }
}
