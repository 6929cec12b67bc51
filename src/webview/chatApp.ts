/**
 * The chat panel in the webview: header (agent, model, conversations, new chat), the agent picker,
 * the conversation, and the composer. It holds no truth of its own: the host sends state and
 * streamed events, the app renders them and reports what the user did. Built on a Document passed
 * in, so tests run it in jsdom.
 */
import type { ChatState, HostMessage, WebviewMessage } from '../core/chat/protocol';
import type { ProviderChoice } from '../core/chat/unansweredChoices';
import { renderAgentPicker } from './agentPicker';
import { Composer } from './composer';
import { NOTE_LINK_CLASS } from './noteLinks';
import { renderAgentSessions, renderHistory } from './historyList';
import { renderAgentOptions } from './agentOptions';
import { ReviewCards } from './reviewCards';
import { el, TurnView } from './turnView';

export interface ChatAppOptions {
  doc: Document;
  root: HTMLElement;
  post(message: WebviewMessage): void;
  /** Defers streamed re-rendering; requestAnimationFrame in the panel. */
  schedule?(work: () => void): void;
}

export class ChatApp {
  private state: ChatState | undefined;
  private models: string[] = [];
  /** The kiln's note paths that link only when known (sent by the host; see needsKnownPath). */
  private notePaths: string[] = [];
  private readonly turns = new Map<string, TurnView>();
  /** The newest failure's choices (not saved with the turn), shown again after a redraw. */
  private choices: { turnId: string; choices: ProviderChoice[] } | undefined;
  private readonly permissionTurns = new Map<string, string>();
  /** Notices since the conversation last moved on. */
  private notices: HTMLElement[] = [];
  private readonly agentButton: HTMLButtonElement;
  private readonly modelButton: HTMLButtonElement;
  private readonly historyButton: HTMLButtonElement;
  /** The active external agent's pickers (mode, model, reasoning, switches), between the model and the icons. */
  private readonly agentOptions: HTMLElement;
  /** The agent's own saved sessions, asked for when the history opens with an external agent active. */
  private agentSessions: Extract<HostMessage, { type: 'agentSessions' }> | undefined;
  private readonly overlay: HTMLElement;
  private readonly messages: HTMLElement;
  private readonly composer: Composer;
  private readonly reviews: ReviewCards;
  private historyOpen = false;
  private readonly doc: Document;

  constructor(private readonly options: ChatAppOptions) {
    const { doc, root, post } = options;
    this.doc = doc;
    const header = el(doc, 'header', 'chat-header');
    this.agentButton = this.button('Agent', 'Choose the agent (:agent)', () => post({ type: 'command', name: 'agent' }));
    this.agentButton.classList.add('agent-button');
    this.modelButton = this.button('', 'Switch the model (:model)', () => post({ type: 'command', name: 'model' }));
    this.modelButton.classList.add('model-button');
    // Icons with tooltips (and accessible names): the header fits the default side bar width.
    this.historyButton = this.button('☰', 'History: saved conversations', () => this.toggleHistory());
    this.historyButton.classList.add('history-button', 'icon-button');
    this.historyButton.setAttribute('aria-label', 'History');
    const newChat = this.button('+', 'New chat, same agent (:new)', () => post({ type: 'newChat' }));
    newChat.classList.add('new-chat', 'icon-button');
    newChat.setAttribute('aria-label', 'New chat');
    this.agentOptions = el(doc, 'span', 'agent-options');
    header.append(this.agentButton, this.modelButton, this.agentOptions, el(doc, 'span', 'spacer'), this.historyButton, newChat);
    this.overlay = el(doc, 'div', 'overlay');
    this.messages = el(doc, 'main', 'messages');
    this.messages.setAttribute('aria-live', 'polite');
    // Note links (in replies and Sources) carry data only: a click asks the host, which confines it to the kiln.
    this.messages.addEventListener('click', (event) => {
      const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>(`a.${NOTE_LINK_CLASS}`);
      if (!link) return;
      event.preventDefault();
      const line = Number(link.dataset.line);
      post({ type: 'openNote', target: link.dataset.target ?? '', ...(Number.isInteger(line) && line >= 1 ? { line } : {}) });
    });
    this.composer = new Composer({
      doc,
      post,
      context: () => ({ agents: this.state?.agents ?? [], models: this.models, commands: this.state?.agentControls?.commands ?? [] }),
      localNotice: (text) => this.notice('error', text),
      waitingForUser: () => this.messages.querySelector('.permission:not(.answered)') !== null || this.reviews.element.querySelector('.review-card') !== null,
    });
    this.reviews = new ReviewCards(doc, post);
    root.replaceChildren(header, this.overlay, this.messages, this.reviews.element, this.composer.element);
  }

  get input(): HTMLTextAreaElement {
    return this.composer.input;
  }

  receive(message: HostMessage): void {
    switch (message.type) {
      case 'state':
        return this.render(message.state);
      case 'turnStart': {
        this.notices = []; // the conversation moved on: earlier notices stay where they are, until the next redraw
        this.choices = undefined;
        if (this.state) this.state.busy = true;
        this.composer.setBusy(true);
        const existing = this.turns.get(message.turnId);
        const view = this.turnView({ id: message.turnId, text: message.text, attachments: message.attachments });
        if (existing) existing.element.replaceWith(view.element); // a retry starts the turn again
        else this.messages.append(view.element);
        view.setRunning(true);
        return this.scroll();
      }
      case 'event':
        this.turns.get(message.turnId)?.apply(message.event);
        return this.scroll();
      case 'turnEnd':
        if (this.state) this.state.busy = false;
        this.composer.setBusy(false);
        this.turns.get(message.turnId)?.setRunning(false);
        return;
      case 'permission':
        this.permissionTurns.set(message.requestId, message.turnId);
        // The prompt goes into the turn that waits for it and scrolls itself into view.
        this.turns.get(message.turnId)?.showPermission(message.requestId, message.request);
        return;
      case 'permissionDone': {
        const turnId = this.permissionTurns.get(message.requestId);
        if (turnId) this.turns.get(turnId)?.permissionDone(message.requestId, message.optionId);
        return;
      }
      case 'model':
        if (this.state) this.state.model = message.model;
        this.modelButton.textContent = message.model;
        return;
      case 'models':
        this.models = message.ids;
        if (this.doc.activeElement === this.composer.input) this.composer.updateCompletions();
        return;
      case 'attachments':
        if (this.state) this.state.attachments = message.attachments;
        return this.composer.setAttachments(message.attachments);
      case 'searchResults':
        return this.composer.showSearchResults(message.query, message.hits, message.error);
      case 'notice':
        return this.notice(message.level, message.text, message.items);
      case 'focusInput':
        return this.composer.focus();
      case 'notePaths': {
        const changed = message.paths.join('\n') !== this.notePaths.join('\n');
        this.notePaths = message.paths;
        // Replies already shown link the paths they cite too (a restored conversation comes before the list).
        if (changed && this.state && !this.state.busy) this.renderConversation();
        return;
      }
      case 'noteCompletions':
        return this.composer.showNoteCompletions(message.query, message.heading, message.items);
      case 'activeNote':
        return this.composer.setActiveNote(message.ref);
      case 'sources':
        return this.turns.get(message.turnId)?.setSources(message.sources);
      case 'choices':
        // Said once: only the newest error box keeps the choices (an earlier failure's go). Kept
        // here too, since they are not saved with the turn and a redraw would otherwise drop them.
        this.choices = { turnId: message.turnId, choices: message.choices };
        this.showChoices();
        return this.scroll();
      case 'reviews':
        return this.reviews.render(message.view);
      case 'agentControls':
        if (this.state) {
          if (message.controls) this.state.agentControls = message.controls;
          else delete this.state.agentControls;
        }
        return this.renderAgentOptions();
      case 'agentSessions':
        this.agentSessions = message;
        return this.renderOverlay();
    }
  }

  private render(state: ChatState): void {
    if (this.state?.conversation.id !== state.conversation.id) this.notices = [];
    const conversationChanged =
      this.state?.conversation.id !== state.conversation.id ||
      this.state.conversation.turns.length !== state.conversation.turns.length ||
      this.state.settings.enableMarkdown !== state.settings.enableMarkdown;
    this.state = state;
    this.agentButton.textContent = state.activeAgent ?? 'Choose agent…';
    this.agentButton.title = `Agent: ${state.activeAgent ?? 'none yet'} — choose the agent (:agent)`;
    this.modelButton.textContent = state.model;
    this.modelButton.title = `Model: ${state.model} — switch the model (:model)`;
    this.composer.setBusy(state.busy);
    this.composer.setAttachments(state.attachments);
    this.renderAgentOptions();
    this.renderOverlay();
    if (conversationChanged || !state.busy) this.renderConversation();
  }

  private renderConversation(): void {
    const state = this.state!;
    this.turns.clear();
    this.messages.replaceChildren();
    if (state.conversation.turns.length === 0) {
      this.messages.append(el(this.doc, 'div', 'empty', 'Ask about your notes. Attach the open note or search hits as context; type :help for commands.'));
    }
    for (const turn of state.conversation.turns) {
      const view = this.turnView(turn);
      for (const event of turn.events) view.apply(event);
      view.setRunning(turn.status === 'running');
      if (turn.sources) view.setSources(turn.sources);
      this.messages.append(view.element);
    }
    this.messages.append(...this.notices);
    this.showChoices();
    this.scroll();
    // Again once laid out: a restored conversation opens at its end, where one continues it.
    this.options.schedule?.(() => this.scroll());
  }

  private showChoices(): void {
    this.messages.querySelectorAll('.error-choices').forEach((old) => old.remove());
    if (this.choices) this.turns.get(this.choices.turnId)?.showChoices(this.choices.choices, (id) => this.options.post({ type: 'choice', id }));
  }

  private renderOverlay(): void {
    const state = this.state!;
    this.overlay.replaceChildren();
    this.historyButton.classList.toggle('active', this.historyOpen);
    if (state.showPicker) {
      this.overlay.append(renderAgentPicker(this.doc, state.agents, state.activeAgent, (name) => this.options.post({ type: 'pickAgent', name }), () => this.closePicker()));
    } else if (this.historyOpen) {
      this.overlay.append(
        renderHistory(
          this.doc,
          state.history,
          state.conversation.id,
          (id) => {
            this.historyOpen = false;
            this.options.post({ type: 'openConversation', id });
          },
          (id) => this.options.post({ type: 'deleteConversation', id }),
        ),
      );
      const agent = state.agents.find((a) => a.name === state.activeAgent);
      if (agent?.kind === 'external' && this.agentSessions?.agent === agent.name) {
        this.overlay.append(
          renderAgentSessions(this.doc, this.agentSessions, state.conversation.agentSession?.id, (sessionId, title) => {
            this.historyOpen = false;
            this.options.post({ type: 'openAgentSession', agent: agent.name, sessionId, ...(title ? { title } : {}) });
          }),
        );
      }
    }
  }

  private renderAgentOptions(): void {
    const controls = this.state?.agentControls;
    this.agentOptions.replaceChildren(...(controls ? renderAgentOptions(this.doc, controls.options, (id, value) => this.options.post({ type: 'setAgentOption', id, value })) : []));
    // An external agent with its own model picker chooses its model there; Hearth's model button would mislead.
    this.modelButton.hidden = controls?.options.some((o) => o.category === 'model') === true;
  }

  private closePicker(): void {
    if (!this.state) return;
    this.state.showPicker = false;
    this.renderOverlay();
  }

  private toggleHistory(): void {
    this.historyOpen = !this.historyOpen;
    if (this.state) this.state.showPicker = false;
    const agent = this.state?.agents.find((a) => a.name === this.state?.activeAgent);
    // The agent's own sessions are asked for each time (it may have new ones); they show when they come.
    if (this.historyOpen && agent?.kind === 'external') this.options.post({ type: 'listAgentSessions', agent: agent.name });
    this.renderOverlay();
  }

  private turnView(turn: { id: string; text: string; attachments: ChatState['attachments'] }): TurnView {
    const view = new TurnView(turn, {
      doc: this.doc,
      enableMarkdown: this.state?.settings.enableMarkdown ?? true,
      notePaths: () => this.notePaths,
      schedule: this.options.schedule ?? ((work) => work()),
      onRetry: (turnId) => this.options.post({ type: 'retry', turnId }),
      onPermission: (requestId, optionId) => this.options.post({ type: 'permission', requestId, ...(optionId ? { optionId } : {}) }),
    });
    this.turns.set(turn.id, view);
    return view;
  }

  private notice(level: 'info' | 'error', text: string, items?: string[]): void {
    const notice = el(this.doc, 'div', `notice ${level}`);
    notice.append(el(this.doc, 'div', 'notice-text', text));
    if (items?.length) {
      const list = el(this.doc, 'ul', 'notice-items');
      for (const item of items) list.append(el(this.doc, 'li', '', item));
      notice.append(list);
    }
    if (level === 'error') notice.setAttribute('role', 'alert');
    // Kept until the conversation moves on (a new turn, another conversation): a state update
    // that redraws the turns puts them back.
    this.notices.push(notice);
    this.messages.append(notice);
    this.scroll();
  }

  private scroll(): void {
    this.messages.scrollTop = this.messages.scrollHeight;
  }

  private button(text: string, title: string, onClick: () => void): HTMLButtonElement {
    const button = el(this.doc, 'button', '', text) as HTMLButtonElement;
    button.type = 'button';
    button.title = title;
    button.addEventListener('click', onClick);
    return button;
  }
}
