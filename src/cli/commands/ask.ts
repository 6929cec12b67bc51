/**
 * `hearth ask "question"`: one prompt to the active provider (or `--model provider/model`), the
 * answer streamed to stdout. `--json` prints the whole message, usage and model at the end instead.
 * With `--agent NAME` the prompt goes to an agent instead (internal or external ACP): one turn with
 * tools, text on stdout, tool activity on stderr, permission prompts on the terminal (`--yes` allows).
 */
import { isLlmError } from '../../core/llm/errors';
import type { ChatMessage, Usage } from '../../core/llm/types';
import { formatModelId } from '../../core/llm/modelId';
import { switchModelChecked } from '../../core/llm/modelSwitch';
import { COMMON_HELP, parseCommandLine, UsageError } from '../cliContext';
import { createLlmContext } from '../llmContext';
import type { CliIo } from '../cliIo';
import { askAgent } from '../askAgent';
import { formatSourcesForTerminal } from '../agentTurn';
import { cliAutoContext } from '../cliAutoContext';
import { createCliIndex } from '../indexContext';
import type { PromptAttachment } from '../../core/agents/agentSession';
import { contextBlock } from '../../core/chat/context/autoContext';
import { SourceList } from '../../core/chat/context/sources';
import type { KilnIndex } from '../../core/index/kilnIndex';

const HELP = `Usage: hearth ask [--agent NAME [--resume [SESSION_ID]] [--mode M]] [--model provider/model] [--system TEXT] [--no-context] [--json] [--yes] [--workspace DIR] "question"

Sends one prompt to the active chat provider and streams the answer to stdout. Without a question
argument the prompt is read from stdin. With [chat].auto_context (the default) the best-matching note
sections from the kiln index go with the question; their path:line follow the answer as Sources.

  -a, --agent NAME     run one turn with an agent (see hearth agents; "default" picks the default
                       agent): tools run, their activity is shown on stderr, and tools that change
                       things ask on the terminal first (--yes allows them)
  -m, --model ID       provider/model, or a model name of the active provider (with an external --agent: one of
                       the agent's own models, by id or name, see its model option)
      --mode M         with an external --agent: the agent's mode (by id or name), e.g. read-only, plan
      --resume [ID]    with an external --agent: continue the agent's session ID (session/resume, else
                       session/load), or without ID its latest session in this folder (hearth agents --sessions NAME)
      --system TEXT    a system prompt (without --agent)
      --no-context     do not add note sections from the index ([chat].auto_context) this time
      --json           print {message, usage, model, stopReason, sources} when the answer is complete
                       (with --agent: {agent, kind, message, toolCalls, sources, usage, stopReason, errors, transcript,
                       and for external agents session: {id, how, reason?}})
${COMMON_HELP}
`;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

/** What the model is told about the sections auto context adds before the question. */
const CONTEXT_PREAMBLE = 'Notes from my kiln that may help (refer to them as path:line when you use them):';

/**
 * `--resume` takes an optional session id: the next word is the id only when a question follows it
 * (`--resume ID "question"`, `--resume=ID`); alone, or before the question, it means the latest session.
 */
function optionalResume(argv: string[]): string[] {
  const at = argv.indexOf('--resume');
  if (at < 0) return argv;
  const next = argv[at + 1];
  const laterWords = argv.slice(at + 2).filter((word) => !word.startsWith('-'));
  if (next !== undefined && !next.startsWith('-') && laterWords.length > 0) return argv;
  return [...argv.slice(0, at), '--resume=', ...argv.slice(at + 1)];
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals: words } = parseCommandLine(
    'ask',
    optionalResume(argv),
    {
      json: { type: 'boolean' },
      model: { type: 'string', short: 'm' },
      system: { type: 'string' },
      agent: { type: 'string', short: 'a' },
      'no-context': { type: 'boolean' },
      mode: { type: 'string' },
      resume: { type: 'string' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const { json, model, system } = values;
  let question = words.filter((w) => w !== '-').join(' ').trim();
  if (!question && (words.includes('-') || !(io.stdin as { isTTY?: boolean }).isTTY)) question = (await readAll(io.stdin)).trim();
  if (!question) throw new UsageError('no question given (see hearth ask --help)');
  if (values.agent !== undefined) return askAgent(values.agent, question, values, io);
  if (values.mode !== undefined || values.resume !== undefined) throw new UsageError('--mode and --resume apply with an external --agent');

  const ctx = await createLlmContext(io, values);
  if (model) {
    try {
      await switchModelChecked(ctx, model);
    } catch (error) {
      // A typo in --model is the caller's mistake: exit 2, as for any bad argument.
      if (isLlmError(error, 'llm.unknown_provider')) throw new UsageError(error.message);
      throw error;
    }
  }
  const settings = ctx.selection.current();
  const provider = ctx.provider(settings);
  let index: KilnIndex | undefined;
  let context: PromptAttachment[];
  try {
    context = await cliAutoContext(question, values['no-context'] !== true && ctx.loaded.config.chat.auto_context, () => (index ??= createCliIndex(ctx.cli, io)), io.stderr);
  } finally {
    await index?.dispose();
  }
  const sourceList = new SourceList();
  sourceList.addAttachments(context, 'auto_context');
  const sources = sourceList.sources;
  const content = context.length > 0 ? `${CONTEXT_PREAMBLE}\n\n${contextBlock(context)}\n\n${question}` : question;
  const messages: ChatMessage[] = [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content }];

  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once('SIGINT', onInterrupt);
  let message = '';
  let usage: Usage | undefined;
  let stopReason: string | undefined;
  try {
    for await (const event of provider.chat(messages, [], {}, controller.signal)) {
      if (event.type === 'text') {
        message += event.text;
        if (!json) io.stdout.write(event.text);
      } else if (event.type === 'usage') usage = event.usage;
      else if (event.type === 'stop') stopReason = event.reason;
    }
  } catch (error) {
    // Ctrl-C: end the partial line and exit like an interrupted command, without an error message.
    if (isLlmError(error, 'llm.cancelled')) {
      if (!json && message) io.stdout.write('\n');
      return 130;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
  const id = formatModelId(settings.name, settings.model);
  if (json) io.stdout.write(JSON.stringify({ message, usage: usage ?? null, model: id, stopReason: stopReason ?? null, sources }, null, 2) + '\n');
  else {
    if (!message.endsWith('\n')) io.stdout.write('\n');
    if (sources.length > 0) io.stdout.write(formatSourcesForTerminal(sources));
    if (usage) ctx.log.debug(`${id}: ${usage.inputTokens} tokens in, ${usage.outputTokens} out`);
  }
  return 0;
}
