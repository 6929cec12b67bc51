import { COMMON_HELP, parseCommandLine } from '../cliContext';
import { createGatewayContext } from '../gatewayContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth tools [--json] [--workspace DIR]

Connects to every [[mcp.servers]] upstream, lists the tools the gateway would serve (kiln tools and
upstream tools, with their upstream and state), then exits.

      --json           print {upstreams, tools}
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandLine('tools', argv, { json: { type: 'boolean' } });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const json = values.json === true;
  const { loaded, gateway, kilnTools } = await createGatewayContext(io, values, undefined, true);
  try {
    await gateway.applyConfig(loaded.config.mcp.servers);
    const upstreams = gateway.statuses();
    const tools = [
      ...kilnTools.map((tool) => ({ name: tool.name, upstream: 'kiln', state: 'ready', readOnly: tool.readOnly, description: tool.definition.description ?? '' })),
      ...gateway.allTools().map((tool) => ({
        name: tool.exposedName,
        upstream: tool.upstream,
        state: tool.state,
        original: tool.originalName,
        readOnly: tool.definition.annotations?.readOnlyHint === true,
        description: tool.definition.description ?? '',
      })),
    ];
    if (json) {
      io.stdout.write(JSON.stringify({ upstreams, tools }, null, 2) + '\n');
      return 0;
    }
    for (const upstream of upstreams) {
      const state = upstream.state;
      const detail =
        state.kind === 'ready'
          ? `ready, ${state.toolCount} tools`
          : state.kind === 'down'
            ? `down: ${state.error}`
            : state.kind;
      io.stdout.write(`${upstream.name} (${upstream.transport}, prefix ${upstream.prefix}): ${detail}\n`);
    }
    if (upstreams.length > 0) io.stdout.write('\n');
    const width = Math.min(48, Math.max(...tools.map((tool) => tool.name.length)));
    for (const tool of tools) {
      const summary = tool.description.split('\n')[0].slice(0, 80);
      io.stdout.write(`${tool.name.padEnd(width)}  ${tool.upstream.padEnd(12)} ${tool.state.padEnd(7)} ${summary}\n`);
    }
    return 0;
  } finally {
    await gateway.dispose();
  }
}
