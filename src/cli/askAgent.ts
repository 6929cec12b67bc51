/**
 * `hearth ask --agent NAME`: starts the named agent (or the default one for `default`) in the
 * workspace, runs one turn, and ends the session and everything it started.
 */
import { isLlmError } from '../core/llm/errors';
import { checkModelId } from '../core/llm/modelSwitch';
import { createAgentContext, UNTRUSTED_AGENTS } from './agentContext';
import { cliAutoContext } from './cliAutoContext';
import { untrustedError } from './cliTrust';
import { runAgentTurn } from './agentTurn';
import type { CommonFlags } from './cliContext';
import { UsageError } from './cliContext';
import type { CliIo } from './cliIo';
import { terminalSignIn } from './terminalSignIn';
import { terminalPermissionHost } from './terminalPermission';
import { applyAgentFlags } from './agentOptionFlags';
import type { HearthAgentCatalog } from '../core/agents/agentCatalog';

/** `--resume` without an id: the agent's most recently active session in this folder. */
async function latestSession(catalog: HearthAgentCatalog, agent: string, cwd: string): Promise<string> {
  const sessions = await catalog.listSessions(agent, cwd);
  const latest = [...sessions].sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''))[0];
  if (!latest) throw new UsageError(`--resume: "${agent}" has no saved session in ${cwd} (start one without --resume)`);
  return latest.sessionId;
}

type AskFlags = CommonFlags & { json?: boolean; model?: string; system?: string; 'no-context'?: boolean; mode?: string; resume?: string };

export async function askAgent(name: string, question: string, flags: AskFlags, io: CliIo): Promise<number> {
  if (!name.trim()) throw new UsageError('--agent needs a name (see hearth agents)');
  if (flags.system) throw new UsageError('--system applies without --agent only; an agent has its own system prompt (an agent card)');
  const ctx = await createAgentContext(io, flags, { startGateway: true });
  try {
    const agent = name === 'default' ? await ctx.catalog.defaultAgent() : name;
    const kind = (await ctx.catalog.list()).find((a) => a.name === agent)?.kind;
    // Even a discovered agent (not from the config) runs in the folder and reads its files.
    if (!ctx.llm.cli.trusted && kind === 'external') {
      throw untrustedError(ctx.workspaceRoot, [], `${ctx.workspaceRoot} is not a trusted folder, and the agent "${agent}" is an external agent: ${UNTRUSTED_AGENTS}.`);
    }
    if ((flags.mode !== undefined || flags.resume !== undefined) && kind !== 'external') {
      throw new UsageError(`--mode and --resume apply to external agents; "${agent}" is one of Hearth's own agents`);
    }
    if (flags.model && kind === 'internal') {
      // An internal agent's --model names a configured provider's model: a typo exits 2 before anything starts.
      try {
        await checkModelId(ctx.llm, flags.model);
      } catch (error) {
        if (isLlmError(error, 'llm.unknown_provider')) throw new UsageError(error.message);
        throw error;
      }
    }
    const redactor = ctx.llm.cli.redactor;
    const host = {
      ...terminalPermissionHost({ stderr: io.stderr, stdin: io.stdin, yes: flags.yes === true, redactor }),
      signIn: terminalSignIn({ stderr: io.stderr, stdin: io.stdin, env: io.env, redactor }),
    };
    const resume = flags.resume !== undefined ? flags.resume || (await latestSession(ctx.catalog, agent, ctx.workspaceRoot)) : undefined;
    const session = await ctx.catalog.start(agent, {
      host,
      cwd: ctx.workspaceRoot,
      kilnRoot: ctx.llm.loaded.config.kiln_path,
      ...(flags.model && kind === 'internal' ? { model: flags.model } : {}),
      ...(resume ? { resume } : {}),
    });
    try {
      if (kind === 'external') {
        await applyAgentFlags(session, { ...(flags.mode !== undefined ? { mode: flags.mode } : {}), ...(flags.model !== undefined ? { model: flags.model } : {}) });
        const opening = session.opening;
        if (resume && opening && !flags.json) io.stderr.write(opening.how === 'new' ? `hearth ask: could not continue session ${resume} (${opening.reason ?? 'no reason given'}); a new session ${opening.sessionId} starts\n` : `hearth ask: ${opening.how} session ${opening.sessionId}\n`);
      }
      // The rules files are in the agent's system prompt already: not again as context.
      const context = await cliAutoContext(question, flags['no-context'] !== true && ctx.llm.loaded.config.chat.auto_context, () => ctx.kilnIndex(), io.stderr, ctx.llm.loaded.config.context.rules_files);
      const opening = session.opening;
      return await runAgentTurn(session, question, context, {
        stdout: io.stdout,
        stderr: io.stderr,
        json: flags.json === true,
        contextSources: context,
        ...(opening ? { session: { id: opening.sessionId, how: opening.how, ...(opening.reason ? { reason: opening.reason } : {}) } } : {}),
      });
    } finally {
      await session.dispose();
    }
  } finally {
    await ctx.dispose();
  }
}
