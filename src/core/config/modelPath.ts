import { isAbsolute } from 'node:path';

/**
 * `[embedding].model` given as a path (a folder of model files, or a GGUF file for local_gpu_b)
 * rather than a model id: absolute, `./` or `../` (against the workspace root) or `~/`.
 */
export function isLocalModelPath(model: string): boolean {
  return isAbsolute(model) || model.startsWith('./') || model.startsWith('../') || model.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(model);
}
