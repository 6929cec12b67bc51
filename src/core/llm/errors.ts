/**
 * Typed chat-provider errors carrying the reference's remedies (spec section 7). Every SDK failure
 * is mapped here once, so the CLI and the editor print one helpful line and never a stack trace;
 * callers branch on `code`.
 */
import { HearthError } from '../errors';
import { scrubForeign, type Redactor } from '../logging/redactor';
import type { ProviderSettings } from './types';
import { keySourceHint } from './apiKey';

export type LlmErrorCode =
  /** Nothing listens at the endpoint (connection refused, unknown host). */
  | 'llm.unreachable'
  /** 401/403: the key is missing, wrong or lacks access. */
  | 'llm.unauthorized'
  | 'llm.model_not_found'
  /** timeout_secs passed; the request was aborted. */
  | 'llm.timeout'
  /** The caller aborted (user pressed stop). */
  | 'llm.cancelled'
  /** githubcopilot outside the editor. */
  | 'llm.editor_only'
  /** `provider/model` names no configured provider. */
  | 'llm.unknown_provider'
  /** A provider type that needs an endpoint (custom) has none. */
  | 'llm.missing_endpoint'
  /** 503 (or Anthropic's 529): the provider is overloaded or down for a while; nothing on this side is wrong. */
  | 'llm.overloaded'
  | 'llm.request_failed';

export class LlmError extends HearthError {
  constructor(
    override readonly code: LlmErrorCode,
    message: string,
    readonly provider: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export function isLlmError(value: unknown, code?: LlmErrorCode): value is LlmError {
  return value instanceof LlmError && (code === undefined || value.code === code);
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function networkCode(error: unknown): string | undefined {
  for (const link of causeChain(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return code;
    // AggregateError from happy-eyeballs connects keeps the real reasons in `errors`.
    const inner = (link as { errors?: unknown[] }).errors;
    if (Array.isArray(inner)) for (const e of inner) if (UNREACHABLE_CODES.has((e as { code?: string }).code ?? '')) return (e as { code: string }).code;
  }
  return undefined;
}

/** HTTP status of an SDK error: `status` (openai, anthropic) or `status_code` (ollama). */
export function httpStatus(error: unknown): number | undefined {
  const e = error as { status?: unknown; status_code?: unknown };
  if (typeof e?.status === 'number') return e.status;
  if (typeof e?.status_code === 'number') return e.status_code;
  return undefined;
}

export interface ClassifyContext {
  settings: ProviderSettings;
  /** The endpoint actually used (type default filled in). */
  endpoint: string;
  model?: string;
  /** What was being done, for the message: a chat request or listing models. */
  operation: 'chat' | 'list';
  timedOut: boolean;
  cancelled: boolean;
  /** The time limit that applied, when it was not the provider's timeout_secs (listing is capped). */
  limitMs?: number;
  /** Scrubs the SDK's own text (backends echo keys in errors) before it becomes part of a message. */
  redactor?: Redactor;
}

/**
 * Maps whatever an SDK threw to an LlmError with a remedy. Hearth's own errors (an LlmError, a
 * missing key) pass through unchanged: they already say what to do.
 */
export function toLlmError(error: unknown, ctx: ClassifyContext): HearthError {
  if (error instanceof LlmError) return error;
  if (error instanceof HearthError && !ctx.timedOut && !ctx.cancelled) return error;
  const { settings } = ctx;
  const who = `provider "${settings.name}" (${settings.type})`;
  if (ctx.timedOut) {
    const secs = (ctx.limitMs ?? settings.timeoutMs ?? settings.timeoutSecs * 1000) / 1000;
    return new LlmError('llm.timeout', `${who} did not answer within ${secs} s (timeout_secs); the request was aborted. Raise timeout_secs or check ${ctx.endpoint}.`, settings.name, { cause: error });
  }
  if (ctx.cancelled) return new LlmError('llm.cancelled', `request to ${who} was cancelled`, settings.name, { cause: error });
  const net = networkCode(error);
  if (net) {
    const remedy =
      settings.type === 'local_runner'
        ? `Check that the local runner is running by listing its models (\`ollama list\`); start its server with \`ollama serve\`, or set LOCAL_RUNNER_HOST / endpoint if it listens elsewhere.`
        : `Check the endpoint and your network connection.`;
    return new LlmError('llm.unreachable', `cannot connect to ${who} at ${ctx.endpoint} (${net}). ${remedy}`, settings.name, { cause: error });
  }
  const status = httpStatus(error);
  if (status === 401 || status === 403) {
    return new LlmError('llm.unauthorized', `${who} rejected the API key (HTTP ${status}). Verify that ${keySourceHint(settings)} holds a valid key.`, settings.name, { cause: error });
  }
  if (status === 404 && ctx.operation === 'chat') {
    const model = ctx.model ?? settings.model;
    const remedy =
      settings.type === 'local_runner'
        ? `Pull it first: \`ollama pull ${model}\` (or pick one from \`hearth models\`).`
        : `Check the model name and list the available models with \`hearth models\` (a 404 can also mean the endpoint ${ctx.endpoint} is not the API's base URL).`;
    return new LlmError('llm.model_not_found', `model "${model}" not found on ${who}. ${remedy}`, settings.name, { cause: error });
  }
  const detail = sdkDetail(error, status, ctx.redactor);
  if (status === 503 || status === 529) {
    return new LlmError('llm.overloaded', `${who} is overloaded or unavailable for now (${detail}).`, settings.name, { cause: error });
  }
  return new LlmError('llm.request_failed', `${ctx.operation === 'list' ? 'listing models of' : 'request to'} ${who} failed: ${detail}`, settings.name, { cause: error });
}

/**
 * The SDK's own text is the one part of these messages Hearth does not write; backends echo keys
 * in it (a 400 naming the key, a stream error), so it is scrubbed before it is wrapped.
 */
function sdkDetail(error: unknown, status: number | undefined, redactor: Redactor | undefined): string {
  const raw = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  const text = redactor ? redactor.redactForeign(raw) : scrubForeign(raw);
  const short = text.length > 300 ? `${text.slice(0, 299)}…` : text;
  if (status === undefined) return short;
  // The openai and anthropic SDKs start their message with the status already.
  const rest = short.startsWith(String(status)) ? short.slice(String(status).length).trim() : short;
  return rest ? `HTTP ${status}: ${rest}` : `HTTP ${status}`;
}
