import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { userDataDir } from '../../config/locations';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SecretStore } from '../../host';

/** What Hearth keeps per OAuth upstream: never in a config file, a log or `hearth config`. */
export interface OAuthRecord {
  tokens?: OAuthTokens;
  /** When the access token expires (epoch ms), from `expires_in` at the time it was saved. */
  expiresAt?: number;
  client?: OAuthClientInformationMixed;
  /** The scope the server last asked for when it refused (a step-up): the next sign-in asks for it. */
  scope?: string;
}

/** Where the records live: the editor's secret storage, or a file only the user can read (CLI). */
export interface OAuthStore {
  read(key: string): Promise<OAuthRecord | undefined>;
  write(key: string, record: OAuthRecord | undefined): Promise<void>;
}

/**
 * The key of one upstream's record: its name and URL, so a config pointing the same name at
 * another server never sends it the first server's token.
 */
export function oauthKey(name: string, url: string): string {
  return `mcp-oauth:${name}:${url}`;
}

/** A JSON file of records, mode 0600 (its folder 0700), replaced by rename so a crash never leaves half a file. */
export function fileOAuthStore(path: string): OAuthStore {
  const load = async (): Promise<Record<string, OAuthRecord>> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, OAuthRecord>) : {};
    } catch {
      return {};
    }
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    read: async (key) => (await load())[key],
    write(key, record) {
      const run = queue.then(async () => {
        const all = await load();
        if (record) all[key] = record;
        else delete all[key];
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const temp = `${path}.${process.pid}.tmp`;
        await writeFile(temp, JSON.stringify(all, null, 2), { mode: 0o600 });
        await chmod(temp, 0o600);
        await rename(temp, path);
      });
      queue = run.catch(() => {});
      return run;
    },
  };
}

/** The editor's secret storage (the Host's): one secret per upstream. */
export function secretOAuthStore(secrets: SecretStore & { delete?(name: string): Promise<void> }): OAuthStore {
  return {
    async read(key) {
      const text = await secrets.get(key);
      if (!text) return undefined;
      try {
        return JSON.parse(text) as OAuthRecord;
      } catch {
        return undefined;
      }
    },
    async write(key, record) {
      if (!record && secrets.delete) return secrets.delete(key);
      await secrets.store?.(key, record ? JSON.stringify(record) : '');
    },
  };
}

/** The CLI's record file: `<user data dir>/hearth/mcp-oauth.json`, outside every kiln and config. */
export function userOAuthStore(env: NodeJS.ProcessEnv = process.env): OAuthStore {
  return fileOAuthStore(join(userDataDir(env), 'mcp-oauth.json'));
}
