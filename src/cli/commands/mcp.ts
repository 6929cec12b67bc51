/**
 * `hearth mcp login NAME` / `hearth mcp logout NAME`: OAuth sign-in to an http/sse upstream of
 * `[[mcp.servers]]` (DESIGN.md decision 25). The authorization URL is printed (open it in a
 * browser); the answer comes back to a loopback redirect on 127.0.0.1. Tokens go to a file only
 * the user can read in the user data folder, never to the config or the terminal.
 */
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError } from '../cliContext';
import type { CliIo } from '../cliIo';
import { signIn, signOut } from '../../core/gateway/oauth/oauthLogin';
import { userOAuthStore } from '../../core/gateway/oauth/oauthStore';

const HELP = `Usage: hearth mcp login NAME    sign in to the [[mcp.servers]] entry NAME (http or sse) with OAuth
       hearth mcp logout NAME   forget NAME's tokens

login prints the authorization URL: open it in a browser and sign in; Hearth waits (5 minutes at
most) for the browser to come back to a redirect on 127.0.0.1. The client is registered with the
server unless [mcp.servers.transport].oauth_client_id names one; oauth_scopes lists the scopes.
Tokens are kept in mcp-oauth.json in Hearth's user data folder (mode 0600), refreshed when they
expire, and never printed.
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('mcp', argv, {}, true);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const [action, name, ...rest] = positionals;
  if ((action !== 'login' && action !== 'logout') || !name || rest.length > 0) throw new UsageError('expected `hearth mcp login NAME` or `hearth mcp logout NAME` (see hearth mcp --help)');
  const cli = await createCliContext(io, values, { trustNeeds: { areas: ['mcp'] } });
  const server = cli.loaded.config.mcp.servers.find((entry) => entry.name === name);
  if (!server) throw new UsageError(`no [[mcp.servers]] entry named "${name}"`);
  const transport = server.transport;
  if (transport.type === 'stdio') throw new UsageError(`"${name}" is a stdio server: OAuth is for http and sse servers`);
  const store = userOAuthStore(io.env);
  const upstream = { name, url: transport.url, clientId: transport.oauth_client_id, scopes: transport.oauth_scopes };
  if (action === 'logout') {
    await signOut(upstream, store);
    io.stderr.write(`hearth mcp: signed out of "${name}"\n`);
    return 0;
  }
  await signIn(upstream, {
    store,
    redactor: cli.redactor,
    open: (url) => void io.stderr.write(`Open this address in a browser to sign in to "${name}":\n\n  ${url.href}\n\nWaiting for the browser…\n`),
  });
  io.stderr.write(`hearth mcp: signed in to "${name}"; restart the gateway (or its tool server) to use it\n`);
  return 0;
}
