/**
 * The one message protocol between the chat webview and its host (the extension). Both sides import
 * this file, so a renamed field breaks the build instead of the panel. Messages are discriminated
 * unions on `type`; what the webview sends is untrusted (it renders model output and notes) and is
 * parsed with `parseWebviewMessage` on arrival, anything malformed dropped.
 *
 * Free of `vscode` and of DOM and Node APIs: it is bundled into the webview as well.
 */
import * as z from 'zod';
import type { AgentControlsView, AgentSessionInfo } from '../agents/agentControls';
import type { AgentDescriptor, AgentEvent, PermissionRequest } from '../agents/agentSession';
import { CHAT_COMMANDS } from './commandNames';
import type { Conversation, ConversationSummary, AttachmentRef } from './conversation/conversation';
import type { NoteCompletion } from './context/noteCompletions';
import type { ChatReviewsView } from './reviews/chatReviews';
import type { Source } from './context/sources';
import type { ProviderChoice } from './unansweredChoices';

export { CHAT_COMMANDS, type ChatCommandName } from './commandNames';

/** Settings the webview renders by; sent with every `state`. */
export interface ChatSettings {
  /** `[chat].enable_markdown`: markdown (sanitized) or plain text. */
  enableMarkdown: boolean;
}

/** Everything the panel shows; sent on `ready` and whenever much of it changes at once. */
export interface ChatState {
  settings: ChatSettings;
  agents: AgentDescriptor[];
  /** The conversation's agent; undefined until one is picked (lazy_agent_selection). */
  activeAgent?: string;
  /** Whether to show the agent picker now (`lazy_agent_selection` and nothing picked yet). */
  showPicker: boolean;
  model: string;
  conversation: Conversation;
  history: ConversationSummary[];
  /** Notes attached to the next message. */
  attachments: AttachmentRef[];
  /** A turn is running: the send button is a stop button. */
  busy: boolean;
  /** The active external agent's pickers and `/` commands; absent for internal agents and before it started. */
  agentControls?: AgentControlsView;
}

export interface SearchHitView {
  path: string;
  title?: string;
  heading?: string;
  startLine?: number;
  endLine?: number;
  snippet: string;
}

/** Host → webview. Trusted (the host builds them), so typed but not parsed. */
export type HostMessage =
  | { type: 'state'; state: ChatState }
  | { type: 'turnStart'; turnId: string; text: string; attachments: AttachmentRef[] }
  | { type: 'event'; turnId: string; event: AgentEvent }
  | { type: 'turnEnd'; turnId: string }
  | { type: 'permission'; requestId: string; turnId: string; request: PermissionRequest }
  | { type: 'permissionDone'; requestId: string; optionId?: string }
  | { type: 'model'; model: string }
  | { type: 'models'; ids: string[] }
  | { type: 'attachments'; attachments: AttachmentRef[] }
  | { type: 'searchResults'; query: string; hits: SearchHitView[]; error?: string }
  /** A line from Hearth itself (`:help`, `:models`, a switch), shown in the conversation, not saved. */
  | { type: 'notice'; level: 'info' | 'error'; text: string; items?: string[] }
  | { type: 'focusInput' }
  /** The kiln's note paths that only link whole when known (spaces, parentheses): see needsKnownPath. */
  | { type: 'notePaths'; paths: string[] }
  /** Note completions for an `@`/`[[` mention (with `heading`: that note's headings). */
  | { type: 'noteCompletions'; query: string; heading?: string; items: NoteCompletion[] }
  /** The editor's active note (and selection), offered as a one-click chip; absent: none. */
  | { type: 'activeNote'; ref?: AttachmentRef }
  /** The notes a finished turn drew on (also saved on the turn). */
  | { type: 'sources'; turnId: string; sources: Source[] }
  /** Agent edits waiting for review and the newest undoable agent turn. */
  | { type: 'reviews'; view: ChatReviewsView }
  /** The active external agent's options and commands changed (absent: it has none now). */
  | { type: 'agentControls'; controls?: AgentControlsView }
  /** The agent's own saved sessions (session/list), for the history list. */
  | { type: 'agentSessions'; agent: string; sessions: AgentSessionInfo[]; error?: string }
  /** The provider did not answer: what fits this machine, shown in the turn's error box (the newest such box only). */
  | { type: 'choices'; turnId: string; choices: ProviderChoice[] };


// Bounds keep a compromised or buggy webview from pushing unbounded data into the host.
const id = z.string().min(1).max(200);
const shortText = z.string().max(2_000);

const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), text: z.string().min(1).max(1_000_000) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('retry'), turnId: id }),
  z.object({ type: z.literal('permission'), requestId: id, optionId: id.optional() }),
  z.object({ type: z.literal('pickAgent'), name: id }),
  z.object({ type: z.literal('command'), name: z.enum(CHAT_COMMANDS), arg: shortText.optional() }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('openConversation'), id }),
  z.object({ type: z.literal('deleteConversation'), id }),
  z.object({ type: z.literal('attachActiveNote') }),
  z.object({ type: z.literal('searchNotes'), query: shortText }),
  z.object({ type: z.literal('attachHit'), path: z.string().min(1).max(4_096), startLine: z.number().int().min(1).optional(), endLine: z.number().int().min(1).optional() }),
  z.object({ type: z.literal('removeAttachment'), index: z.number().int().min(0).max(1_000) }),
  z.object({ type: z.literal('requestModels') }),
  z.object({ type: z.literal('completeNotes'), query: z.string().max(300), heading: z.string().max(300).optional() }),
  /** A clicked note link or source: a kiln-relative path or a wiki-link name; the host confines it to the kiln. */
  z.object({ type: z.literal('review'), id, decision: z.enum(['accept', 'reject', 'open']) }),
  z.object({ type: z.literal('undoLastChange') }),
  z.object({ type: z.literal('setAgentOption'), id, value: z.union([z.string().min(1).max(200), z.boolean()]) }),
  z.object({ type: z.literal('listAgentSessions'), agent: id }),
  z.object({ type: z.literal('openAgentSession'), agent: id, sessionId: id, title: shortText.optional() }),
  /** One of the choices offered after the provider did not answer, by its id. */
  z.object({ type: z.literal('choice'), id: shortText.min(1) }),
  z.object({ type: z.literal('openNote'), target: z.string().min(1).max(1_000), line: z.number().int().min(1).max(10_000_000).optional() }),
]);

/** Webview → host. Untrusted: only ever produced by `parseWebviewMessage`. */
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** The message, or undefined (with the reason) when it does not match the protocol. */
export function parseWebviewMessage(raw: unknown): { message: WebviewMessage } | { error: string } {
  const result = webviewMessageSchema.safeParse(raw);
  if (result.success) return { message: result.data };
  const issue = result.error.issues[0];
  return { error: issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid message' };
}
