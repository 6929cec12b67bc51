// Which providers VS Code is offered as `hearth` language models, and their ids.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { offeredProviders, splitOfferedModelId, waitsForTrust } from '../../../src/core/llm/offeredModels';

const provider = (name: string, type = 'openai', implicit = false) => ({ name, type: type as never, implicit });

describe('offered providers', () => {
  test('the editor\'s own models are never offered back; the rest keep their order', () => {
    const out = offeredProviders([provider('a'), provider('copilot', 'githubcopilot'), provider('b', 'local_runner')], []);
    assert.deepEqual(out.map((p) => p.name), ['a', 'b']);
  });

  test('a workspace provider whose endpoint or key waits for trust is not offered; others are', () => {
    const withheld = [{ keyPath: 'llm.providers.work.endpoint' }];
    assert.deepEqual(offeredProviders([provider('work'), provider('home')], withheld).map((p) => p.name), ['home']);
    assert.equal(waitsForTrust(provider('work'), [{ keyPath: 'llm.providers.work' }]), true);
    // A prefix of another provider's name is not that provider.
    assert.equal(waitsForTrust(provider('work'), [{ keyPath: 'llm.providers.workshop.api_key' }]), false);
  });

  test('[chat] keys withheld hold back the implicit provider only', () => {
    const withheld = [{ keyPath: 'chat.endpoint' }];
    assert.equal(waitsForTrust(provider('chat', 'openai', true), withheld), true);
    assert.equal(waitsForTrust(provider('alpha'), withheld), false);
  });

  test('model ids split at the first slash; OpenRouter-style models keep theirs; malformed ids are refused', () => {
    assert.deepEqual(splitOfferedModelId('alpha/model-alpha'), { provider: 'alpha', model: 'model-alpha' });
    assert.deepEqual(splitOfferedModelId('router/openai/gpt-4o'), { provider: 'router', model: 'openai/gpt-4o' });
    for (const bad of ['', 'alpha', '/x', 'alpha/']) assert.equal(splitOfferedModelId(bad), undefined, bad);
  });
});
