/**
 * What `hearth config` and "Show Effective Config" print instead of secrets: every literal in an
 * `env` table, `api_key` / `auth_header` literals, URL userinfo and query values, and values after
 * `--token`-style `args` become MASKED_SECRET. References (`{env:X}`, `{secret:X}`) are printed as
 * written: they say where a secret comes from without containing it.
 */
import { isDatabaseScheme, isSecretFlag } from '../logging/redactor';
import { parseSecretReference } from './resolveSecret';

export const MASKED_SECRET = '********';

const EMBEDDED_REF = /\{(?:env|secret):[^}]+\}/;
const CREDENTIAL_KEYS = new Set(['api_key', 'auth_header']);
/** scheme://[userinfo@]host[path][?query][#fragment], kept as text: URL() would re-encode `{env:X}`. */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^/?#]*)@)?([^?#]*)(?:\?([^#]*))?(#.*)?$/i;

/** A copy of `config` with its secrets masked; structure, references and harmless values unchanged. */
export function maskConfigSecrets<T>(config: T): T {
  return mask(config, []) as T;
}

function mask(value: unknown, path: string[]): unknown {
  const key = path[path.length - 1];
  const parent = path[path.length - 2];
  if (typeof value === 'string') {
    if (CREDENTIAL_KEYS.has(key)) return isReference(value, true) ? value : MASKED_SECRET;
    if (parent === 'env') return isReference(value, false) ? value : MASKED_SECRET;
    return maskUrl(value);
  }
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'string')) return maskArgs(value as string[]);
    return value.map((item) => mask(item, path));
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(value)) out[k] = mask(item, [...path, k]);
    return out;
  }
  return value;
}

/** `{env:X}` / `{secret:X}` (also inside a value, e.g. `Bearer {env:X}`); a bare NAME only where it means a variable (api_key). */
function isReference(value: string, bareIsReference: boolean): boolean {
  const kind = parseSecretReference(value).kind;
  if (kind === 'env' || kind === 'secret' || (kind === 'bare' && bareIsReference)) return true;
  return EMBEDDED_REF.test(value) && !/\S/.test(value.replace(new RegExp(EMBEDDED_REF.source, 'g'), '').replace(/^(?:Bearer|Basic|Token)\s+/i, ''));
}

/** `--token X` → `--token ********`, `--api-key=X` → `--api-key=********`; URLs in args masked too. */
function maskArgs(args: string[]): string[] {
  return args.map((arg, i) => {
    const eq = arg.indexOf('=');
    if (arg.startsWith('-') && eq > 0 && isSecretFlag(arg)) {
      const val = arg.slice(eq + 1);
      return isReference(val, false) ? arg : `${arg.slice(0, eq + 1)}${MASKED_SECRET}`;
    }
    if (i > 0 && eq < 0 && isSecretFlag(args[i - 1]) && !args[i - 1].includes('=')) return isReference(arg, false) ? arg : MASKED_SECRET;
    return maskUrl(arg);
  });
}

function maskUrl(value: string): string {
  const parts = URL_PARTS.exec(value.trim());
  if (!parts) return value;
  const [, scheme, userinfo, rest, query, fragment] = parts;
  const user = userinfo === undefined ? '' : `${maskUserinfo(scheme, userinfo)}@`;
  const maskedQuery =
    query === undefined
      ? ''
      : `?${query
          .split('&')
          .map((pair) => {
            const eq = pair.indexOf('=');
            if (eq < 0) return pair;
            const val = pair.slice(eq + 1);
            return val === '' || isReference(decodeSafe(val), false) ? pair : `${pair.slice(0, eq + 1)}${MASKED_SECRET}`;
          })
          .join('&')}`;
  return `${scheme}${user}${rest}${maskedQuery}${fragment ?? ''}`;
}

/**
 * A database URL's user is a role name (`postgres://postgres@db`): only its password is masked.
 * Elsewhere the whole userinfo goes (`https://TOKEN@host` carries a token as the user name).
 */
function maskUserinfo(scheme: string, userinfo: string): string {
  if (isReference(userinfo, false)) return userinfo;
  if (!isDatabaseScheme(scheme)) return MASKED_SECRET;
  const colon = userinfo.indexOf(':');
  if (colon < 0) return userinfo;
  const password = userinfo.slice(colon + 1);
  return `${userinfo.slice(0, colon + 1)}${isReference(decodeSafe(password), false) ? password : MASKED_SECRET}`;
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
