// The status bar follows the session's model selection and opens the switcher on click.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HearthConfigSchema } from '../../../src/core/config/schema';
import { ModelSelection } from '../../../src/core/llm/modelSelection';
import { statusPresentation, SWITCH_MODEL_COMMAND } from '../../../src/vscode/status/statusModel';
import { NO_PROVIDER_KEYS } from '../../../src/core/config/providerKeys';

test('a session switch shows in the text and the tooltip; a click opens the switcher', () => {
  const config = HearthConfigSchema.parse({ llm: { default: 'local', providers: { local: { type: 'ollama' }, work: { type: 'openai', endpoint: 'http://127.0.0.1:9/v1' } } } });
  const selection = new ModelSelection(() => ({ config, sources: {}, keys: NO_PROVIDER_KEYS }));
  const before = statusPresentation({ config, sources: {}, problems: [], selected: selection.current() });
  assert.equal(before.text, '$(flame) local/llama3.2');
  assert.equal(before.command, SWITCH_MODEL_COMMAND);
  assert.doesNotMatch(before.tooltip, /Switched for this session/);

  selection.switchTo('work/gpt-4.1-mini');
  const after = statusPresentation({ config, sources: {}, problems: [], selected: selection.current() });
  assert.equal(after.text, '$(flame) work/gpt-4.1-mini');
  assert.match(after.tooltip, /Endpoint: http:\/\/127\.0\.0\.1:9\/v1/);
  assert.match(after.tooltip, /Switched for this session \(configured: local\/llama3\.2\)/);
});

test('the tooltip carries the selected provider state', () => {
  const config = HearthConfigSchema.parse({});
  const down = statusPresentation({ config, sources: {}, problems: [], providerState: { ok: false, detail: 'cannot connect to provider "chat"' } });
  assert.match(down.tooltip, /State: unavailable — cannot connect to provider "chat"/);
  const up = statusPresentation({ config, sources: {}, problems: [], providerState: { ok: true, detail: 'reachable, 2 models listed' } });
  assert.match(up.tooltip, /State: reachable, 2 models listed/);
});
