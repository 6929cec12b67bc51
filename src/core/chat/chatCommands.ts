/**
 * The `:` commands of the chat input, run on the host: `:model [id]`, `:models`, `:agent [name]`,
 * `:clear`, `:new`, `:help`. The webview parses and completes them; this side decides.
 */
import { describeError } from '../errors';
import type { ChatCommandName } from './protocol';
import type { ProviderChoice } from './unansweredChoices';

/** Model switching as the chat sees it (the editor backs it with LlmRuntime and the switcher). */
export interface ChatModels {
  currentId(): string;
  /** Switches for the session (`provider/model`, or a model name keeping the provider); throws when unusable. */
  switchTo(id: string): Promise<string>;
  /** Every configured provider's models as `provider/model` ids, and the providers that failed. */
  list(): Promise<{ ids: string[]; errors: string[] }>;
  /** The current model's context window in tokens, where the backend tells (sizes the attachment budget). */
  contextTokens?(): Promise<number | undefined>;
  /** Opens the editor's model picker (`:model` alone). */
  openSwitcher(): Promise<void>;
  /** The workspace keys of the current provider that Restricted Mode withholds (providerKeysWaitingForTrust). */
  waitingForTrust?(): string[];
  /** After the provider did not answer: the choices that fit this machine (unansweredChoices.ts). */
  unanswered?(): Promise<ProviderChoice[]>;
  /** Carries out one of the choices `unanswered` offered last; an unknown id is ignored. */
  choose?(id: string): Promise<void>;
}

/** What a command may do to the panel (implemented by ChatController). */
export interface ChatCommandTarget {
  /** A line from Hearth; `items` are shown as a list under it (wraps at any width). */
  notice(level: 'info' | 'error', text: string, items?: string[]): void;
  showPicker(): Promise<void>;
  pickAgent(name: string): Promise<void>;
  clear(): Promise<void>;
  newChat(): Promise<void>;
  /** Signs out of the active external agent. */
  logout?(): Promise<void>;
  /** While an external agent with a model picker is active, `:model X` switches that; false when it has none. */
  switchAgentModel?(id: string): Promise<boolean>;
}

export const CHAT_HELP_TITLE = 'Commands';

/** One entry per command: what to type, then what it does. */
export const CHAT_HELP = [
  ':model — open the model switcher',
  ':model provider/model — switch the model, kept for this workspace across reloads (:model name keeps the provider)',
  ':models — every configured provider\'s chat models',
  ':agent — choose an agent; :agent name switches to it',
  ':clear — empty this conversation',
  ':new — start a new conversation',
  ':logout — sign out of the external agent (where it offers it); the next message asks to sign in again',
  ':help — this list',
  'Keys: Enter sends, Shift+Enter adds a line, ↑ recalls what you sent, Tab completes a command; @ or [[ mentions a note.',
];

export async function runChatCommand(target: ChatCommandTarget, models: ChatModels, name: ChatCommandName, arg: string): Promise<void> {
  switch (name) {
    case 'model':
      if (!arg) return models.openSwitcher();
      if (await target.switchAgentModel?.(arg)) return;
      try {
        const id = await models.switchTo(arg);
        return target.notice('info', `Model for this session: ${id}`);
      } catch (error) {
        return target.notice('error', describeError(error));
      }
    case 'models': {
      const { ids, errors } = await models.list();
      const current = models.currentId();
      const items = ids.map((id) => (id === current ? `${id} (active)` : id));
      return target.notice('info', `Models — active: ${current}`, [...(items.length ? items : ['(none listed)']), ...errors.map((e) => `unavailable: ${e}`)]);
    }
    case 'agent':
      return arg ? target.pickAgent(arg) : target.showPicker();
    case 'clear':
      return target.clear();
    case 'new':
      return target.newChat();
    case 'logout':
      return target.logout ? target.logout() : target.notice('error', 'Signing out is not available here.');
    case 'help':
      return target.notice('info', CHAT_HELP_TITLE, CHAT_HELP);
  }
}
