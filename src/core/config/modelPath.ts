import { isAbsolute } from 'node:path';

/**
 * `[embedding].model` given as a path (a folder of model files, or a GGUF file for local_gpu_b)
 * rather than a model id: absolute, `./` or `../` (against the workspace root) or `~/`. A `..`
 * anywhere makes it a path too: no Hub id has one, and under the model cache `org/../../x` leaves it
 * for any folder (transformers.js loads from there), past the trust gate for paths outside.
 */
export function isLocalModelPath(model: string): boolean {
  return isAbsolute(model) || model.startsWith('./') || model.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(model) || model.split(/[\\/]/).includes('..');
}
