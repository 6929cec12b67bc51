import type { ServerResponse } from 'node:http';

const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The metadata document's paths: the root one and the one for the `/mcp` resource (RFC 9728 §3.1). */
export function isProtectedResourcePath(path: string): boolean {
  return path === METADATA_PATH || path === `${METADATA_PATH}/mcp`;
}

/**
 * The HTTP gateway's protected-resource metadata. Its bearer token is pre-shared (printed by
 * `hearth gateway --http`, or set by the editor): no authorization server is listed, so a client
 * that implements MCP authorization learns there is no OAuth flow to start and that it must be
 * given the token.
 */
export function protectedResourceMetadata(port: number): Record<string, unknown> {
  return {
    resource: `http://127.0.0.1:${port}/mcp`,
    authorization_servers: [],
    bearer_methods_supported: ['header'],
    resource_name: 'Hearth gateway',
    hearth_token: 'pre-shared: use the bearer token that `hearth gateway --http` printed (or the editor gave you); there is no OAuth sign-in',
  };
}

export function serveProtectedResource(res: ServerResponse, port: number): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(protectedResourceMetadata(port)));
}

/** 401 with the challenge MCP clients read (RFC 6750 + RFC 9728's `resource_metadata`). */
export function unauthorized(res: ServerResponse, port: number): void {
  const challenge = `Bearer error="invalid_token", error_description="a pre-shared bearer token is required (printed by hearth gateway --http)", resource_metadata="http://127.0.0.1:${port}${METADATA_PATH}/mcp"`;
  res
    .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': challenge })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Unauthorized: a valid bearer token is required (pre-shared; printed by `hearth gateway --http`)' }, id: null }));
}
