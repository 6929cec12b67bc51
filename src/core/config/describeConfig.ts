/**
 * The effective configuration as TOML, each value followed by its source (DESIGN.md decision 1):
 * what `hearth config` prints and what "Hearth: Show Effective Config" shows. The text parses as
 * TOML; secrets written in plain text are masked (maskSecrets.ts), references (`{env:VAR}`) are
 * shown as written.
 */
import type { LoadedConfig } from './load';
import type { ConfigSource } from './problem';
import { formatKeyPath, type KeySegment } from './keyPath';
import { isTable } from './validateLayer';
import { maskConfigSecrets } from './maskSecrets';

export { MASKED_SECRET } from './maskSecrets';

export function formatEffectiveConfig(loaded: LoadedConfig): string {
  const lines: string[] = [
    '# Hearth effective configuration (read-only): each value is followed by its source',
    `# (default, global, workspace or env).`,
    `# global:    ${loaded.files.global}`,
    `# workspace: ${loaded.files.workspace}`,
  ];
  const errors = loaded.problems.filter((p) => p.severity === 'error').length;
  const warnings = loaded.problems.length - errors;
  if (loaded.problems.length > 0) lines.push(`# problems: ${errors} error(s), ${warnings} warning(s) — run \`hearth config check\``);
  lines.push('');
  emitTable(lines, maskConfigSecrets(loaded.config) as unknown as Record<string, unknown>, [], loaded.sources);
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function emitTable(lines: string[], table: Record<string, unknown>, segments: KeySegment[], sources: Record<string, ConfigSource>): void {
  const entries = Object.entries(table).filter(([, value]) => value !== undefined);
  const isArrayOfTables = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every(isTable);
  for (const [key, value] of entries) {
    if (isTable(value) || isArrayOfTables(value)) continue;
    const path = formatKeyPath([...segments, key]);
    lines.push(`${formatKeyPath([key])} = ${formatValue(key, value)}  # ${sources[path] ?? 'default'}`);
  }
  for (const [key, value] of entries) {
    const path = [...segments, key];
    if (isTable(value)) {
      const hasScalars = Object.values(value).some((v) => v !== undefined && !isTable(v) && !isArrayOfTables(v));
      const hasChildren = Object.keys(value).length > 0;
      if (hasScalars || !hasChildren) lines.push('', `[${formatKeyPath(path)}]`);
      emitTable(lines, value, path, sources);
    } else if (isArrayOfTables(value)) {
      (value as Record<string, unknown>[]).forEach((item, index) => {
        lines.push('', `[[${formatKeyPath(path)}]]`);
        emitArrayItem(lines, item, [...path, index], formatKeyPath(path), sources);
      });
    }
  }
}

/** An `[[array]]` element: its nested tables are written `[array.sub]` (they belong to the latest element). */
function emitArrayItem(lines: string[], item: Record<string, unknown>, segments: KeySegment[], header: string, sources: Record<string, ConfigSource>): void {
  const entries = Object.entries(item).filter(([, value]) => value !== undefined);
  for (const [key, value] of entries) {
    if (isTable(value)) continue;
    lines.push(`${formatKeyPath([key])} = ${formatValue(key, value)}  # ${sources[formatKeyPath([...segments, key])] ?? 'default'}`);
  }
  for (const [key, value] of entries) {
    if (!isTable(value)) continue;
    lines.push(`[${header}.${formatKeyPath([key])}]`);
    emitArrayItem(lines, value, [...segments, key], `${header}.${formatKeyPath([key])}`, sources);
  }
}

function formatValue(key: string, value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => formatValue('', v)).join(', ')}]`;
  if (isTable(value)) return `{ ${Object.entries(value).map(([k, v]) => `${formatKeyPath([k])} = ${formatValue(k, v)}`).join(', ')} }`;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(String(value));
}
