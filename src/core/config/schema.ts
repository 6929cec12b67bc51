/**
 * The whole configuration surface (spec/config-reference.md, DESIGN.md decisions 1–13) as zod
 * schemas, one per section. Types come from the schemas; defaults live here and nowhere else.
 * Objects are strict so unknown keys surface as problems ("did you mean …") instead of being
 * silently ignored.
 */
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import * as z from 'zod';
import {
  CHAT_PROVIDER_TYPES,
  EMBEDDING_PROVIDER_TYPES,
  LLM_PROVIDER_TYPES,
  PROVIDER_TYPE_ALIAS_NAMES,
} from './providerTypes';

const temperature = z.number().min(0).max(2);

/** `temperature` of `[chat]` and provider tables; cloud_b sends no temperature while it is this (cloudBProvider.ts). */
export const DEFAULT_TEMPERATURE = 0.7;
/** `[[mcp.servers]].max_message_mb`; also the bound of a stdio server's transport built without a config. */
export const DEFAULT_MCP_MAX_MESSAGE_MB = 64;
const positiveInt = z.int().min(1);
const nonEmpty = z.string().min(1, 'must not be empty');
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** Provider names including the accepted aliases (`ollama`, `openai`, `anthropic`). */
const withAliases = <T extends readonly string[]>(types: T) => z.enum([...types, ...PROVIDER_TYPE_ALIAS_NAMES] as unknown as [string, ...string[]]);

export const ChatSchema = z.strictObject({
  model: nonEmpty.optional().describe('Model name; defaults to the provider default'),
  provider: withAliases(CHAT_PROVIDER_TYPES).default('local_runner').describe('One of local_runner, cloud_a, cloud_b'),
  agent_preference: z.enum(['acp', 'internal']).default('acp').describe('acp: prefer external agents; internal: prefer internal agents'),
  endpoint: url.optional().describe('Custom API endpoint URL; defaults to the provider default'),
  temperature: temperature.default(DEFAULT_TEMPERATURE),
  max_tokens: positiveInt.default(2048),
  timeout_secs: positiveInt.default(120),
  enable_markdown: z.boolean().default(true),
  size_aware_prompts: z.boolean().default(true).describe('Models under 4B parameters get tool guidance and read-only tools'),
  review_edits: z
    .enum(['always', 'destructive', 'never'])
    .default('always')
    .describe('Which agent edits open as a diff to accept or reject: always, destructive (deletes and overwrites), never'),
  auto_context: z
    .boolean()
    .default(true)
    .describe('Add the top hybrid search hits for each message (a few sections with path and lines) to what the agent sees'),
});

export const AcpAgentProfileSchema = z.strictObject({
  extends: nonEmpty.optional().describe('Another agent whose definition this profile builds on'),
  command: nonEmpty.optional().describe('Path of the executable to run'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional().describe('Environment for the agent process; {env:VAR} is resolved'),
});

export const AcpSchema = z.strictObject({
  default_agent: nonEmpty.optional().describe('Default agent; auto-discovered when unset'),
  enable_discovery: z.boolean().default(true),
  session_timeout_minutes: positiveInt.default(30),
  max_message_size_mb: positiveInt.default(25),
  streaming_timeout_minutes: positiveInt.default(15),
  lazy_agent_selection: z.boolean().default(true),
  agents: z.record(z.string(), AcpAgentProfileSchema).default({}),
});

export const EmbeddingSchema = z
  .strictObject({
    provider: withAliases(EMBEDDING_PROVIDER_TYPES).default('local_cpu'),
    model: nonEmpty.optional().describe('Model name, or a local folder path for local_cpu; provider default when unset'),
    api_url: url.optional(),
    batch_size: positiveInt.default(16),
    max_concurrent: positiveInt.optional().describe('Provider default when unset'),
  })
  .superRefine((value, ctx) => {
    if (value.provider === 'cloud_b' || value.provider === 'anthropic') {
      if (!value.api_url) ctx.addIssue({ code: 'custom', path: ['api_url'], message: 'embedding provider cloud_b needs api_url (an OpenAI-compatible embeddings endpoint)' });
      if (!value.model) ctx.addIssue({ code: 'custom', path: ['model'], message: 'embedding provider cloud_b needs model' });
    }
    if ((value.provider === 'local_gpu_a' || value.provider === 'local_gpu_b') && !value.model) {
      ctx.addIssue({ code: 'custom', path: ['model'], message: `embedding provider ${value.provider} needs model` });
    }
  });

export const DEFAULT_RULES_FILES = ['AGENTS.md', '.rules', '.github/copilot-instructions.md'];

/**
 * A rules file is named relative to each folder from the git root down; `..` or an absolute path
 * would pull any file on disk into the system prompt, so those are refused in every folder.
 */
export function isConfinedRulesName(name: string): boolean {
  return !path.posix.isAbsolute(name) && !path.win32.isAbsolute(name) && !name.split(/[\\/]/).includes('..');
}

export const ContextSchema = z.strictObject({
  rules_files: z.array(nonEmpty.refine(isConfinedRulesName, 'entries must be paths inside the folder (no "..", not absolute)')).default(DEFAULT_RULES_FILES).describe('Replaces the default list when set'),
});

export const CliSchema = z.strictObject({
  show_progress: z.boolean().default(true),
  confirm_destructive: z.boolean().default(true),
  verbose: z.boolean().default(false),
});

export const LlmProviderSchema = z
  .strictObject({
    type: withAliases(LLM_PROVIDER_TYPES).describe('Provider backend'),
    default_model: nonEmpty.optional(),
    endpoint: url.optional(),
    api_key: z.string().optional().describe('Key, {env:VAR}, or {secret:NAME}'),
    temperature: temperature.default(DEFAULT_TEMPERATURE),
    max_tokens: positiveInt.default(4096),
    timeout_secs: positiveInt.default(120),
  })
  .superRefine((value, ctx) => {
    if (value.type === 'custom' && !value.endpoint) {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'a provider of type custom needs an endpoint' });
    }
  });

export const LlmSchema = z.strictObject({
  default: nonEmpty.optional().describe('Name of the provider used by default'),
  providers: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'provider names use letters, digits, _ and -'), LlmProviderSchema).default({}),
});

export const PREFIX_PATTERN = /^[A-Za-z0-9_]*_$/;

const StdioTransportSchema = z.strictObject({
  type: z.literal('stdio'),
  command: nonEmpty,
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
});
const SseTransportSchema = z.strictObject({
  type: z.literal('sse'),
  url,
  auth_header: z.string().optional().describe('Sent as the Authorization header; {env:VAR} is resolved'),
});
const HttpTransportSchema = z.strictObject({
  type: z.literal('http'),
  url,
  auth_header: z.string().optional().describe('Sent as the Authorization header; {env:VAR} is resolved'),
});
export const TransportSchema = z.discriminatedUnion('type', [StdioTransportSchema, SseTransportSchema, HttpTransportSchema]);

export const McpServerSchema = z.strictObject({
  name: nonEmpty.describe('Unique identifier of the upstream'),
  prefix: z.string().regex(PREFIX_PATTERN, 'prefix must be non-empty, use only A-Z a-z 0-9 _ and end with _').describe('Prefix for tool names; ends with _'),
  transport: TransportSchema,
  allowed_tools: z.array(nonEmpty).optional().describe('Whitelist of glob patterns; all tools when unset'),
  blocked_tools: z.array(nonEmpty).default([]).describe('Blacklist of glob patterns; wins over allowed_tools'),
  auto_reconnect: z.boolean().default(true),
  timeout_secs: positiveInt.default(30).describe('Tool call timeout'),
  max_message_mb: positiveInt.default(DEFAULT_MCP_MAX_MESSAGE_MB).describe('Largest message the server may send, in MB; a larger one (or, over stdio, 100 non-JSON lines in a row) ends the connection, which reconnects with backoff'),
});

export const McpSchema = z.strictObject({
  servers: z.array(McpServerSchema).default([]).superRefine((servers, ctx) => {
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
  store: z.enum(['flat', 'vectra', 'postgres']).default('flat').describe('flat: compact binary store; vectra: the vectra package; postgres: a shared PostgreSQL + pgvector database (database_url)'),
  database_url: z
    .string()
    .refine(isDatabaseUrl, 'database_url must be a postgres:// or postgresql:// URL (host, optional port, database; pool and TLS settings such as sslmode in the query), "{env:VAR}" or "{secret:NAME}"')
    .optional()
    .describe('store = "postgres": postgres://user@host:5432/db?sslmode=require, "{env:VAR}" or "{secret:NAME}"'),
  kiln_id: z.string().regex(/^[\x21-\x7e]{1,200}$/, 'kiln_id must be 1-200 printable characters without spaces').optional().describe("This kiln's namespace in a shared database; default: the git remote (userinfo stripped; a kiln below the repository root adds its folder inside it), else the folder name"),
  parallel_workers: positiveInt.default(() => Math.max(1, Math.floor(availableParallelism() / 2))),
  exclude: z.array(nonEmpty).default([]).describe('Globs; .git, node_modules and .hearth are always excluded'),
  max_file_size_kb: positiveInt.default(1024),
});

export const ChangesSchema = z.strictObject({
  keep_days: positiveInt.default(30).describe('Journaled agent changes older than this are pruned'),
  max_mb: positiveInt.default(100).describe('The change journal is pruned (oldest first) to stay under this size'),
});

export const LoggingSchema = z.strictObject({
  level: z.enum(['error', 'warn', 'info', 'debug', 'trace']).default('info'),
});

export const HearthConfigSchema = z.strictObject({
  kiln_path: nonEmpty.optional().describe('Path to the notes directory; the workspace root when unset'),
  agent_directories: z.array(nonEmpty).default([]).describe('Extra directories searched for agent cards'),
  chat: ChatSchema.prefault({}),
  acp: AcpSchema.prefault({}),
  embedding: EmbeddingSchema.prefault({}),
  context: ContextSchema.prefault({}),
  cli: CliSchema.prefault({}),
  llm: LlmSchema.prefault({}),
  mcp: McpSchema.prefault({}),
  processing: ProcessingSchema.prefault({}),
  logging: LoggingSchema.prefault({}),
  changes: ChangesSchema.prefault({}),
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
