import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TomlLocator } from '../../../src/core/config/tomlLocator';
import { didYouMean, editDistance } from '../../../src/core/config/didYouMean';
import { formatKeyPath } from '../../../src/core/config/keyPath';

const source = `# comment [not.a.table]
kiln_path = "x" # trailing
[chat]
"quoted.key" = 1
desc = """
[fake]
temperature = 9"""
temperature = 0.5
[llm.providers.work]
type = "openai"
[[mcp.servers]]
name = "a"
args = [
  "x", # c
  { inner = 1 },
]
[mcp.servers.transport]
type = "stdio"
[[mcp.servers]]
transport = { type = "sse", url = "u" }
acp.agents.foo.command = 'c'
`;

test('the locator finds keys under headers, arrays of tables, inline tables and dotted keys', () => {
  const at = new TomlLocator(source);
  const line = (...path: (string | number)[]) => at.exact(path)?.line;
  assert.equal(line('kiln_path'), 2);
  assert.equal(line('chat'), 3);
  assert.equal(line('chat', 'quoted.key'), 4);
  assert.equal(line('chat', 'temperature'), 8, 'text inside a multi-line string is not a key');
  assert.equal(line('fake'), undefined);
  assert.equal(line('llm', 'providers', 'work', 'type'), 10);
  assert.equal(line('mcp', 'servers', 0), 11);
  assert.equal(line('mcp', 'servers', 0, 'args', 1), 15);
  assert.equal(line('mcp', 'servers', 0, 'args', 1, 'inner'), 15);
  assert.equal(line('mcp', 'servers', 0, 'transport', 'type'), 18);
  assert.equal(line('mcp', 'servers', 1, 'transport', 'url'), 20);
  assert.deepEqual(at.exact(['mcp', 'servers', 1, 'transport', 'url']), { line: 20, column: 29 });
  assert.equal(line('mcp', 'servers', 1, 'acp', 'agents', 'foo', 'command'), 21);
  // A key that is not written is located at its nearest written table.
  assert.equal(at.nearest(['mcp', 'servers', 1, 'prefix'])?.line, 19);
  assert.equal(at.nearest(['chat', 'max_tokens'])?.line, 3);
  assert.equal(at.nearest(['nothing']), undefined);
});

test('the locator survives malformed input', () => {
  const at = new TomlLocator('[chat\n= = =\n"unterminated\n[cli]\nverbose = true\n{[}]\n');
  assert.equal(at.exact(['cli', 'verbose'])?.line, 5);
});

test('did-you-mean: close misspellings suggest, unrelated words do not', () => {
  assert.equal(editDistance('temprature', 'temperature'), 1);
  assert.equal(editDistance('modle', 'model'), 1, 'a swap counts as one edit');
  assert.equal(didYouMean('temprature', ['model', 'temperature']), 'temperature');
  assert.equal(didYouMean('embeding', ['chat', 'embedding']), 'embedding');
  assert.equal(didYouMean('maxtokens', ['max_tokens']), 'max_tokens');
  assert.equal(didYouMean('Provider', ['provider']), 'provider');
  assert.equal(didYouMean('banana', ['model', 'provider']), undefined);
});

test('key paths quote segments that are not bare keys', () => {
  assert.equal(formatKeyPath(['mcp', 'servers', 1, 'prefix']), 'mcp.servers[1].prefix');
  assert.equal(formatKeyPath(['llm', 'providers', 'my.x']), 'llm.providers."my.x"');
});
