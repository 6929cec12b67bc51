// The client under test in the conformance suite's client scenarios: Hearth's own upstream client,
// the Gateway with one http upstream at the URL the suite appends, as `hearth gateway` runs it. An
// OAuth scenario goes as a user's would: the upstream reports "sign-in needed", `hearth mcp login`'s
// signIn() runs discovery, registration and PKCE, and its browser step is played by following the
// authorization server's redirect (the suite's server approves at once) back to the loopback
// redirect; the upstream then starts again with the stored tokens. Any gateway client's elicitation
// answer here is a user pressing Accept without editing the form (`content: {}`).
//
// Usage (by the suite): node --import tsx conformanceClient.ts URL   (MCP_CONFORMANCE_SCENARIO set)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpServerSchema } from '../../src/core/config/schema';
import { resolveSecret } from '../../src/core/config/resolveSecret';
import { Gateway } from '../../src/core/gateway/gateway';
import { signIn } from '../../src/core/gateway/oauth/oauthLogin';
import type { UpstreamState } from '../../src/core/gateway/upstreamTypes';
import { fileOAuthStore } from '../../src/core/gateway/oauth/oauthStore';
import type { Logger } from '../../src/core/host';
import { Redactor } from '../../src/core/logging/redactor';

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string };

const line = (level: string) => (message: string) => process.stderr.write(`[${level}] ${message}\n`);
const log: Logger = { trace: () => {}, debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: () => log };

/** Arguments a tool's input schema asks for, filled with plain values of each type. */
function argumentsFor(tool: Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema.type === 'number' || schema.type === 'integer' ? 2 : schema.type === 'boolean' ? true : 'test']));
}

function needsSignIn(state: UpstreamState): boolean {
  return state.kind === 'down' && state.code === 'gateway.upstream_sign_in';
}

/** The browser's part: open the authorization URL and follow its redirect to the loopback callback. */
async function browser(authorization: URL): Promise<void> {
  let next: URL = authorization;
  for (let hop = 0; hop < 5; hop++) {
    const answer = await fetch(next, { redirect: 'manual' });
    const location = answer.headers.get('location');
    if (!location) return;
    next = new URL(location, next);
  }
}

async function main(): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'hearth-conformance-client-'));
  const store = fileOAuthStore(join(home, 'mcp-oauth.json'));
  const redactor = new Redactor();
  const transport = { type: 'http', url, ...(context.client_id ? { oauth_client_id: context.client_id } : {}) };
  const config = McpServerSchema.parse({ name: 'conformance', prefix: 'c_', transport, auto_reconnect: false, timeout_secs: 20 });
  const gateway = new Gateway({ log, env: process.env, resolveSecret: (value) => resolveSecret(value, { env: process.env }), oauthStore: store, redactor, pingIntervalMs: 0 });
  // A gateway client that can answer questions: the user accepts the form as offered.
  const detach = gateway.clients.attach({
    canElicit: () => true,
    canSample: () => false,
    canListRoots: () => false,
    listRoots: async () => ({ roots: [] }),
    busyWith: () => true,
    elicit: async () => ({ action: 'accept', content: {} }),
    sample: async () => {
      throw new Error('no sampling here');
    },
    log: () => {},
  });
  try {
    await gateway.applyConfig([config]);
    let upstream = gateway.upstreamList[0]!;
    if (needsSignIn(upstream.state)) {
      log.info(`${scenario}: sign-in needed, signing in`);
      await signIn({ name: config.name, url, clientId: context.client_id }, { store, open: browser, redactor, waitMs: 20_000 });
      await upstream.restart();
      upstream = gateway.upstreamList[0]!;
    }
    if (upstream.state.kind !== 'ready') throw new Error(`upstream not ready: ${JSON.stringify(upstream.state)}`);
    for (const tool of gateway.tools()) {
      let result = await gateway.callTool(tool.exposedName, argumentsFor(tool.definition)).catch((error: unknown) => error);
      // Refused for want of scope (a step-up): the user signs in again, once, as `hearth mcp login` would be run.
      if (needsSignIn(upstream.state)) {
        log.info(`${scenario}: sign-in needed again (${tool.exposedName}), signing in`);
        await signIn({ name: config.name, url, clientId: context.client_id }, { store, open: browser, redactor, waitMs: 20_000 });
        await upstream.restart();
        result = await gateway.callTool(tool.exposedName, argumentsFor(tool.definition));
      }
      if (result instanceof Error) throw result;
      log.info(`${tool.exposedName}: ${JSON.stringify(result).slice(0, 300)}`);
    }
    return 0;
  } catch (error) {
    log.error(`${scenario}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    detach.dispose();
    await gateway.dispose();
    rmSync(home, { recursive: true, force: true });
  }
}

void main().then((code) => (process.exitCode = code));
