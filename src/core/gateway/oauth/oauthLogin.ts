import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../../errors';
import type { Redactor } from '../../logging/redactor';
import { GatewayError } from '../gatewayErrors';
import { OAUTH_REQUEST_TIMEOUT_MS, oauthFetch, UpstreamOAuthProvider, type OAuthUpstream } from './oauthProvider';
import { oauthKey, type OAuthStore } from './oauthStore';

/** How long the loopback redirect waits for the user to finish in the browser. */
export const LOGIN_WAIT_MS = 5 * 60 * 1000;
/** How much of a failing server's answer a sign-in error quotes. */
const MAX_ERROR_CHARS = 400;

export interface LoginOptions {
  store: OAuthStore;
  /** Shows the authorization URL: the CLI prints it, the editor opens it. */
  open(url: URL): void | Promise<void>;
  redactor?: Redactor;
  waitMs?: number;
  requestTimeoutMs?: number;
}

/**
 * Signs in to one http/sse upstream: the SDK discovers the metadata, registers the client when
 * none is configured, and builds the PKCE authorization URL; the browser comes back to a loopback
 * redirect on 127.0.0.1, whose `state` must match; the code is exchanged and the tokens stored.
 * Errors never carry a token (the SDK's messages are scrubbed by the redactor that saw them).
 */
export async function signIn(upstream: OAuthUpstream, options: LoginOptions): Promise<void> {
  let resolveCode: (code: string) => void = () => {};
  let rejectCode: (error: Error) => void = () => {};
  const codeArrived = new Promise<string>((resolve, reject) => ((resolveCode = resolve), (rejectCode = reject)));
  codeArrived.catch(() => {});
  // Built once the loopback port is known; the callback compares the state it generated.
  const current: { provider?: UpstreamOAuthProvider } = {};
  let received: string | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (url.searchParams.get('state') !== current.provider?.state()) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Hearth: this sign-in answer is not for the sign-in in progress.');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(code ? 'Hearth: signed in. You can close this tab.' : `Hearth: sign-in refused (${error ?? 'no code'}).`);
    if (code) {
      // Single-use, but a credential until exchanged: a failing server echoing it must not print it.
      received = code;
      options.redactor?.add(code);
      resolveCode(code);
    }
    else rejectCode(new GatewayError('gateway.oauth_failed', `Sign-in to "${upstream.name}" was refused: ${error ?? 'no authorization code'}`, upstream.name));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  const provider = (current.provider = new UpstreamOAuthProvider(upstream, options.store, { redirectUrl, open: options.open, redactor: options.redactor }));
  const fetchFn = oauthFetch(options.requestTimeoutMs);
  // What the server's 401 names (its metadata's own address, the scope it wants) guides discovery
  // as it did the connection that found sign-in was needed. The scope asked for: the configured
  // scopes and any the server demanded since (a step-up), else the challenge's.
  const { resourceMetadataUrl, scope: challenged } = await challenge(upstream.url, options.requestTimeoutMs ?? OAUTH_REQUEST_TIMEOUT_MS);
  const earlier = await options.store.read(oauthKey(upstream.name, upstream.url));
  const wanted = [...new Set([...(upstream.scopes ?? []), ...(earlier?.scope?.split(' ') ?? [])].filter(Boolean))];
  const scope = wanted.length ? wanted.join(' ') : challenged;
  const timer = setTimeout(() => rejectCode(new GatewayError('gateway.oauth_failed', `Sign-in to "${upstream.name}" timed out after ${Math.round((options.waitMs ?? LOGIN_WAIT_MS) / 1000)} s`, upstream.name)), options.waitMs ?? LOGIN_WAIT_MS);
  try {
    // Tokens from an earlier sign-in must not short-circuit a requested new one.
    await options.store.write(oauthKey(upstream.name, upstream.url), { client: earlier?.client });
    const first = await auth(provider, { serverUrl: upstream.url, scope, resourceMetadataUrl, fetchFn });
    if (first === 'AUTHORIZED') return;
    const code = await codeArrived;
    const second = await auth(provider, { serverUrl: upstream.url, authorizationCode: code, scope, resourceMetadataUrl, fetchFn });
    if (second !== 'AUTHORIZED') throw new GatewayError('gateway.oauth_failed', `Sign-in to "${upstream.name}" did not complete`, upstream.name);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    let text = options.redactor ? options.redactor.redactForeign(describeError(error)) : describeError(error);
    if (received) text = text.split(received).join('[redacted]');
    // A server's error page can be long (the SDK quotes its raw body): the start says what went wrong.
    if (text.length > MAX_ERROR_CHARS) text = `${text.slice(0, MAX_ERROR_CHARS)}…`;
    throw new GatewayError('gateway.oauth_failed', `Sign-in to "${upstream.name}" failed: ${text}`, upstream.name, { cause: error });
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}

/** Forgets an upstream's tokens and registered client. */
export async function signOut(upstream: Pick<OAuthUpstream, 'name' | 'url'>, store: OAuthStore): Promise<void> {
  await store.write(oauthKey(upstream.name, upstream.url), undefined);
}

/**
 * Asks the server as a client would (an initialize without a token) and reads the challenge of
 * its 401 or 403: `resource_metadata` and `scope`. Anything else (it answers, it is down) leaves
 * discovery to the well-known addresses.
 */
async function challenge(url: string, timeoutMs: number): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    // Only the status and headers are read: a server that answers with an open stream is not waited for.
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'hearth', version: '0.1.0' } } }),
    });
    void response.body?.cancel().catch(() => {});
    if (response.status !== 401 && response.status !== 403) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { resourceMetadataUrl, scope };
  } catch {
    return {};
  }
}
