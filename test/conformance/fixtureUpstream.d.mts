import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** The conformance fixture upstream (see fixtureUpstream.mjs): the server and the URIs subscribed to it. */
export function createFixtureServer(): { server: Server; subscribed: Set<string> };
