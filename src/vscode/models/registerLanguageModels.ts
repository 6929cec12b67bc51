/**
 * Registers Hearth's providers as VS Code language models (vendor `hearth`) where the editor has
 * the API (1.104+); on an older editor nothing is registered and nothing is logged as an error.
 *
 * On 1.139 a chat participant's first request in a fresh window fails "Language model
 * unavailable" unless some model has been selected once, so the vendor's models are selected once
 * right after registering (which also makes VS Code ask for the list early).
 */
import * as vscode from 'vscode';
import { describeError } from '../../core/errors';
import { languageModelChatProviderApi } from '../api/newerApi';
import { HEARTH_VENDOR } from './editorLmProvider';
import { HearthLanguageModels, type HearthLanguageModelsDeps } from './hearthLanguageModels';

export function registerHearthLanguageModels(deps: HearthLanguageModelsDeps): { disposables: vscode.Disposable[]; refresh(): void } | undefined {
  const register = languageModelChatProviderApi();
  const log = deps.log.child('language models');
  if (!register) {
    log.debug(`VS Code ${vscode.version} has no language model chat provider API (1.104+): Hearth's models are not offered to the editor`);
    return undefined;
  }
  const models = new HearthLanguageModels(deps);
  const registration = register(HEARTH_VENDOR, models);
  void Promise.resolve(vscode.lm.selectChatModels({ vendor: HEARTH_VENDOR })).then(
    (found) => log.info(`offered to VS Code as language models: ${found.map((m) => m.id).join(', ') || 'none yet'}`),
    (error: unknown) => log.warn(`selecting Hearth's language models failed: ${deps.redactor.redact(describeError(error))}`),
  );
  return { disposables: [registration, models], refresh: () => models.refresh() };
}
