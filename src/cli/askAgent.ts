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
import { terminalPermissionHost } from './terminalPermission';

export async function askAgent(name: string, question: string, flags: CommonFlags & { json?: boolean; model?: string; system?: string; 'no-context'?: boolean }, io: CliIo): Promise<number> {
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
    // An external agent chooses its own model; silently ignoring --model would answer with another one.
    if (flags.model && kind === 'external') {
      throw new UsageError(`--model applies to Hearth's own agents; "${agent}" is an external agent and chooses its own model (set it in that agent, or pass its model flag through args in [acp.agents.${agent}])`);
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
    const host = terminalPermissionHost({ stderr: io.stderr, stdin: io.stdin, yes: flags.yes === true, redactor: ctx.llm.cli.redactor });
    const session = await ctx.catalog.start(agent, { host, cwd: ctx.workspaceRoot, kilnRoot: ctx.llm.loaded.config.kiln_path, ...(flags.model ? { model: flags.model } : {}) });
    try {
      const context = await cliAutoContext(question, flags['no-context'] !== true && ctx.llm.loaded.config.chat.auto_context, () => ctx.kilnIndex(), io.stderr);
      return await runAgentTurn(session, question, context, { stdout: io.stdout, stderr: io.stderr, json: flags.json === true, contextSources: context });
    } finally {
      await session.dispose();
    }
  } finally {
    await ctx.dispose();
  }
}
