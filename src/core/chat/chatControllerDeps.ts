/**
 * What the host passes a chat panel's controller: the agents, the webview, storage, models, notes,
 * confirmation and settings. The editor backs them with VS Code; the tests with a fake catalog and maps.
 */
import type { AgentCatalog, AgentSessionHost } from '../agents/agentSession';
import type { Logger } from '../host';
import type { Redactor } from '../logging/redactor';
import type { AutoContext } from './context/autoContext';
import type { ChatModels } from './chatCommands';
import type { ChatReviews } from './reviews/chatReviews';
import type { HistoryStore, KeyValueStorage } from './conversation/historyStore';
import type { ChatNotes } from './context/noteRequests';
import type { HostMessage } from './protocol';

export interface ChatControllerDeps {
  catalog: AgentCatalog;
  post(message: HostMessage): void;
  store: HistoryStore;
  models: ChatModels;
  notes: ChatNotes;
  /** Asks before deleting; answers true without asking when `[cli].confirm_destructive` is false. */
  confirm(message: string, detail?: string): Promise<boolean>;
  settings(): { enableMarkdown: boolean; lazyAgentSelection: boolean; autoContext?: boolean };
  /** `[chat].auto_context`: the best note sections for a message (absent: never). */
  /** `attached`: the message's attached notes (kiln-relative), left out of the context. */
  autoContext?(text: string, signal: AbortSignal, attached?: readonly string[]): Promise<AutoContext>;
  cwd(): string;
  /** The kiln's folder (kiln-relative attachments point there); the workspace when absent. */
  kilnRoot?(): string | undefined;
  log: Logger;
  /** Agent edits waiting for review and the undoable turn (the editor's reviewer); absent: no review cards. */
  reviews?: ChatReviews;
  /** Every message to the webview and every event kept in the history passes it (a key echoed in an error). */
  redactor?: Redactor;
  /** Shows an external agent's sign-in methods and returns the user's choice (the editor's quick pick, input box, terminal). */
  signIn?: AgentSessionHost['signIn'];
  /** Where option choices per external agent are remembered (the editor's global state); absent: for this panel's life. */
  preferences?: KeyValueStorage;
  newId?(): string;
  now?(): number;
}

/** `post` with every message passing the redactor first (when there is one). */
export function redactedPost(post: (message: HostMessage) => void, redactor: Redactor | undefined): (message: HostMessage) => void {
  return redactor ? (message) => post(redactor.redactDeep(message)) : post;
}
