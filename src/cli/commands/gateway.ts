import type { Readable, Writable } from 'node:stream';
import { serveGatewayHttp } from '../../core/gateway/gatewayHttp';
import { createGatewayServer } from '../../core/gateway/gatewayServer';
import { GatewayStdioTransport } from '../../core/gateway/gatewayStdioTransport';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { COMMON_HELP, parseCommandLine, UsageError, type CommonFlags } from '../cliContext';
import { createGatewayContext, settleWithin, type Confirmer } from '../gatewayContext';
import type { CliIo } from '../cliIo';
import { toDisposable } from '../../core/lifecycle/disposable';
import { DisposableStore } from '../../core/lifecycle/disposableStore';

const HELP = `Usage: hearth gateway [--http PORT] [--yes] [--workspace DIR]

Serves the kiln tools and every [[mcp.servers]] upstream as one MCP server, over stdio by default
(for MCP clients and ACP agents that spawn it). Destructive kiln tools (overwrite, delete) ask the
MCP client when it supports elicitation; otherwise they are refused while
[cli].confirm_destructive is on, unless --yes is given. Writes to protected paths
(.hearth/, agents/, rules files such as AGENTS.md, .git/, .vscode/, .claude/, CLAUDE.md, …)
always ask the client, and are refused when it cannot be asked — --yes does not cover them.
Over stdio a request (one line) may be up to 16 MB; larger and malformed ones are answered with a
JSON-RPC error. Over HTTP a body may be up to 8 MB (413 past that); a session unused for 30 min is
closed, and at most 64 are open.

      --http PORT      serve streamable HTTP on 127.0.0.1:PORT instead (0 = any free port); prints
                       the URL and a bearer token once
${COMMON_HELP}
`;

function parse(argv: string[]): { http?: number; flags: CommonFlags & { help?: boolean } } {
  const { values } = parseCommandLine('gateway', argv, { http: { type: 'string' } });
  if (values.http === undefined) return { flags: values };
  const port = Number(values.http);
  if (values.http.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--http needs a port number (0-65535), got "${values.http}"`);
  return { http: port, flags: values };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const options = parse(argv);
  if (options.flags.help) {
    io.stdout.write(HELP);
    return 0;
  }
  // Over stdio there is one client; if it supports elicitation, destructive kiln tools ask its user.
  let stdioServer: Server | undefined;
  const confirmer: Confirmer = async (message, detail) => {
    if (!stdioServer?.getClientCapabilities()?.elicitation) return undefined;
    const answer = await stdioServer.elicitInput({
      mode: 'form',
      message: detail ? `${message}\n${detail}` : message,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm', default: false } }, required: ['confirm'] },
    });
    return answer.action === 'accept' && answer.content?.confirm === true;
  };
  const { loaded, host, gateway, kilnTools } = await createGatewayContext(io, options.flags, confirmer);
  const serverOptions = { gateway, kilnTools, log: host.log };
  // Ended in reverse on the way out: the server the client talks to, then the upstream trees.
  const owned = new DisposableStore(host.log);
  owned.add(gateway);
  // Child trees must not outlive us even on an abrupt exit.
  const onExit = () => gateway.killNow();
  process.on('exit', onExit);
  owned.add(toDisposable(() => void process.off('exit', onExit)));
  await settleWithin(gateway.applyConfig(loaded.config.mcp.servers), 5000);
  const { ready, total } = gateway.health();
  host.log.child('gateway').info(`${kilnTools.length} kiln tools, ${ready}/${total} upstreams ready`);

  let finish!: () => void;
  const finished = new Promise<void>((done) => (finish = done));
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.once(signal, () => finish());

  if (options.http !== undefined) {
    const handle = owned.add(await serveGatewayHttp({ ...serverOptions, port: options.http }));
    io.stdout.write(`Hearth gateway: ${handle.url}\nAuthorization: Bearer ${handle.token}\n`);
  } else {
    const session = createGatewayServer(serverOptions);
    stdioServer = session.server;
    const transport = new GatewayStdioTransport(io.stdin as Readable, io.stdout as Writable, host.log);
    // The client closing our stdin is the normal way a stdio MCP server is told to stop.
    io.stdin.once('end', () => finish());
    io.stdin.once('close', () => finish());
    owned.add(
      toDisposable(async () => {
        await session.dispose();
        await session.server.close();
      }),
    );
    await session.server.connect(transport);
  }
  await finished;
  await owned.dispose();
  return 0;
}
