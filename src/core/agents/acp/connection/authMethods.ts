/**
 * An agent's `authMethods` as sign-in choices, checked and bounded. Key methods are the draft
 * `env_var` type (`varName`), and agent methods whose description names the variable to set
 * (codex-acp: "Requires setting the `OPENAI_API_KEY` environment variable"): Hearth asks for the key
 * and starts the agent with it, so the user never edits a shell profile.
 */
import type { AuthMethodView } from '../../agentControls';
import { AcpError } from '../acpErrors';

export const MAX_AUTH_METHODS = 20;

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED = -32000;

const VARIABLE = /`([A-Z][A-Z0-9_]{2,63})`/;
const KEY_LIKE = /_(KEY|TOKEN)$/;

export function authMethodsOf(raw: unknown, launch: { command: string; args: string[] }): AuthMethodView[] {
  if (!Array.isArray(raw)) return [];
  const methods: AuthMethodView[] = [];
  for (const entry of raw.slice(0, MAX_AUTH_METHODS)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const m = entry as Record<string, unknown>;
    if (typeof m.id !== 'string' || !m.id || m.id.length > 200 || typeof m.name !== 'string') continue;
    const description = typeof m.description === 'string' ? m.description.slice(0, 400) : undefined;
    const base = { id: m.id, name: m.name.slice(0, 200), ...(description ? { description } : {}) };
    if (m.type === 'terminal') {
      const args = Array.isArray(m.args) ? m.args.filter((a): a is string => typeof a === 'string').slice(0, 50) : [];
      const env = typeof m.env === 'object' && m.env !== null ? Object.fromEntries(Object.entries(m.env).filter((e): e is [string, string] => typeof e[1] === 'string').slice(0, 50)) : {};
      methods.push({ ...base, kind: 'terminal', command: { command: launch.command, args: [...launch.args, ...args], env } });
      continue;
    }
    const named = typeof m.varName === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(m.varName) ? m.varName : VARIABLE.exec(description ?? '')?.[1];
    if (m.type === 'env_var' && named) methods.push({ ...base, kind: 'key', variable: named });
    else if ((m.type === undefined || m.type === 'agent') && named && KEY_LIKE.test(named)) methods.push({ ...base, kind: 'key', variable: named });
    else if (m.type === undefined || m.type === 'agent') methods.push({ ...base, kind: 'agent' });
  }
  return methods;
}

/** `session/new` (or resume/load) refused until the user signs in; carries the agent's methods. */
export class AcpAuthError extends AcpError {
  constructor(
    agentName: string,
    readonly methods: AuthMethodView[],
    readonly reason: string,
  ) {
    const ways = methods.map((m) => (m.kind === 'key' ? `${m.name} (set ${m.variable})` : m.kind === 'terminal' ? `${m.name} (run ${[m.command!.command, ...m.command!.args].join(' ')})` : m.name));
    super('acp.auth_required', `Agent "${agentName}" needs you to sign in: ${reason}`, ways.length ? `Sign in with one of: ${ways.join('; ')}.` : 'Sign in to the agent in a terminal, then try again.');
  }
}

export function isAuthRequired(error: unknown): boolean {
  return (error as { code?: unknown })?.code === AUTH_REQUIRED;
}
