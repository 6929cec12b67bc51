/**
 * Models across every configured provider (DESIGN.md decision 5): queried in parallel, each
 * provider's failure kept beside the others' models, cached for 5 minutes with an explicit refresh.
 * Used by `hearth models`, the editor's switcher and `:model` in chat.
 */
import { createHash } from 'node:crypto';
import { describeError, errorCode, type ErrorCode } from '../errors';
import { modelKind } from './modelKind';
import type { LlmProviderType } from '../config/providerTypes';
import type { LlmProvider, ModelInfo, ProviderSettings } from './types';

export const MODEL_CACHE_TTL_MS = 5 * 60_000;

export interface ProviderModels {
  provider: string;
  type: LlmProviderType;
  endpoint?: string;
  models: ModelInfo[];
  /** Why this provider could not be listed; its models are then empty. */
  error?: { code: ErrorCode; message: string };
  /** When this entry was fetched (ms since epoch); tells a cached answer from a fresh one. */
  fetchedAt: number;
}

/**
 * What determines a provider's answer, so an edited endpoint, type or key is not served stale (a key
 * set with "Set API Key" re-lists at once). The key is hashed: the CLI writes these keys to a cache file.
 */
export function catalogKey(settings: ProviderSettings): string {
  const key = settings.apiKeyRef || settings.apiKey ? createHash('sha256').update(`${settings.apiKeyRef ?? ''}\0${settings.apiKey ?? ''}`).digest('hex').slice(0, 16) : '';
  return JSON.stringify([settings.name, settings.type, settings.endpoint ?? '', key]);
}

export interface ModelCatalogOptions {
  ttlMs?: number;
  now?: () => number;
}

export class ModelCatalog {
  private readonly cache = new Map<string, Promise<ProviderModels>>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    /** The providers as configured right now; called on every list so config edits are picked up. */
    private readonly providers: () => LlmProvider[],
    options: ModelCatalogOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? MODEL_CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** All providers' models in configuration order; `refresh` bypasses (and replaces) the cache. */
  async list(options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<ProviderModels[]> {
    return Promise.all(this.providers().map((provider) => this.forProvider(provider, options)));
  }

  /** Forget everything (e.g. after a key was set). */
  invalidate(): void {
    this.cache.clear();
  }

  /**
   * Successful answers, for a host that keeps the cache across processes (the CLI writes them to
   * a file). Failures are left out: a runner started a moment later must show up at once.
   */
  async snapshot(): Promise<Record<string, ProviderModels>> {
    const out: Record<string, ProviderModels> = {};
    for (const [key, pending] of this.cache) {
      const entry = await pending;
      if (!entry.error) out[key] = entry;
    }
    return out;
  }

  /** Loads answers saved by `snapshot`; entries older than the TTL are ignored when listing. */
  seed(entries: Record<string, ProviderModels>): void {
    for (const [key, entry] of Object.entries(entries)) {
      if (entry && Array.isArray(entry.models) && typeof entry.fetchedAt === 'number' && !entry.error) this.cache.set(key, Promise.resolve(entry));
    }
  }

  /** One provider's models through the same cache (the status bar probes only the active one). */
  async forProvider(provider: LlmProvider, options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<ProviderModels> {
    const key = catalogKey(provider.settings);
    const cached = this.cache.get(key);
    if (cached && !options.refresh) {
      const entry = await cached;
      if (this.now() - entry.fetchedAt < this.ttlMs) return entry;
    }
    const pending = this.fetch(provider, options.signal);
    this.cache.set(key, pending);
    return pending;
  }

  private async fetch(provider: LlmProvider, signal?: AbortSignal): Promise<ProviderModels> {
    const { settings } = provider;
    const base = { provider: settings.name, type: settings.type, ...(settings.endpoint ? { endpoint: settings.endpoint } : {}) };
    try {
      const models = (await provider.listModels(signal)).map((m) => ({ ...m, kind: m.kind ?? modelKind(m.id) }));
      return { ...base, models, fetchedAt: this.now() };
    } catch (error) {
      return { ...base, models: [], error: { code: errorCode(error, 'llm.request_failed'), message: describeError(error) }, fetchedAt: this.now() };
    }
  }
}
