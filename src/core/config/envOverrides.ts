/**
 * Environment overrides, applied after both files (DESIGN.md decision 1, "Names"):
 * `HEARTH_KILN_PATH` → `kiln_path`; `LOCAL_RUNNER_HOST` (fallback `OLLAMA_HOST`) → the endpoint of
 * local_runner providers (chat, `[llm.providers]`, embedding) that set none; `CLOUD_A_API_KEY`/`OPENAI_API_KEY` and
 * `CLOUD_B_API_KEY`/`ANTHROPIC_API_KEY` → the api_key of cloud_a / cloud_b providers that set
 * none, stored as an `{env:VAR}` reference so the key itself never sits in the config object.
 * This is the only place these variables are applied: the runner provider and embedder take the
 * endpoint config resolved, and providerKeys.ts reads the keys' values once per load.
 */
import type { HearthConfig } from './schema';
import type { ConfigProblem, ConfigSource } from './problem';
import { LOCAL_RUNNER_DEFAULT_URL, PROVIDER_ENV } from './providerTypes';
import { formatKeyPath } from './keyPath';

const LOCAL_RUNNER_PORT = new URL(LOCAL_RUNNER_DEFAULT_URL).port;

function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  return names.find((name) => (env[name] ?? '').trim() !== '');
}

/**
 * A runner host as the local runner's own tools accept it (`host`, `host:port`, or a URL) as an
 * http(s) URL; no port means the runner's default port, and the bind-all address means this machine.
 */
function normalizeRunnerHost(value: string): string | undefined {
  let text = value.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const hasPort = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]*\]|[^/:]*):\d+/i.test(text);
  if (!hasPort && url.port === '') url.port = LOCAL_RUNNER_PORT;
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export function applyEnvOverrides(config: HearthConfig, sources: Map<string, ConfigSource>, env: NodeJS.ProcessEnv, problems: ConfigProblem[]): void {
  const kilnVar = firstSet(env, PROVIDER_ENV.kiln_path);
  if (kilnVar) {
    config.kiln_path = env[kilnVar]!.trim();
    sources.set('kiln_path', 'env');
  }

  const hostVar = firstSet(env, PROVIDER_ENV.local_runner_host);
  if (hostVar) {
    const endpoint = normalizeRunnerHost(env[hostVar]!);
    if (!endpoint) {
      problems.push({ keyPath: `env.${hostVar}`, severity: 'warning', code: 'config.env_override', message: `${hostVar}=${JSON.stringify(env[hostVar])} is not a host, host:port or http(s) URL; it is ignored.` });
    } else {
      for (const [name, provider] of Object.entries(config.llm.providers)) {
        if (provider.type !== 'local_runner' || provider.endpoint !== undefined) continue;
        provider.endpoint = endpoint;
        sources.set(formatKeyPath(['llm', 'providers', name, 'endpoint']), 'env');
      }
      if (config.chat.provider === 'local_runner' && config.chat.endpoint === undefined) {
        config.chat.endpoint = endpoint;
        sources.set('chat.endpoint', 'env');
      }
      // The runner also serves embeddings: the same host applies to an embedding runner without api_url.
      if (config.embedding.provider === 'local_runner' && config.embedding.api_url === undefined) {
        config.embedding.api_url = endpoint;
        sources.set('embedding.api_url', 'env');
      }
    }
  }

  for (const type of ['cloud_a', 'cloud_b'] as const) {
    const keyVar = firstSet(env, PROVIDER_ENV[type]);
    if (!keyVar) continue;
    for (const [name, provider] of Object.entries(config.llm.providers)) {
      if (provider.type !== type || provider.api_key !== undefined) continue;
      provider.api_key = `{env:${keyVar}}`;
      sources.set(formatKeyPath(['llm', 'providers', name, 'api_key']), 'env');
    }
  }
}
