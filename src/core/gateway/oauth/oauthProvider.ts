import { randomBytes } from 'node:crypto';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Redactor } from '../../logging/redactor';
import { GatewayError } from '../gatewayErrors';
import { oauthKey, type OAuthRecord, type OAuthStore } from './oauthStore';

/** How long one authorization-server request may take: a slow server fails the sign-in, never hangs it. */
export const OAUTH_REQUEST_TIMEOUT_MS = 15_000;
/** An access token this close to its expiry is refreshed before it is sent (not after the server refuses it). */
export const REFRESH_MARGIN_MS = 60_000;
/** The largest answer an authorization server may give (metadata, registration, tokens are a few KB). */
export const OAUTH_MAX_RESPONSE_BYTES = 1024 * 1024;

export interface OAuthUpstream {
  name: string;
  url: string;
  clientId?: string;
  scopes?: readonly string[];
}

/**
 * The SDK's OAuthClientProvider for one upstream (the SDK runs discovery, registration, PKCE,
 * the resource indicator and refresh). Interactive (`hearth mcp login`, the editor's sign-in) it
 * hands the authorization URL to `open`; inside the running gateway there is nobody to ask, so a
 * flow that needs the user ends as `gateway.upstream_sign_in` and the server's state says so.
 * Every token it sees is given to the redactor first.
 */
export class UpstreamOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private readonly stateValue = randomBytes(16).toString('base64url');

  constructor(
    private readonly upstream: OAuthUpstream,
    private readonly store: OAuthStore,
    private readonly options: { redirectUrl?: string; open?: (url: URL) => void | Promise<void>; redactor?: Redactor } = {},
  ) {}

  private get key(): string {
    return oauthKey(this.upstream.name, this.upstream.url);
  }

  get redirectUrl(): string {
    return this.options.redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Hearth',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.upstream.scopes?.length ? { scope: this.upstream.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    return this.stateValue;
  }

  private async record(): Promise<OAuthRecord> {
    const record = (await this.store.read(this.key)) ?? {};
    this.options.redactor?.add(record.tokens?.access_token);
    this.options.redactor?.add(record.tokens?.refresh_token);
    return record;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.upstream.clientId) return { client_id: this.upstream.clientId };
    const client = (await this.record()).client;
    // A client registered for another redirect (an earlier sign-in's port) is registered again.
    const redirects = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    if (client && this.options.open && redirects && !redirects.includes(this.redirectUrl)) return undefined;
    if (!client && !this.options.open) throw this.signInNeeded();
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.store.write(this.key, { ...(await this.record()), client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const record = await this.record();
    const expiring = record.expiresAt !== undefined && record.expiresAt - Date.now() < REFRESH_MARGIN_MS;
    // auth() reads tokens() itself while refreshing: that call (and any meanwhile) gets the stored ones.
    if (!expiring || !record.tokens?.refresh_token || this.inRefresh) return record.tokens;
    this.refresh ??= this.refreshEarly().finally(() => (this.refresh = undefined));
    await this.refresh;
    return (await this.record()).tokens;
  }

  private refresh: Promise<void> | undefined;
  private inRefresh = false;

  /**
   * The SDK's auth() with a stored refresh token refreshes (and saves) without asking anyone. A
   * refresh that fails leaves it to the next request: the stored token is sent, and a 401 ends in
   * "sign-in needed" as before.
   */
  private async refreshEarly(): Promise<void> {
    this.inRefresh = true;
    try {
      await auth(this, { serverUrl: this.upstream.url, fetchFn: oauthFetch() });
    } catch {
      // Refused or unreachable: see above.
    } finally {
      this.inRefresh = false;
    }
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.options.redactor?.add(tokens.access_token);
    this.options.redactor?.add(tokens.refresh_token);
    const expiresAt = tokens.expires_in !== undefined ? Date.now() + tokens.expires_in * 1000 : undefined;
    await this.store.write(this.key, { ...(await this.record()), tokens, expiresAt });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.options.open) {
      // Nobody to ask now; the scope the SDK chose from the refusal (a step-up's) waits for the sign-in.
      const scope = url.searchParams.get('scope');
      if (scope) await this.store.write(this.key, { ...(await this.record()), scope });
      throw this.signInNeeded();
    }
    await this.options.open(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new GatewayError('gateway.oauth_failed', `Sign-in to "${this.upstream.name}": no authorization was started`, this.upstream.name);
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') return;
    const record = await this.record();
    if (scope === 'all') return this.store.write(this.key, undefined);
    if (scope === 'client') return this.store.write(this.key, { ...record, client: undefined });
    await this.store.write(this.key, { ...record, tokens: undefined, expiresAt: undefined });
  }

  private signInNeeded(): GatewayError {
    return new GatewayError('gateway.upstream_sign_in', `Upstream "${this.upstream.name}" needs sign-in: run \`hearth mcp login ${this.upstream.name}\` (or "Sign in" in the editor)`, this.upstream.name);
  }
}

/**
 * fetch for the authorization dance: bounded in time and size, and a redirect is never followed to
 * another origin (a server that bounces its metadata elsewhere would choose where the user signs in).
 */
export function oauthFetch(timeoutMs = OAUTH_REQUEST_TIMEOUT_MS, maxBytes = OAUTH_MAX_RESPONSE_BYTES): FetchLike {
  return async (input, init) => {
    let url = new URL(String(input instanceof Request ? input.url : input));
    for (let hop = 0; hop < 5; hop++) {
      const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return capped(response, url, maxBytes);
      const next = new URL(location, url);
      if (next.origin !== url.origin) throw new GatewayError('gateway.oauth_failed', `The server at ${url.origin} redirected the sign-in to another origin (${next.origin}); refused`);
      url = next;
    }
    throw new GatewayError('gateway.oauth_failed', `Too many redirects from ${url.origin} during sign-in`);
  };
}

/** The response with its body read, refused past `maxBytes` (a hostile server's endless answer never fills memory). */
async function capped(response: Response, url: URL, maxBytes: number): Promise<Response> {
  const tooLarge = () => new GatewayError('gateway.oauth_failed', `The server at ${url.origin} answered ${url.pathname} with more than ${Math.round(maxBytes / 1024)} KB during sign-in; refused`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body || response.status === 204 || response.status === 304) return response;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Response(Buffer.concat(chunks), { status: response.status, statusText: response.statusText, headers: response.headers });
}
