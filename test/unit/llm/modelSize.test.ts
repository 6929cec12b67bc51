import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSmallModel, modelParameterBillions, parameterBillionsFromName, parseParameterSize } from '../../../src/core/llm/modelSize';

test('parameter_size strings from the runner metadata', () => {
  assert.equal(parseParameterSize('3.2B'), 3.2);
  assert.equal(parseParameterSize('494.03M'), 0.494);
  assert.equal(parseParameterSize('70b'), 70);
  assert.equal(parseParameterSize(''), undefined);
  assert.equal(parseParameterSize('large'), undefined);
});

test('parameter count from the model name', () => {
  assert.equal(parameterBillionsFromName('qwen2.5:0.5b'), 0.5);
  assert.equal(parameterBillionsFromName('llama3.1:8b-instruct-q4_K_M'), 8);
  assert.equal(parameterBillionsFromName('gemma3:270m'), 0.27);
  assert.equal(parameterBillionsFromName('meta-llama/Llama-3.3-70B-Instruct'), 70);
  assert.equal(parameterBillionsFromName('llama3.2'), undefined);
  assert.equal(parameterBillionsFromName('gpt-4o'), undefined);
  assert.equal(parameterBillionsFromName('claude-sonnet-4-5-20250929'), undefined);
});

test('metadata wins over the name; unknown counts as large', () => {
  assert.equal(modelParameterBillions('my-7b-finetune', '1.5B'), 1.5);
  assert.equal(modelParameterBillions('my-7b-finetune'), 7);
  assert.equal(isSmallModel(modelParameterBillions('qwen2.5:0.5b')), true);
  assert.equal(isSmallModel(3.99), true);
  assert.equal(isSmallModel(4), false);
  assert.equal(isSmallModel(modelParameterBillions('llama3.2')), false);
});
