/**
 * `hearth ask "question"`: one prompt to the active provider (or `--model provider/model`), the
 * answer streamed to stdout. `--json` prints the whole message, usage and model at the end instead.
 * No tools are offered yet (the agents work adds them).
 */
import { HearthError } from '../../core/errors';
import { isLlmError } from '../../core/llm/errors';
import type { ChatMessage, Usage } from '../../core/llm/types';
import { formatModelId } from '../../core/llm/modelId';
import { createLlmContext } from '../llmContext';
import type { CliIo } from '../main';

const HELP = `Usage: hearth ask [--model provider/model] [--system TEXT] [--json] [--workspace DIR] "question"

Sends one prompt to the active chat provider and streams the answer to stdout. Without a question
argument the prompt is read from stdin.

  --model      provider/model, or a model name of the active provider
  --system     a system prompt
  --json       print {message, usage, model, stopReason} when the answer is complete
  --workspace  the workspace folder (default: the current directory)
`;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  let json = false;
  let workspace: string | undefined;
  let model: string | undefined;
  let system: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      io.stdout.write(HELP);
      return 0;
    } else if (arg === '--json') json = true;
    else if (arg === '--workspace') workspace = argv[++i];
    else if (arg === '--model' || arg === '-m') model = argv[++i];
    else if (arg === '--system') system = argv[++i];
    else if (arg === '--') words.push(...argv.slice(i + 1)), (i = argv.length);
    else if (arg.startsWith('-') && arg !== '-') throw new HearthError('usage', `unknown option "${arg}"\n\n${HELP}`);
    else words.push(arg);
  }
  let question = words.filter((w) => w !== '-').join(' ').trim();
  if (!question && (words.includes('-') || !(io.stdin as { isTTY?: boolean }).isTTY)) question = (await readAll(io.stdin)).trim();
  if (!question) throw new HearthError('usage', `no question given\n\n${HELP}`);

  const ctx = await createLlmContext(io, workspace);
  if (model) ctx.selection.switchTo(model);
  const settings = ctx.selection.current();
  const provider = ctx.provider(settings);
  const messages: ChatMessage[] = [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: question }];

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
    if (isLlmError(error, 'llm-cancelled')) {
      if (!json && message) io.stdout.write('\n');
      return 130;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
  const id = formatModelId(settings.name, settings.model);
  if (json) io.stdout.write(JSON.stringify({ message, usage: usage ?? null, model: id, stopReason: stopReason ?? null }, null, 2) + '\n');
  else {
    if (!message.endsWith('\n')) io.stdout.write('\n');
    if (usage) ctx.log.debug(`${id}: ${usage.inputTokens} tokens in, ${usage.outputTokens} out`);
  }
  return 0;
}
