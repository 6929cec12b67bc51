import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { HearthError } from '../../core/errors';
import { serveGatewayHttp } from '../../core/gateway/gatewayHttp';
import { createGatewayServer } from '../../core/gateway/gatewayServer';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createGatewayContext, settleWithin, type Confirmer } from '../gatewayContext';
import type { CliIo } from '../main';

const HELP = `Usage: hearth gateway [--http PORT] [--workspace DIR]

Serves the kiln tools and every [[mcp.servers]] upstream as one MCP server.
  (default)      over stdio, for MCP clients and ACP agents that spawn it
  --http PORT    over streamable HTTP on 127.0.0.1:PORT (0 = any free port); prints the URL and a
                 bearer token once
  --workspace    the workspace whose .hearth/config.toml to use (default: current directory)
`;

function parse(argv: string[]): { http?: number; workspace?: string; help: boolean } {
  const result: { http?: number; workspace?: string; help: boolean } = { help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') result.help = true;
    else if (arg === '--http') {
      const port = Number(argv[++i]);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HearthError('usage', `--http needs a port number (0-65535), got "${argv[i] ?? ''}"`);
      result.http = port;
    } else if (arg === '--workspace') result.workspace = argv[++i];
    else throw new HearthError('usage', `unknown option "${arg}"\n\n${HELP}`);
  }
  return result;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const options = parse(argv);
  if (options.help) {
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
  const { loaded, host, gateway, kilnTools } = await createGatewayContext(io, options.workspace, confirmer);
  const serverOptions = { gateway, kilnTools, log: host.log };
  // Child trees must not outlive us even on an abrupt exit.
  const onExit = () => gateway.killNow();
  process.on('exit', onExit);
  await settleWithin(gateway.applyConfig(loaded.config.mcp.servers), 5000);
  const { ready, total } = gateway.health();
  host.log.info(`gateway: ${kilnTools.length} kiln tools, ${ready}/${total} upstreams ready`);

  let finish!: () => void;
  const finished = new Promise<void>((done) => (finish = done));
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.once(signal, () => finish());

  let closeServer: () => Promise<void>;
  if (options.http !== undefined) {
    const handle = await serveGatewayHttp({ ...serverOptions, port: options.http });
    io.stdout.write(`Hearth gateway: ${handle.url}\nAuthorization: Bearer ${handle.token}\n`);
    closeServer = () => handle.close();
  } else {
    const session = createGatewayServer(serverOptions);
    stdioServer = session.server;
    const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as Writable);
    // The client closing our stdin is the normal way a stdio MCP server is told to stop.
    io.stdin.once('end', () => finish());
    io.stdin.once('close', () => finish());
    await session.server.connect(transport);
    closeServer = async () => {
      session.dispose();
      await session.server.close();
    };
  }
  await finished;
  await closeServer().catch(() => {});
  await gateway.stop();
  process.off('exit', onExit);
  return 0;
}
