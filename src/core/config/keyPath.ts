/**
 * Key paths as users read them: `chat.temperature`, `llm.providers.work.type`,
 * `mcp.servers[1].transport.url`. Segments that are not bare TOML keys are quoted.
 */
export type KeySegment = string | number;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

export function formatKeyPath(segments: readonly KeySegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = BARE_KEY.test(segment) ? segment : JSON.stringify(segment);
      out += out === '' ? key : `.${key}`;
    }
  }
  return out;
}
