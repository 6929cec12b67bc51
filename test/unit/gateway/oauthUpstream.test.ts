// OAuth for http upstreams against an authorization server of the test's own on loopback
// (fixtures/oauthServer.ts): sign-in through the SDK's OAuth client (discovery, dynamic
// registration, PKCE, resource indicator — the test plays the browser by following the redirect),
// tokens in a 0600 file, refresh without asking, sign-out; hostile servers refused or bounded.
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Gateway } from '../../../src/core/gateway/gateway';
import type { GatewayError } from '../../../src/core/gateway/gatewayErrors';
import { signIn, signOut } from '../../../src/core/gateway/oauth/oauthLogin';
import { fileOAuthStore, oauthKey } from '../../../src/core/gateway/oauth/oauthStore';
import { Redactor } from '../../../src/core/logging/redactor';
import { startOAuthServer, type OAuthFixture } from './fixtures/oauthServer';
import { serverConfig, tempDir, testGatewayOptions, textOf } from './helpers';

/** The browser: follows the authorization URL's redirect to the loopback callback. */
async function browser(url: URL): Promise<void> {
  const answer = await fetch(url, { redirect: 'manual' });
  const location = answer.headers.get('location');
  assert.ok(location, 'the authorization endpoint redirects back');
  await (await fetch(location)).text();
}

const servers: OAuthFixture[] = [];
after(() => Promise.all(servers.map((server) => server.close())));
async function oauthServer(...args: Parameters<typeof startOAuthServer>): Promise<OAuthFixture> {
  const server = await startOAuthServer(...args);
  servers.push(server);
  return server;
}

describe('OAuth sign-in to http upstreams', () => {
  test('sign-in needed → login → ready; refresh without asking; logout removes the token', async () => {
    const as = await oauthServer();
    const file = join(await tempDir('oauth'), 'mcp-oauth.json');
    const store = fileOAuthStore(file);
    const redactor = new Redactor();
    const config = serverConfig({ name: 'remote', prefix: 'rm_', transport: { type: 'http', url: as.mcpUrl } });
    const gateway = new Gateway(testGatewayOptions({ oauthStore: store, redactor }));
    try {
      await gateway.applyConfig([config]);
      const before = gateway.statuses()[0].state;
      assert.equal(before.kind, 'down');
      assert.equal(before.kind === 'down' && before.code, 'gateway.upstream_sign_in');
      assert.equal(before.kind === 'down' && before.nextRetryAt, undefined, 'no retry loop while nobody signed in');
      assert.match(before.kind === 'down' ? before.error : '', /hearth mcp login remote/);

      let shown: URL | undefined;
      await signIn({ name: 'remote', url: as.mcpUrl }, { store, redactor, open: async (url) => ((shown = url), browser(url)) });
      assert.equal(shown?.searchParams.get('code_challenge_method'), 'S256');
      assert.deepEqual(as.resources, [as.mcpUrl], 'the resource indicator names the MCP server');
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const saved = await readFile(file, 'utf8');
      assert.ok(saved.includes(as.issued[0]), 'the access token is kept in the file');
      assert.ok(!redactor.redact(`token ${as.issued[0]}`).includes(as.issued[0]), 'the redactor knows the token');

      await gateway.restart('remote');
      assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
      assert.equal(textOf(await gateway.callTool('rm_whoami', {})), 'signed in');

      as.expireAccess();
      assert.equal(textOf(await gateway.callTool('rm_whoami', {})), 'signed in');
      assert.equal(as.refreshes, 1, 'the expired token was refreshed without asking');

      await signOut({ name: 'remote', url: as.mcpUrl }, store);
      assert.equal(await store.read(oauthKey('remote', as.mcpUrl)), undefined);
      await gateway.restart('remote');
      const after = gateway.statuses()[0].state;
      assert.equal(after.kind === 'down' && after.code, 'gateway.upstream_sign_in');
    } finally {
      await gateway.dispose();
    }
  });

  test('a token about to expire is refreshed before it is sent, without asking and without a refusal', async () => {
    const as = await oauthServer('short-lived');
    const store = fileOAuthStore(join(await tempDir('oauth-early'), 'mcp-oauth.json'));
    const config = serverConfig({ name: 'soon', prefix: 'so_', transport: { type: 'http', url: as.mcpUrl } });
    await signIn({ name: 'soon', url: as.mcpUrl }, { store, open: browser });
    const first = (await store.read(oauthKey('soon', as.mcpUrl)))?.tokens?.access_token;
    const refusedAtSignIn = as.refused; // sign-in's own probe for the server's challenge
    const gateway = new Gateway(testGatewayOptions({ oauthStore: store }));
    try {
      await gateway.applyConfig([config]);
      assert.equal(gateway.statuses()[0].state.kind, 'ready', JSON.stringify(gateway.statuses()[0].state));
      assert.equal(textOf(await gateway.callTool('so_whoami', {})), 'signed in');
      assert.ok(as.refreshes >= 1, 'refreshed: the 30 s token was inside the 60 s margin');
      assert.notEqual((await store.read(oauthKey('soon', as.mcpUrl)))?.tokens?.access_token, first, 'a new access token was stored');
      assert.equal(as.refused, refusedAtSignIn, 'the server never had to refuse a token');
    } finally {
      await gateway.dispose();
    }
  });

  test('hostile: metadata for another resource, a redirect to another origin, a slow server — refused, no token in the error', async () => {
    const store = fileOAuthStore(join(await tempDir('oauth-hostile'), 'mcp-oauth.json'));
    const other = await oauthServer('other-resource');
    await assert.rejects(signIn({ name: 'x', url: other.mcpUrl }, { store, open: browser }), (error: GatewayError) => error.code === 'gateway.oauth_failed' && /resource/i.test(error.message));

    // The SDK falls back to the server's own origin when its metadata cannot be read: the other
    // origin is never asked, and the sign-in stays bounded (nobody answers the browser here).
    const target = await oauthServer();
    const away = await oauthServer('redirect-away', target.base.replace('127.0.0.1', 'localhost'));
    await assert.rejects(signIn({ name: 'y', url: away.mcpUrl }, { store, open: () => {}, waitMs: 500 }), (error: GatewayError) => error.code === 'gateway.oauth_failed');
    assert.deepEqual(target.hits, [], 'the other origin was never asked');

    const slow = await oauthServer('slow');
    await assert.rejects(signIn({ name: 'z', url: slow.mcpUrl }, { store, open: browser, requestTimeoutMs: 300 }), (error: GatewayError) => error.code === 'gateway.oauth_failed');
  });
});
