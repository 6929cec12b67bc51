/**
 * Sign-in for `hearth ask --agent NAME` when the agent needs one (its `authMethods`): the methods
 * are listed on stderr and one line is read from stdin. An agent method lets the agent do it
 * (`authenticate`, a browser login); a terminal method runs the agent's own login command in this
 * terminal and signs in once it exits with 0; a key method says which variable to set (a key is
 * never read into the CLI: it belongs in the environment, where the next run finds it). Without a
 * terminal on stdin nothing is asked: the start fails with the methods listed.
 */
import { spawn } from 'node:child_process';
import type { AuthMethodView, SignInChoice, SignInRequest } from '../core/agents/agentControls';
import type { AgentSessionHost } from '../core/agents/agentSession';
import type { Redactor } from '../core/logging/redactingLogger';
import { readLine } from './cliHost';

export interface TerminalSignInOptions {
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  redactor?: Redactor;
  /** Runs a terminal method's login command attached to this terminal; its exit code (tests replace it). */
  runLogin?(command: NonNullable<AuthMethodView['command']>, env: NodeJS.ProcessEnv): Promise<number | null>;
}

const describe = (method: AuthMethodView) =>
  method.kind === 'key' ? `${method.name} (set ${method.variable})` : method.kind === 'terminal' ? `${method.name} (runs ${[method.command!.command, ...method.command!.args].join(' ')})` : method.name;

export function terminalSignIn(options: TerminalSignInOptions): NonNullable<AgentSessionHost['signIn']> {
  const say = (text: string) => options.stderr.write(options.redactor?.redact(text) ?? text);
  return async (request: SignInRequest, signal: AbortSignal): Promise<SignInChoice | undefined> => {
    if ((options.stdin as { isTTY?: boolean }).isTTY !== true) return undefined;
    const list = request.methods.map((method, i) => `  ${i + 1}) ${describe(method)}${method.description ? `\n     ${method.description}` : ''}`).join('\n');
    say(`\n${request.agent} needs you to sign in: ${request.reason}\n${list}\nChoose 1-${request.methods.length} (anything else cancels): `);
    const answer = await Promise.race([readLine(options.stdin), new Promise<undefined>((done) => signal.addEventListener('abort', () => done(undefined), { once: true }))]);
    const method = answer !== undefined && /^\s*\d+\s*$/.test(answer) ? request.methods[Number(answer) - 1] : undefined;
    if (!method) {
      say('hearth: not signed in.\n');
      return undefined;
    }
    if (method.kind === 'key') {
      say(`hearth: set ${method.variable} in the environment (export ${method.variable}=…), or name it in [acp.agents.${request.agent}] env as "{env:${method.variable}}", then run again.\n`);
      return undefined;
    }
    if (method.kind === 'terminal' && method.command) {
      say(`hearth: running ${[method.command.command, ...method.command.args].join(' ')}\n`);
      const code = await (options.runLogin ?? runAttached)(method.command, { ...options.env, ...method.command.env });
      if (code !== 0) {
        say(`hearth: the login command ended with ${code ?? 'a signal'}; not signed in.\n`);
        return undefined;
      }
    }
    return { methodId: method.id };
  };
}

/** The login command on this terminal (its prompts and browser links are the user's to answer). */
function runAttached(command: NonNullable<AuthMethodView['command']>, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(command.command, command.args, { stdio: 'inherit', env });
    child.once('error', () => done(null));
    child.once('exit', (code) => done(code));
  });
}
