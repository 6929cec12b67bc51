// The generated tiny BERT-shaped model (test/fixtures/tiny-model/generate.mjs), made on first use.
import { DEFAULT_TINY_MODEL_DIR, generateTinyModel, TINY_MODEL_DIM } from '../../fixtures/tiny-model/generate.mjs';

export { TINY_MODEL_DIM };

export function tinyModelDir(): string {
  return generateTinyModel(DEFAULT_TINY_MODEL_DIR);
}
