/**
 * `hearth acp`: serves Hearth's internal agents (the built-in `kiln` and the cards) over the Agent
 * Client Protocol on stdio, so Zed, JetBrains or any ACP client (another Hearth too) can use them.
 * stdout carries the protocol only; logs go to stderr. Runs until the client closes stdin.
 */
import * as acp from '@agentclientprotocol/sdk';
import { Readable, Writable } from 'node:stream';
import { ClientReviewer } from '../../core/agents/acpServer/clientReviewer';
import { serveHearthAcp } from '../../core/agents/acpServer/hearthAcpServer';
import { formatModelId } from '../../core/llm/modelId';
// Bundled into dist/cli.js by esbuild (only the version field is kept).
import { version } from '../../../package.json';
import { createAgentContext } from '../agentContext';
import { COMMON_HELP, parseCommandLine } from '../cliContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth acp [--workspace DIR]

Serves Hearth's own agents (the built-in "kiln" agent and agent cards) over the Agent Client Protocol
on stdio. An ACP client (Zed, JetBrains, another Hearth) starts it as its agent command. Sessions
are Hearth transcripts (listed, loaded and resumed by the client); modes "ask" (read-only tools
only) and "edit" (each note change asked of the client); the agent and model are session options.
The MCP servers the client passes are connected beside the kiln tools; with the client's fs/*,
notes are read from its buffers and allowed changes are applied by it.
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandLine('acp', argv, {});
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const reviewer = new ClientReviewer();
  const ctx = await createAgentContext(io, values, { startGateway: true, reviewer });
  try {
    const { llm } = ctx;
    const closed = new Promise<void>((done) => io.stdin.once('end', () => done()).once('close', () => done()));
    const stream = acp.ndJsonStream(Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>, Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>);
    const served = serveHearthAcp(stream, {
      catalog: ctx.catalog,
      ...(ctx.catalog.transcripts ? { transcripts: ctx.catalog.transcripts } : {}),
      reviewer,
      models: async () => (await llm.catalog.list()).flatMap((entry) => entry.models.filter((m) => m.kind !== 'embedding').map((m) => formatModelId(entry.provider, m.id))),
      currentModel: () => llm.selection.currentId(),
      version,
      log: llm.log,
      env: process.env,
      kilnRoot: ctx.kilnRoot,
    });
    await closed;
    await served.close();
    return 0;
  } finally {
    await ctx.dispose();
  }
}
