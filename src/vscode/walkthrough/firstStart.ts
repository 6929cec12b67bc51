/**
 * The Getting Started walkthrough opens by itself once, on the first start of Hearth in an editor's
 * user data (a flag in globalState, not synced: each install gets it once), so a newcomer sees where
 * to begin. Not when the user turned VS Code's own "open walkthroughs on install" off (the e2e
 * harness does, and so may anyone who does not want it). Free of `vscode`, so the rule is unit-tested.
 */
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';

/** `contributes.walkthroughs[0].id` in package.json. */
export const WALKTHROUGH_ID = 'hearth.gettingStarted';
/** globalState key: the walkthrough was opened once. */
export const WALKTHROUGH_OPENED_KEY = 'hearth.walkthroughOpened';

export interface FirstStartDeps {
  /** The extension's globalState (a Memento). */
  state: { get<T>(key: string): T | undefined; update(key: string, value: unknown): PromiseLike<void> };
  /** `workbench.welcomePage.walkthroughs.openOnInstall` (VS Code's default: true). */
  openOnInstall: boolean;
  /** Opens the walkthrough (`workbench.action.openWalkthrough`). */
  open(): PromiseLike<unknown>;
  log: Logger;
}

/** Opens the walkthrough if this is the first start; true when it opened it now. */
export async function openWalkthroughOnFirstStart(deps: FirstStartDeps): Promise<boolean> {
  if (deps.state.get<boolean>(WALKTHROUGH_OPENED_KEY) === true || !deps.openOnInstall) return false;
  try {
    await deps.open();
  } catch (error) {
    // An editor without walkthroughs: tried again on the next start rather than marked as seen.
    deps.log.warn(`opening the Getting Started walkthrough failed: ${describeError(error)}`);
    return false;
  }
  await deps.state.update(WALKTHROUGH_OPENED_KEY, true);
  deps.log.info('first start: opened the Getting Started walkthrough (once per install)');
  return true;
}
