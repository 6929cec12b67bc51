/**
 * The models list as rows and as a text table: shared by `hearth models` and the editor's
 * "Hearth: List Models", so both show the same thing (active marker, sizes, errors in place).
 */
import type { ProviderModels } from './modelCatalog';
import type { ModelKind } from './modelKind';
import type { ProviderSettings } from './types';

export interface ModelRow {
  provider: string;
  type: string;
  model: string | null;
  active: boolean;
  /** `embedding` models cannot chat: pickers leave them out. Absent on error rows. */
  kind?: ModelKind;
  /** Parameter count in billions, where known. */
  size?: number;
  /** False for the active model when the provider's list does not contain it. */
  listed?: boolean;
  error?: string;
  code?: string;
}

/** The local runner lists `llama3.2:latest` for a configured `llama3.2`. */
export function sameModel(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const strip = (name: string) => name.replace(/:latest$/, '');
  return strip(a) === strip(b);
}

export function modelRows(listing: ProviderModels[], providers: ProviderSettings[], current: ProviderSettings): ModelRow[] {
  const rows: ModelRow[] = [];
  for (const entry of listing) {
    const settings = providers.find((p) => p.name === entry.provider);
    const isActiveProvider = entry.provider === current.name;
    if (entry.error) {
      const model = isActiveProvider ? current.model : settings?.model;
      rows.push({ provider: entry.provider, type: entry.type, model: model ?? null, active: isActiveProvider, error: entry.error.message, code: entry.error.code });
      continue;
    }
    let activeSeen = false;
    for (const model of entry.models) {
      const active = isActiveProvider && sameModel(model.id, current.model);
      activeSeen ||= active;
      rows.push({ provider: entry.provider, type: entry.type, model: model.id, active, kind: model.kind ?? 'chat', ...(model.parameterBillions !== undefined ? { size: model.parameterBillions } : {}) });
    }
    if (isActiveProvider && !activeSeen && current.model) {
      rows.push({ provider: entry.provider, type: entry.type, model: current.model, active: true, listed: false });
    }
  }
  return rows;
}

export function formatSize(billions: number | undefined): string {
  if (billions === undefined) return '';
  if (billions < 1) return `${Math.round(billions * 1000)}M`;
  return `${Number(billions.toFixed(1))}B`;
}

export function formatTable(rows: ModelRow[]): string {
  const width = (values: string[], min: number) => Math.max(min, ...values.map((v) => v.length));
  const pw = width(rows.map((r) => r.provider), 'PROVIDER'.length);
  const mw = Math.min(48, width(rows.map((r) => r.model ?? ''), 'MODEL'.length));
  const lines = [`  ${'PROVIDER'.padEnd(pw)}  ${'MODEL'.padEnd(mw)}  SIZE`];
  for (const row of rows) {
    const mark = row.active ? '*' : ' ';
    if (row.error) {
      lines.push(`${mark} ${row.provider.padEnd(pw)}  ${'(unavailable)'.padEnd(mw)}  ${row.error}`);
      continue;
    }
    const note = row.listed === false ? '  (configured; not in the provider\'s list)' : row.kind === 'embedding' ? '  (embedding model)' : '';
    lines.push(`${mark} ${row.provider.padEnd(pw)}  ${(row.model ?? '').padEnd(mw)}  ${formatSize(row.size)}${note}`.trimEnd());
  }
  return lines.join('\n') + '\n';
}
