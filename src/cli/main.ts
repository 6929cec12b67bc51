/**
 * The `hearth` command. Each subcommand lives in src/cli/commands/<name>.ts and exports
 * `run(argv, io)`; this file only dispatches, so adding a command is one line in COMMANDS.
 */
import { describeError, isHearthError } from '../core/errors';
import { Redactor } from '../core/logging/redactor';
import type { CliIo, CommandRunner } from './cliIo';
import type { StartedQueryWorker } from '../core/index/embedders/queryWorkerThread';
import { startSearchWorker } from './commands/searchWorker';
import { redactingStream } from './redactingStream';
// Bundled into dist/cli.js by esbuild (only the version field is kept).
import { version } from '../../package.json';

interface CommandEntry {
  summary: string;
  /** The command's code (a chunk of its own); given the arguments, it may start work that does not wait for it. */
  load: (argv: string[], launch: CliLaunch) => Promise<CommandRunner>;
}

/** What dist/cli.js started before the CLI's code loaded (src/cli/launcher.ts). */
export interface CliLaunch {
  /** `hearth search`'s query worker. */
  queryWorker?: StartedQueryWorker;
}

const COMMANDS: Record<string, CommandEntry> = {
  // Subcommands register here: name → lazy loader (keeps start-up fast).
  config: { summary: 'Print the effective configuration with sources (--json); `config check` lists problems', load: async () => (await import('./commands/config')).run },
  gateway: { summary: 'Serve kiln tools and upstream MCP servers as one MCP server (stdio or --http)', load: async () => (await import('./commands/gateway')).run },
  tools: { summary: 'List the tools the gateway serves, with upstream and state', load: async () => (await import('./commands/tools')).run },
  mcp: { summary: 'Sign in to an http/sse tool server with OAuth (login NAME) or forget its tokens (logout NAME)', load: async () => (await import('./commands/mcp')).run },
  models: { summary: 'List the models of every configured provider (--json, --refresh)', load: async () => (await import('./commands/models')).run },
  index: { summary: 'Bring the kiln index up to date (--force re-embeds all, --clear empties it)', load: async () => (await import('./commands/indexKiln')).run },
  search: {
    summary: 'Search the kiln: hearth search "query" [--mode hybrid|semantic|text|property] [--limit N] [--json]',
    load: async (argv, launch) => {
      const worker = startSearchWorker(argv, launch.queryWorker);
      const { run } = await import('./commands/search');
      return (args, io) => run(args, io, worker);
    },
  },
  links: { summary: 'List a note\'s links: outgoing, backlinks with their line, unresolved (hearth links NOTE [--json])', load: async () => (await import('./commands/links')).run },
  related: { summary: 'List the notes related to a note or a text (hearth related NOTE | --text "…" [--limit N] [--json])', load: async () => (await import('./commands/related')).run },
  ask: { summary: 'Ask the active chat model one question (or an agent, with --agent NAME); the answer streams to stdout', load: async () => (await import('./commands/ask')).run },
  changes: { summary: 'List the changes agents made to the kiln, one row per file (--json, --limit N)', load: async () => (await import('./commands/changes')).run },
  undo: { summary: 'Undo the newest agent turn, or one change: hearth undo [ID] [--force]', load: async () => (await import('./commands/undo')).run },
  trust: { summary: 'Trust a folder so its .hearth/config.toml may start servers and agents and use its endpoints and keys (--list, --revoke)', load: async () => (await import('./commands/trust')).run },
  agents: { summary: 'List internal agents (cards) and external ACP agents with availability (--json)', load: async () => (await import('./commands/agents')).run },
  acp: { summary: 'Serve Hearth\'s own agents (kiln and the cards) over ACP on stdio, for Zed, JetBrains or another ACP client', load: async () => (await import('./commands/acp')).run },
};

/** Exit codes other than 1 for an expected failure: 2 a wrong command line, 3 an untrusted folder (cliTrust.ts). */
const EXIT_CODES: Record<string, number> = { 'cli.usage': 2, 'trust.untrusted_folder': 3 };

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(10)} ${entry.summary}`);
  return ['Usage: hearth <command> [options]', '', 'Commands:', ...lines, '', 'Run `hearth <command> --help` for a command\'s options.'].join('\n');
}

export async function main(argv: string[], rawIo: CliIo, launch: CliLaunch = {}): Promise<number> {
  const [name, ...rest] = argv;
  const io = redactedIo(name, rawIo);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    io.stderr.write(`hearth: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  try {
    const run = await entry.load(rest, launch);
    return await run(rest, io);
  } catch (error) {
    // Expected failures print their message (which carries the remedy) only; anything else is a
    // bug: a short line, and its stack with --verbose (or HEARTH_DEBUG).
    // The message may carry a backend's own text: scrubbed like any foreign text, not just of known secrets.
    const message = io.redactor.redactForeign(describeError(error));
    if (isHearthError(error)) {
      io.stderr.write(`hearth ${name}: ${message}\n`);
      return EXIT_CODES[error.code] ?? 1;
    }
    io.stderr.write(`hearth ${name}: unexpected error: ${message}\n`);
    const verbose = rest.includes('--verbose') || Boolean(io.env.HEARTH_DEBUG);
    if (verbose) io.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    else io.stderr.write('(run again with --verbose for the stack trace)\n');
    return 1;
  }
}

/**
 * Every byte the CLI prints passes the redactor, whatever wrote it (errors, --json, transcripts'
 * summaries). The gateway's stdout is the MCP wire and stays untouched: rewriting it could break
 * the protocol, and its errors are scrubbed where they are made.
 */
function redactedIo(command: string | undefined, io: CliIo): CliIo & { redactor: Redactor } {
  const redactor = io.redactor ?? new Redactor();
  return {
    ...io,
    redactor,
    stdout: command === 'gateway' ? io.stdout : redactingStream(io.stdout, redactor),
    stderr: redactingStream(io.stderr, redactor),
  };
}

// Run directly (tsx src/cli/main.ts in tests); the built bin goes through bin.ts instead.
if (typeof module !== 'undefined' && require.main === module) {
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() }).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
