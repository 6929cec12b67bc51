import type { Logger } from '../../../host';
import type { AgentSessionHost } from '../../agentSession';
import type { AgentConnection } from '../connection/agentConnection';
import { AcpAuthError } from '../connection/authMethods';

/** How long a sign-in may take (a browser login, a terminal) before the start gives up. */
const SIGN_IN_WAIT_MS = 10 * 60_000;

export interface SignInContext {
  agentName: string;
  host: AgentSessionHost;
  /** The agent's environment as configured. */
  env: NodeJS.ProcessEnv;
  /** Keys given at sign-in (variable → key), added to the agent's environment; this flow adds to it. */
  signInEnv: Record<string, string>;
  log: Logger;
  redactor?: { add(secret: string): void };
  rememberKey?(variable: string, key: string): Promise<void>;
}

/**
 * Opens the connection; when the agent wants a sign-in first, a key already kept (or set in the
 * environment) is tried without asking, then the host offers the methods and the connection opens
 * again after the user's choice (a key in the agent's environment, `authenticate` for an agent
 * method, nothing more after a terminal login ran).
 */
export async function openWithSignIn(open: (authenticate?: string) => Promise<AgentConnection>, ctx: SignInContext): Promise<AgentConnection> {
  try {
    return await open();
  } catch (first) {
    let error = first;
    const env = { ...ctx.env, ...ctx.signInEnv };
    const kept = error instanceof AcpAuthError ? error.methods.find((m) => m.kind === 'key' && m.variable && env[m.variable]) : undefined;
    if (kept) {
      try {
        return await open(kept.id);
      } catch (again) {
        error = again;
      }
    }
    const signIn = ctx.host.signIn;
    if (!(error instanceof AcpAuthError) || !signIn || error.methods.length === 0) throw error;
    const choice = await signIn({ agent: ctx.agentName, methods: error.methods, reason: error.reason }, AbortSignal.timeout(SIGN_IN_WAIT_MS)).catch(() => undefined);
    const method = choice && error.methods.find((m) => m.id === choice.methodId);
    if (!method) throw error;
    if (method.kind === 'key') {
      if (!choice.key || !method.variable) throw error;
      ctx.redactor?.add(choice.key);
      ctx.signInEnv[method.variable] = choice.key;
      await ctx.rememberKey?.(method.variable, choice.key);
    }
    ctx.log.info(`signing in with "${method.name}"`);
    return open(method.kind === 'terminal' ? undefined : method.id);
  }
}
