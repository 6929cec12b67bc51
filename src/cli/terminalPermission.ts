/**
 * Permission prompts of agent sessions in the `hearth` command: `--yes` answers with the agent's
 * own allow option; otherwise the options are listed on stderr and one line is read from stdin.
 * End of input, an unknown answer or Ctrl-C is a reject, never an allow.
 */
import type { AgentSessionHost, PermissionOption, PermissionOutcome, PermissionRequest } from '../core/agents/agentSession';
import type { Redactor } from '../core/logging/redactingLogger';
import { readLine } from './cliHost';

export interface TerminalPermissionOptions {
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  yes: boolean;
  redactor?: Redactor;
}

/** The option a given answer picks: a number, or y/yes (allow once), a/always, n/no. */
export function pickOption(options: readonly PermissionOption[], answer: string): PermissionOption | undefined {
  const text = answer.trim().toLowerCase();
  const byNumber = /^\d+$/.test(text) ? options[Number(text) - 1] : undefined;
  if (byNumber) return byNumber;
  const kind = /^(y|yes)$/.test(text) ? 'allow_once' : /^(a|always)$/.test(text) ? 'allow_always' : /^(n|no)$/.test(text) ? 'reject_once' : undefined;
  return kind ? options.find((o) => o.kind === kind) : undefined;
}

export function terminalPermissionHost(options: TerminalPermissionOptions): AgentSessionHost {
  const redact = (text: string) => options.redactor?.redact(text) ?? text;
  return {
    async requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
      const allow = request.options.find((o) => o.kind === 'allow_once') ?? request.options.find((o) => o.kind === 'allow_always');
      if (request.mustAsk && (options.stdin as { isTTY?: boolean }).isTTY !== true) {
        options.stderr.write(`hearth: refused: ${redact(request.title)}\n${request.detail ? `hearth: ${redact(request.detail)}\n` : ''}hearth: nobody can be asked here (stdin is not a terminal); --yes does not cover protected paths.\n`);
        return { outcome: 'cancelled' };
      }
      if (options.yes && !request.mustAsk) {
        options.stderr.write(`hearth: allowed (--yes): ${redact(request.title)}\n`);
        return allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' };
      }
      const choices = request.options.map((o, i) => `${i + 1}) ${o.name}`).join('  ');
      options.stderr.write(`\n${redact(request.title)}\n${request.detail ? `${redact(request.detail)}\n` : ''}  ${choices}\nChoose 1-${request.options.length} (anything else denies): `);
      const answer = await Promise.race([readLine(options.stdin), new Promise<undefined>((done) => signal.addEventListener('abort', () => done(undefined), { once: true }))]);
      if (answer === undefined) {
        options.stderr.write('\nhearth: denied: no answer (end of input or cancelled); pass --yes to allow without asking.\n');
        return { outcome: 'cancelled' };
      }
      const chosen = pickOption(request.options, answer);
      if (!chosen) {
        const reject = request.options.find((o) => o.kind === 'reject_once');
        return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
      }
      return { outcome: 'selected', optionId: chosen.optionId };
    },
  };
}
