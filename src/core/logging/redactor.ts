/**
 * The one redactor (DESIGN.md decision 2, issue 12 "Secrets never leave"). Hosts create one per
 * process and pass it down; whoever resolves a secret feeds it (a key, a resolved `{env:}` /
 * `{secret:}` value, URL userinfo, a secret-named env value, the value after `--token`), and every
 * user-facing string (logs, CLI output, transcripts, chat history, webview events, tooltips,
 * notifications) goes through `redact`. Only values known to be secrets are fed: a plain
 * `MODE = "DEBUG"` must not mask the word DEBUG everywhere.
 */

export const REDACTED = '«redacted»';

/** Secrets shorter than this are not registered: redacting "a" or "ok" would mangle every line. */
const MIN_SECRET_LENGTH = 4;

/** Environment variable / query parameter names whose values are credentials by their name. */
const SECRET_NAME = /key|token|secret|password|passwd|auth|credential|signature|sig$/i;

/** `--token X`, `--api-key=X`, `--github-token`, `--password`…: the value that follows is a secret. */
const SECRET_FLAG = /^--?(?:[a-z0-9]+[-_])*(?:token|api[-_]?key|apikey|access[-_]?key|secret(?:[-_]?key)?|password|passwd|pwd|auth|credentials?|bearer)$/i;

/**
 * Text a backend wrote (SDK error messages, upstream tool errors) may echo a key Hearth never saw,
 * e.g. an environment variable the SDK read itself: token-shaped words and HTTP auth schemes go too.
 */
const FOREIGN_PATTERNS: [RegExp, string][] = [
  [/\b((?:Bearer|Basic|Token)\s+)[A-Za-z0-9._~+/=-]{4,}/gi, `$1${REDACTED}`],
  [/\b(?:sk|key|pk|rk|api|ghp|gho|ghu|ghs|github_pat|xai|xoxb|xoxp|AIza)[-_A-Za-z0-9]{12,}/g, REDACTED],
];

/** True for names like `GITHUB_TOKEN`, `api_key`, `DB_PASSWORD`, `access_token`. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `postgres:` / `postgresql:` (as URL.protocol gives it, or a scheme with `://`): its user name is a role name. */
export function isDatabaseScheme(scheme: string): boolean {
  return /^postgres(?:ql)?:(?:\/\/)?$/i.test(scheme);
}

/** True for command-line flags whose value is a secret (`--token`, `--api-key`, `--password`). */
export function isSecretFlag(arg: string): boolean {
  return SECRET_FLAG.test(arg.split('=', 1)[0]);
}

export class Redactor {
  private readonly secrets = new Set<string>();
  private sorted: string[] | undefined;

  /** Registers a secret value; every later `redact` replaces its occurrences (also JSON- and URL-encoded). */
  add(secret: string | undefined): void {
    if (!secret) return;
    const trimmed = secret.trim();
    if (trimmed.length < MIN_SECRET_LENGTH) return;
    const forms = [trimmed, JSON.stringify(trimmed).slice(1, -1), encodeURIComponent(trimmed)];
    for (const form of forms) this.secrets.add(form);
    this.sorted = undefined;
  }

  /** Registers the credentials a URL carries: userinfo and secret-named query values. Not a URL: nothing. */
  addUrl(value: string | undefined): void {
    const url = parseUrl(value);
    if (!url) return;
    const user = safeDecode(url.username);
    const password = safeDecode(url.password);
    // `https://TOKEN@host` carries the token as the user name; with a password the name is just a
    // name, and so is a database URL's user (a role such as `postgres`, never a credential).
    if (password) this.add(password);
    else if (!isDatabaseScheme(url.protocol)) this.add(user);
    for (const [name, val] of url.searchParams) if (isSecretName(name)) this.add(val);
  }

  /** Registers the values of secret-named variables (`GITHUB_TOKEN = "…"`); other values stay visible. */
  addEnv(env: Record<string, string | undefined> | undefined): void {
    for (const [name, value] of Object.entries(env ?? {})) if (isSecretName(name)) this.add(value);
  }

  /** Registers the values after `--token` / `--api-key` / `--password`-style arguments (also `--token=X`). */
  addArgs(args: readonly string[] | undefined): void {
    if (!args) return;
    args.forEach((arg, i) => {
      if (!isSecretFlag(arg)) return;
      const eq = arg.indexOf('=');
      this.add(eq >= 0 ? arg.slice(eq + 1) : args[i + 1]);
    });
  }

  get size(): number {
    return this.secrets.size;
  }

  redact(text: string): string {
    if (this.secrets.size === 0 || !text) return text;
    // Longest first, so a secret that contains another is replaced whole.
    this.sorted ??= [...this.secrets].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.sorted) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  /** For text a backend wrote (SDK and upstream error messages): registered secrets and token-shaped words. */
  redactForeign(text: string): string {
    return scrubForeign(this.redact(text));
  }

  /** A copy of `value` with every string in it redacted (events, messages, conversations); other values kept. */
  redactDeep<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return this.deep(value, 0) as T;
  }

  private deep(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => this.deep(item, depth + 1));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = this.deep(item, depth + 1);
    return out;
  }

  /** Redacts any value as it would be printed: strings, errors (message and stack), and objects (as JSON). */
  redactValue(value: unknown): unknown {
    if (this.secrets.size === 0) return value;
    if (typeof value === 'string') return this.redact(value);
    if (value instanceof Error) {
      const copy = new Error(this.redact(value.message));
      copy.name = value.name;
      copy.stack = value.stack === undefined ? undefined : this.redact(value.stack);
      return copy;
    }
    if (value !== null && typeof value === 'object') {
      let text: string;
      try {
        text = JSON.stringify(value);
      } catch {
        text = String(value);
      }
      const redacted = this.redact(text);
      // Leave untouched objects as they were so hosts can still format them.
      return redacted === text ? value : redacted;
    }
    return value;
  }
}

/** Token-shaped words and HTTP auth values in text a backend wrote; for code that has no redactor at hand. */
export function scrubForeign(text: string): string {
  let out = text;
  for (const [pattern, replacement] of FOREIGN_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

function parseUrl(value: string | undefined): URL | undefined {
  if (!value || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) return undefined;
  try {
    return new URL(value.trim());
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
