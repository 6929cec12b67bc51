/**
 * The whole configuration surface (spec/config-reference.md, DESIGN.md decisions 1–13) as zod
 * schemas, one per section. Types come from the schemas; defaults live here and nowhere else.
 * They are zod/mini's: every start of the CLI and the editor builds them, and with zod's chaining
 * API loading zod and building them took ~13 ms, ~8 ms this way.
 * Objects are strict so unknown keys surface as problems ("did you mean …") instead of being
 * silently ignored.
 */
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import * as z from 'zod/mini';
import {
  CHAT_PROVIDER_TYPES,
  EMBEDDING_PROVIDER_TYPES,
  LLM_PROVIDER_TYPES,
  PROVIDER_TYPE_ALIAS_NAMES,
} from './providerTypes';

const temperature = z.number().check(z.minimum(0), z.maximum(2));

/** `temperature` of `[chat]` and provider tables; cloud_b sends no temperature while it is this (cloudBProvider.ts). */
export const DEFAULT_TEMPERATURE = 0.7;
/** `[[mcp.servers]].max_message_mb`; also the bound of a stdio server's transport built without a config. */
export const DEFAULT_MCP_MAX_MESSAGE_MB = 64;
const positiveInt = z.int().check(z.minimum(1));
const nonEmpty = z.string().check(z.minLength(1, 'must not be empty'));
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** The schema with a description (config.schema.json shows it): a copy, as a shared schema may be described in one place only. */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  return schema.check(z.describe(description)) as T;
}

/** Provider names including the accepted aliases (`ollama`, `openai`, `anthropic`). */
const withAliases = <T extends readonly string[]>(types: T) => z.enum([...types, ...PROVIDER_TYPE_ALIAS_NAMES] as unknown as [string, ...string[]]);

export const ChatSchema = z.strictObject({
  model: described(z.optional(nonEmpty), 'Model name; defaults to the provider default'),
  provider: described(z._default(withAliases(CHAT_PROVIDER_TYPES), 'local_runner'), 'One of local_runner, cloud_a, cloud_b'),
  agent_preference: described(z._default(z.enum(['acp', 'internal']), 'acp'), 'acp: prefer external agents; internal: prefer internal agents'),
  endpoint: described(z.optional(url), 'Custom API endpoint URL; defaults to the provider default'),
  temperature: z._default(temperature, DEFAULT_TEMPERATURE),
  max_tokens: z._default(positiveInt, 2048),
  timeout_secs: z._default(positiveInt, 120),
  enable_markdown: z._default(z.boolean(), true),
  size_aware_prompts: described(z._default(z.boolean(), true), 'Models under 4B parameters get tool guidance and read-only tools'),
  review_edits: described(
    z._default(z.enum(['always', 'destructive', 'never']), 'always'),
    'Which agent edits open as a diff to accept or reject: always, destructive (deletes and overwrites), never',
  ),
  auto_context: described(
    z._default(z.boolean(), true),
    'Add the top hybrid search hits for each message (a few sections with path and lines) to what the agent sees',
  ),
});

export const AcpAgentProfileSchema = z.strictObject({
  extends: described(z.optional(nonEmpty), 'Another agent whose definition this profile builds on'),
  command: described(z.optional(nonEmpty), 'Path of the executable to run'),
  args: z.optional(z.array(z.string())),
  env: described(z.optional(z.record(z.string(), z.string())), 'Environment for the agent process; {env:VAR} is resolved'),
});

export const AcpSchema = z.strictObject({
  default_agent: described(z.optional(nonEmpty), 'Default agent; auto-discovered when unset'),
  enable_discovery: z._default(z.boolean(), true),
  session_timeout_minutes: z._default(positiveInt, 30),
  max_message_size_mb: z._default(positiveInt, 25),
  streaming_timeout_minutes: z._default(positiveInt, 15),
  lazy_agent_selection: z._default(z.boolean(), true),
  agents: z._default(z.record(z.string(), AcpAgentProfileSchema), {}),
});

export const EmbeddingSchema = z
  .strictObject({
    provider: z._default(withAliases(EMBEDDING_PROVIDER_TYPES), 'local_cpu'),
    model: described(z.optional(nonEmpty), 'Model name, or a local folder path for local_cpu; provider default when unset'),
    api_url: z.optional(url),
    batch_size: z._default(positiveInt, 16),
    max_concurrent: described(z.optional(positiveInt), 'Provider default when unset'),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.provider === 'cloud_b' || value.provider === 'anthropic') {
        if (!value.api_url) ctx.addIssue({ code: 'custom', path: ['api_url'], message: 'embedding provider cloud_b needs api_url (an OpenAI-compatible embeddings endpoint)' });
        if (!value.model) ctx.addIssue({ code: 'custom', path: ['model'], message: 'embedding provider cloud_b needs model' });
      }
      if ((value.provider === 'local_gpu_a' || value.provider === 'local_gpu_b') && !value.model) {
        ctx.addIssue({ code: 'custom', path: ['model'], message: `embedding provider ${value.provider} needs model` });
      }
    }),
  );

export const DEFAULT_RULES_FILES = ['AGENTS.md', '.rules', '.github/copilot-instructions.md'];

/**
 * A rules file is named relative to each folder from the git root down; `..` or an absolute path
 * would pull any file on disk into the system prompt, so those are refused in every folder.
 */
export function isConfinedRulesName(name: string): boolean {
  return !path.posix.isAbsolute(name) && !path.win32.isAbsolute(name) && !name.split(/[\\/]/).includes('..');
}

export const ContextSchema = z.strictObject({
  rules_files: described(
    z._default(z.array(nonEmpty.check(z.refine(isConfinedRulesName, 'entries must be paths inside the folder (no "..", not absolute)'))), DEFAULT_RULES_FILES),
    'Replaces the default list when set',
  ),
});

export const CliSchema = z.strictObject({
  show_progress: z._default(z.boolean(), true),
  confirm_destructive: z._default(z.boolean(), true),
  verbose: z._default(z.boolean(), false),
});

export const LlmProviderSchema = z
  .strictObject({
    type: described(withAliases(LLM_PROVIDER_TYPES), 'Provider backend'),
    default_model: z.optional(nonEmpty),
    endpoint: z.optional(url),
    api_key: described(z.optional(z.string()), 'Key, {env:VAR}, or {secret:NAME}'),
    temperature: z._default(temperature, DEFAULT_TEMPERATURE),
    max_tokens: z._default(positiveInt, 4096),
    timeout_secs: z._default(positiveInt, 120),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.type === 'custom' && !value.endpoint) {
        ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'a provider of type custom needs an endpoint' });
      }
    }),
  );

export const LlmSchema = z.strictObject({
  default: described(z.optional(nonEmpty), 'Name of the provider used by default'),
  providers: z._default(z.record(z.string().check(z.regex(/^[A-Za-z0-9_-]+$/, 'provider names use letters, digits, _ and -')), LlmProviderSchema), {}),
});

export const PREFIX_PATTERN = /^[A-Za-z0-9_]*_$/;

const StdioTransportSchema = z.strictObject({
  type: z.literal('stdio'),
  command: nonEmpty,
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string(), z.string()), {}),
});
const SseTransportSchema = z.strictObject({
  type: z.literal('sse'),
  url,
  auth_header: described(z.optional(z.string()), 'Sent as the Authorization header; {env:VAR} is resolved'),
  oauth_client_id: described(z.optional(nonEmpty), 'OAuth client ID registered with the server; dynamic registration when unset'),
  oauth_scopes: described(z.optional(z.array(nonEmpty)), 'OAuth scopes asked for at sign-in (`hearth mcp login NAME`)'),
});
const HttpTransportSchema = z.strictObject({
  type: z.literal('http'),
  url,
  auth_header: described(z.optional(z.string()), 'Sent as the Authorization header; {env:VAR} is resolved'),
  oauth_client_id: described(z.optional(nonEmpty), 'OAuth client ID registered with the server; dynamic registration when unset'),
  oauth_scopes: described(z.optional(z.array(nonEmpty)), 'OAuth scopes asked for at sign-in (`hearth mcp login NAME`)'),
});
export const TransportSchema = z.discriminatedUnion('type', [StdioTransportSchema, SseTransportSchema, HttpTransportSchema]);

export const McpServerSchema = z.strictObject({
  name: described(nonEmpty, 'Unique identifier of the upstream'),
  prefix: described(z.string().check(z.regex(PREFIX_PATTERN, 'prefix must be non-empty, use only A-Z a-z 0-9 _ and end with _')), 'Prefix for tool names; ends with _'),
  transport: TransportSchema,
  allowed_tools: described(z.optional(z.array(nonEmpty)), 'Whitelist of glob patterns; all tools when unset'),
  blocked_tools: described(z._default(z.array(nonEmpty), []), 'Blacklist of glob patterns; wins over allowed_tools'),
  auto_reconnect: z._default(z.boolean(), true),
  timeout_secs: described(z._default(positiveInt, 30), 'Tool call timeout'),
  max_message_mb: described(
    z._default(positiveInt, DEFAULT_MCP_MAX_MESSAGE_MB),
    'Largest message the server may send, in MB; a larger one (or, over stdio, 100 non-JSON lines in a row) ends the connection, which reconnects with backoff',
  ),
});

export const McpSchema = z.strictObject({
  servers: z._default(
    z.array(McpServerSchema).check(
      z.superRefine((servers, ctx) => {
        const names = new Map<string, number>();
        const prefixes = new Map<string, number>();
        servers.forEach((server, index) => {
          const nameAt = names.get(server.name);
          if (nameAt !== undefined) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate server name "${server.name}" (also at entry ${nameAt + 1})` });
          else names.set(server.name, index);
          const prefixAt = prefixes.get(server.prefix);
          if (prefixAt !== undefined) ctx.addIssue({ code: 'custom', path: [index, 'prefix'], message: `duplicate prefix "${server.prefix}" (also used by "${servers[prefixAt].name}")` });
          else prefixes.set(server.prefix, index);
        });
      }),
    ),
    [],
  ),
});

/** A literal database URL is checked here (a located config error); a reference is checked once resolved. */
function isDatabaseUrl(value: string): boolean {
  if (/^\s*\{(env|secret):[^}]+\}\s*$/.test(value) || /^[A-Z][A-Z0-9_]*$/.test(value)) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const ProcessingSchema = z.strictObject({
  store: described(
    z._default(z.enum(['flat', 'vectra', 'postgres']), 'flat'),
    'flat: compact binary store; vectra: the vectra package; postgres: a shared PostgreSQL + pgvector database (database_url)',
  ),
  database_url: described(
    z.optional(
      z
        .string()
        .check(
          z.refine(
            isDatabaseUrl,
            'database_url must be a postgres:// or postgresql:// URL (host, optional port, database; pool and TLS settings such as sslmode in the query), "{env:VAR}" or "{secret:NAME}"',
          ),
        ),
    ),
    'store = "postgres": postgres://user@host:5432/db?sslmode=require, "{env:VAR}" or "{secret:NAME}"',
  ),
  kiln_id: described(
    z.optional(z.string().check(z.regex(/^[\x21-\x7e]{1,200}$/, 'kiln_id must be 1-200 printable characters without spaces'))),
    "This kiln's namespace in a shared database; default: the git remote (userinfo stripped; a kiln below the repository root adds its folder inside it), else the folder name and a short hash of its real path",
  ),
  parallel_workers: z._default(positiveInt, () => Math.max(1, Math.floor(availableParallelism() / 2))),
  exclude: described(z._default(z.array(nonEmpty), []), 'Globs; .git, node_modules and .hearth are always excluded'),
  max_file_size_kb: z._default(positiveInt, 1024),
});

export const ChangesSchema = z.strictObject({
  keep_days: described(z._default(positiveInt, 30), 'Journaled agent changes older than this are pruned'),
  max_mb: described(z._default(positiveInt, 100), 'The change journal is pruned (oldest first) to stay under this size'),
});

export const LoggingSchema = z.strictObject({
  level: z._default(z.enum(['error', 'warn', 'info', 'debug', 'trace']), 'info'),
});

export const HearthConfigSchema = z.strictObject({
  kiln_path: described(z.optional(nonEmpty), 'Path to the notes directory; the workspace root when unset'),
  agent_directories: described(z._default(z.array(nonEmpty), []), 'Extra directories searched for agent cards'),
  chat: z.prefault(ChatSchema, {}),
  acp: z.prefault(AcpSchema, {}),
  embedding: z.prefault(EmbeddingSchema, {}),
  context: z.prefault(ContextSchema, {}),
  cli: z.prefault(CliSchema, {}),
  llm: z.prefault(LlmSchema, {}),
  mcp: z.prefault(McpSchema, {}),
  processing: z.prefault(ProcessingSchema, {}),
  logging: z.prefault(LoggingSchema, {}),
  changes: z.prefault(ChangesSchema, {}),
});

export type HearthConfig = z.infer<typeof HearthConfigSchema>;
export type ChatConfig = z.infer<typeof ChatSchema>;
export type AcpConfig = z.infer<typeof AcpSchema>;
export type AcpAgentProfile = z.infer<typeof AcpAgentProfileSchema>;
export type EmbeddingConfig = z.infer<typeof EmbeddingSchema>;
export type ContextConfig = z.infer<typeof ContextSchema>;
export type CliConfig = z.infer<typeof CliSchema>;
export type LlmConfig = z.infer<typeof LlmSchema>;
export type LlmProviderConfig = z.infer<typeof LlmProviderSchema>;
export type McpServerConfig = z.infer<typeof McpServerSchema>;
export type TransportConfig = z.infer<typeof TransportSchema>;
export type ProcessingConfig = z.infer<typeof ProcessingSchema>;
export type LoggingConfig = z.infer<typeof LoggingSchema>;
export type ChangesConfig = z.infer<typeof ChangesSchema>;

/** The configuration with nothing set: every default. */
export function defaultConfig(): HearthConfig {
  return HearthConfigSchema.parse({});
}
