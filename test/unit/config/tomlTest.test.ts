/**
 * The config reader against toml-test (https://github.com/toml-lang/toml-test), the TOML 1.0 list:
 * every valid file is read through the same path as a config file (readConfigText, then
 * parseConfigText) and must parse to its `.json` (toml-test's tagged format), with every key located
 * where it is written; every invalid file must be rejected with a line and column. The corpus is
 * taken from ../shared/conformance/toml-test when present (the project's shared copy), else from the
 * copy of its TOML 1.0 files vendored in test/fixtures/toml-test (MIT, LICENSE beside it), so CI,
 * which clones only this repository, runs it too.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { parseConfigText, readConfigText } from '../../../src/core/config/parseToml';
import type { ConfigProblem } from '../../../src/core/config/problem';
import type { KeySegment } from '../../../src/core/config/keyPath';
import type { TomlLocator } from '../../../src/core/config/tomlLocator';

// TOML_TEST_VENDORED=1 runs the vendored copy even where the shared one exists (to check the copy).
const CORPORA = [resolve('..', 'shared', 'conformance', 'toml-test', 'tests'), resolve('test', 'fixtures', 'toml-test', 'tests')].slice(process.env.TOML_TEST_VENDORED ? 1 : 0);
const corpus = CORPORA.find((dir) => existsSync(join(dir, 'files-toml-1.0.0')));
const LIST = 'files-toml-1.0.0';

/**
 * The parser's own known cases (smol-toml 1.9, not Hearth's reading of its output): each is a file
 * of the 1.0 list it accepts although TOML 1.0 refuses it, with the reason. Nothing else may fail.
 */
const FEB = "smol-toml accepts February 29 in a non-leap year and February 30 (JavaScript's Date rolls them over to March)";
const NO_SECONDS = 'smol-toml accepts a time without seconds (TOML 1.1 allows it; 1.0 does not)';
const INLINE_NEWLINE = 'smol-toml accepts newlines inside an inline table (TOML 1.1 allows them; 1.0 does not)';
const KNOWN: Record<string, string> = {
  'invalid/datetime/feb-29.toml': FEB,
  'invalid/datetime/feb-30.toml': FEB,
  'invalid/local-date/feb-29.toml': FEB,
  'invalid/local-date/feb-30.toml': FEB,
  'invalid/local-datetime/feb-29.toml': FEB,
  'invalid/local-datetime/feb-30.toml': FEB,
  'invalid/datetime/no-secs.toml': NO_SECONDS,
  'invalid/local-datetime/no-secs.toml': NO_SECONDS,
  'invalid/local-time/no-secs.toml': NO_SECONDS,
  'invalid/inline-table/linebreak-01.toml': INLINE_NEWLINE,
  'invalid/inline-table/linebreak-02.toml': INLINE_NEWLINE,
  'invalid/inline-table/linebreak-03.toml': INLINE_NEWLINE,
  'invalid/inline-table/linebreak-04.toml': INLINE_NEWLINE,
  'invalid/inline-table/trailing-comma.toml': 'smol-toml accepts a trailing comma in an inline table (TOML 1.1 allows it; 1.0 does not)',
  'invalid/string/basic-byte-escapes.toml': 'smol-toml accepts the \\xHH escape (TOML 1.1 adds it; 1.0 does not)',
};

/** One value of toml-test's tagged JSON: `{"type": "integer", "value": "42"}`. */
interface Tagged {
  type: 'string' | 'integer' | 'float' | 'bool' | 'datetime' | 'datetime-local' | 'date-local' | 'time-local';
  value: string;
}

const TAGS = new Set(['string', 'integer', 'float', 'bool', 'datetime', 'datetime-local', 'date-local', 'time-local']);

function isTagged(value: unknown): value is Tagged {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const { type, value: inner } = value as Record<string, unknown>;
  return keys.length === 2 && typeof type === 'string' && TAGS.has(type) && typeof inner === 'string';
}

/** TomlDate's accessors (smol-toml's Date subclass), as far as the comparison needs them. */
interface TomlDateLike extends Date {
  isDateTime(): boolean;
  isLocal(): boolean;
  isDate(): boolean;
  isTime(): boolean;
}

/** A date-time as JavaScript keeps it: `T`, upper-case `Z`, milliseconds exactly three digits. */
function normalizeTime(text: string): string {
  return text
    .replace(/^(\d{4}-\d{2}-\d{2})[ tT]/, '$1T')
    .replace(/z$/, 'Z')
    .replace(/(\d{2}:\d{2}:\d{2})(?:\.(\d+))?/, (_, hms: string, fraction: string | undefined) => `${hms}.${(fraction ?? '').slice(0, 3).padEnd(3, '0')}`);
}

/** Why `actual` (what the reader produced) differs from `expected` (tagged JSON); undefined when they agree. */
function difference(actual: unknown, expected: unknown, at: string): string | undefined {
  if (isTagged(expected)) return leafDifference(actual, expected, at);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${shown(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} elements, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const why = difference(actual[i], expected[i], `${at}[${i}]`);
      if (why) return why;
    }
    return undefined;
  }
  if (expected === null || typeof expected !== 'object') return `${at}: unexpected expected value ${JSON.stringify(expected)}`;
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual) || actual instanceof Date) return `${at}: expected a table, got ${shown(actual)}`;
  const want = Object.keys(expected).sort();
  const got = Object.keys(actual).sort();
  if (JSON.stringify(want) !== JSON.stringify(got)) return `${at}: expected keys ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
  for (const key of want) {
    const why = difference((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${at}.${JSON.stringify(key)}`);
    if (why) return why;
  }
  return undefined;
}

function leafDifference(actual: unknown, expected: Tagged, at: string): string | undefined {
  const wrong = `${at}: expected ${expected.type} ${JSON.stringify(expected.value)}, got ${shown(actual)}`;
  switch (expected.type) {
    case 'string':
      return actual === expected.value ? undefined : wrong;
    case 'bool':
      return actual === (expected.value === 'true') ? undefined : wrong;
    case 'integer':
      // A safe integer arrives as a number, a larger one as a bigint (exact either way).
      if (typeof actual === 'bigint') return actual === BigInt(expected.value) ? undefined : wrong;
      return typeof actual === 'number' && Number.isSafeInteger(actual) && BigInt(actual) === BigInt(expected.value) ? undefined : wrong;
    case 'float': {
      if (typeof actual !== 'number') return wrong;
      const text = expected.value.toLowerCase();
      if (text === 'nan' || text === '+nan' || text === '-nan') return Number.isNaN(actual) ? undefined : wrong;
      const want = text === 'inf' || text === '+inf' ? Infinity : text === '-inf' ? -Infinity : Number(text);
      return Object.is(actual, want) ? undefined : wrong;
    }
    default: {
      if (!(actual instanceof Date) || typeof (actual as TomlDateLike).isDateTime !== 'function') return wrong;
      const date = actual as TomlDateLike;
      const want = normalizeTime(expected.value);
      if (expected.type === 'datetime') return date.isDateTime() && !date.isLocal() && date.getTime() === Date.parse(want) ? undefined : wrong;
      if (expected.type === 'datetime-local') return date.isDateTime() && date.isLocal() && date.toISOString() === want ? undefined : wrong;
      if (expected.type === 'date-local') return date.isDate() && date.toISOString() === want ? undefined : wrong;
      return date.isTime() && date.toISOString() === want ? undefined : wrong;
    }
  }
}

function shown(value: unknown): string {
  if (value instanceof Date) return `a date ${value.toISOString()}`;
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'a table';
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Every key path of the parsed document (tables, array elements and leaves), each of which the locator must find. */
function keyPaths(value: unknown, path: KeySegment[] = [], out: KeySegment[][] = []): KeySegment[][] {
  if (Array.isArray(value)) value.forEach((element, i) => (out.push([...path, i]), keyPaths(element, [...path, i], out)));
  else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value)) {
      out.push([...path, key]);
      keyPaths(inner, [...path, key], out);
    }
  }
  return out;
}

function unlocated(data: unknown, locator: TomlLocator): string | undefined {
  const missing = keyPaths(data).find((path) => locator.exact(path) === undefined);
  return missing ? `key ${JSON.stringify(missing)} is not located` : undefined;
}

/** What the config reader makes of one corpus file: the data, the locator, and its problems. */
function read(file: string): { data: Record<string, unknown>; locator?: TomlLocator; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const text = readConfigText(file, problems);
  if (text === undefined) return { data: {}, problems };
  return { ...parseConfigText(text, file, problems), problems };
}

if (!corpus) {
  test('toml-test corpus', (t) => t.skip(`toml-test not found (looked in ${CORPORA.join(' and ')}); the conformance run is skipped`));
} else {
  const files = readFileSync(join(corpus, LIST), 'utf8').split('\n').filter((line) => line.endsWith('.toml'));
  const valid = files.filter((f) => f.startsWith('valid/'));
  const invalid = files.filter((f) => f.startsWith('invalid/'));

  describe(`toml-test, the TOML 1.0 list (${corpus})`, () => {
    test('the list is the whole 1.0 suite: 210 valid and 499 invalid files', () => {
      assert.equal(valid.length, 210);
      assert.equal(invalid.length, 499);
    });

    test('every valid file parses to its .json, every key located where it is written', () => {
      const failures: string[] = [];
      for (const name of valid) {
        const { data, locator, problems } = read(join(corpus, name));
        const errors = problems.filter((p) => p.severity === 'error');
        const expected = JSON.parse(readFileSync(join(corpus, name.replace(/\.toml$/, '.json')), 'utf8')) as unknown;
        const why = errors.length > 0 ? `rejected: ${errors[0]!.message}` : (difference(data, expected, '$') ?? (locator ? unlocated(data, locator) : 'no locator'));
        if (why && !KNOWN[name]) failures.push(`${name}: ${why}`);
      }
      assert.deepEqual(failures, []);
    });

    test('every invalid file is rejected with a line and column', () => {
      const failures: string[] = [];
      for (const name of invalid) {
        const { problems } = read(join(corpus, name));
        const error = problems.find((p) => p.severity === 'error');
        const why = !error ? 'accepted' : error.line === undefined || error.column === undefined ? `rejected without a location: ${error.message}` : undefined;
        if (why && !KNOWN[name]) failures.push(`${name}: ${why}`);
      }
      assert.deepEqual(failures, []);
    });

    test('each known case is in the list and still fails (remove it from KNOWN once the parser gets it right)', () => {
      for (const name of Object.keys(KNOWN)) {
        assert.ok(files.includes(name), `${name} is not in ${LIST}`);
        const { problems } = read(join(corpus, name));
        const rejected = problems.some((p) => p.severity === 'error');
        assert.equal(rejected, name.startsWith('valid/'), `${name} now passes`);
      }
    });
  });
}
