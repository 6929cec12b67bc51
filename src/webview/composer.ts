/**
 * The input area: the text box (Enter sends, Shift+Enter adds a line, ↑/↓ recall, Tab completes a
 * `:` command), the completion list, the attached notes (chips), attaching the active note or a
 * search hit, and the send button that becomes a stop button while a turn runs.
 */
import type { AttachmentRef } from '../core/chat/conversation/conversation';
import { formatAttachment } from '../core/chat/conversation/conversation';
import type { SearchHitView, WebviewMessage } from '../core/chat/protocol';
import { complete, InputHistory, parseInput, type Completion, type CompletionContext } from './commandInput';
import { el } from './turnView';

export interface ComposerOptions {
  doc: Document;
  post(message: WebviewMessage): void;
  /** Agents and models for completion; models are asked for the first time `:model ` is typed. */
  context(): CompletionContext;
  /** A message for the conversation that only the webview knows (an unknown command). */
  localNotice(text: string): void;
  /** Whether the running turn waits for the user (a permission prompt or a change to review), not for the agent. */
  waitingForUser?(): boolean;
}

/** A completion that, when picked, attaches a note (a mention) instead of only editing the text. */
type ComposerCompletion = Completion & { attach?: AttachmentRef; caret?: number };

/** An `@` or `[[` mention being typed just before the caret: `@query` or `@query#heading`. */
export function mentionAt(text: string, caret: number): { start: number; query: string; heading?: string } | undefined {
  const match = /(?:^|[\s(])(@|\[\[)([^\s@#[\]]{0,200})(?:#([^\n@[\]]{0,200}))?$/u.exec(text.slice(0, caret));
  if (!match) return undefined;
  const start = match.index + match[0].length - (match[1]!.length + match[2]!.length + (match[3] !== undefined ? match[3].length + 1 : 0));
  return { start, query: match[2]!, ...(match[3] !== undefined ? { heading: match[3] } : {}) };
}

export class Composer {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly completionList: HTMLElement;
  private readonly chips: HTMLElement;
  private readonly searchBox: HTMLElement;
  private readonly searchInput: HTMLInputElement;
  private readonly searchResults: HTMLElement;
  private readonly history = new InputHistory();
  private completions: ComposerCompletion[] = [];
  /** The mention whose completions were asked for (answers to older ones are dropped). */
  private mention: { start: number; query: string; heading?: string } | undefined;
  private readonly suggestion: HTMLElement;
  private activeNote: AttachmentRef | undefined;
  private attached: AttachmentRef[] = [];
  private selected = 0;
  private busy = false;
  private modelsRequested = false;

  constructor(private readonly options: ComposerOptions) {
    const { doc } = options;
    this.element = el(doc, 'footer', 'composer');
    this.chips = el(doc, 'div', 'chips');
    this.suggestion = el(doc, 'div', 'suggestion');
    this.suggestion.hidden = true;
    this.completionList = el(doc, 'ul', 'completions');
    this.completionList.setAttribute('role', 'listbox');
    this.completionList.hidden = true;

    this.searchBox = el(doc, 'div', 'search');
    this.searchBox.hidden = true;
    this.searchInput = doc.createElement('input');
    this.searchInput.type = 'search';
    this.searchInput.placeholder = 'Search notes, Enter to search';
    this.searchInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && this.searchInput.value.trim()) options.post({ type: 'searchNotes', query: this.searchInput.value.trim() });
      if (event.key === 'Escape') this.toggleSearch(false);
    });
    this.searchResults = el(doc, 'ul', 'search-results');
    this.searchBox.append(this.searchInput, this.searchResults);

    this.input = doc.createElement('textarea');
    this.input.className = 'input';
    this.input.rows = 3;
    this.input.placeholder = 'Ask about your notes… (@ to mention a note, :help for commands)';
    this.input.setAttribute('aria-label', 'Message');
    this.input.addEventListener('keydown', (event) => this.onKey(event));
    this.input.addEventListener('input', () => this.updateCompletions());

    const bar = el(doc, 'div', 'composer-bar');
    const attachNote = this.button('Attach note', 'Attach the note open in the editor', () => options.post({ type: 'attachActiveNote' }));
    attachNote.classList.add('attach-note');
    const search = this.button('Search notes', 'Attach notes found by search', () => this.toggleSearch());
    search.classList.add('search-toggle');
    this.sendButton = this.button('Send', 'Send (Enter)', () => (this.busy ? options.post({ type: 'stop' }) : this.submit()));
    this.sendButton.classList.add('send');
    bar.append(attachNote, search, el(doc, 'span', 'spacer'), this.sendButton);
    this.element.append(this.searchBox, this.suggestion, this.chips, this.completionList, this.input, bar);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.sendButton.textContent = busy ? 'Stop' : 'Send';
    this.sendButton.title = busy ? 'Stop the reply' : 'Send (Enter)';
    this.sendButton.classList.toggle('stop', busy);
  }

  /** The editor's active note (or selection), offered as a chip one click adds; hidden once attached. */
  setActiveNote(ref: AttachmentRef | undefined): void {
    this.activeNote = ref;
    this.renderSuggestion();
  }

  /** Completions for the mention being typed, unless the user typed on since asking. */
  showNoteCompletions(query: string, heading: string | undefined, items: { path: string; title: string; heading?: string; startLine?: number; endLine?: number }[]): void {
    const mention = this.mention;
    if (!mention || mention.query !== query || mention.heading !== heading) return;
    const caret = this.input.selectionStart ?? this.input.value.length;
    const before = this.input.value.slice(0, mention.start);
    const after = this.input.value.slice(caret);
    // The pick stays in the sentence as a wiki link ("What does [[Basil]] say…"), for the user and the model.
    const written = (item: { title: string; heading?: string }) => `[[${item.title}${item.heading ? `#${item.heading}` : ''}]]${/^\s/.test(after) ? '' : ' '}`;
    this.completions = items.map((item) => ({
      label: item.heading ? `# ${item.heading}` : item.title,
      detail: item.heading ? `${item.path}:${item.startLine}-${item.endLine}` : item.path,
      value: before + written(item) + after,
      caret: (before + written(item)).length,
      attach: { path: item.path, ...(item.startLine ? { startLine: item.startLine } : {}), ...(item.endLine ? { endLine: item.endLine } : {}) },
    }));
    this.selected = 0;
    this.renderCompletions();
  }

  private renderSuggestion(): void {
    const ref = this.activeNote;
    const same = (a: AttachmentRef) => ref && a.path === ref.path && a.startLine === ref.startLine && a.endLine === ref.endLine;
    this.suggestion.replaceChildren();
    this.suggestion.hidden = !ref || this.attached.some(same);
    if (this.suggestion.hidden || !ref) return;
    const add = this.button(`+ ${formatAttachment(ref)}`, `Attach ${ref.startLine ? 'the selection in' : 'the note open in the editor:'} ${formatAttachment(ref)}`, () => this.options.post({ type: 'attachActiveNote' }));
    add.classList.add('chip', 'suggested');
    this.suggestion.append(add);
  }

  setAttachments(attachments: AttachmentRef[]): void {
    this.attached = attachments;
    this.renderSuggestion();
    this.chips.replaceChildren();
    attachments.forEach((ref, index) => {
      const chip = el(this.options.doc, 'span', 'chip', `#${formatAttachment(ref)} `);
      const remove = this.button('✕', 'Remove', () => this.options.post({ type: 'removeAttachment', index }));
      remove.classList.add('icon');
      chip.append(remove);
      this.chips.append(chip);
    });
  }

  showSearchResults(query: string, hits: SearchHitView[], error?: string): void {
    const { doc } = this.options;
    this.toggleSearch(true);
    this.searchResults.replaceChildren();
    if (error) this.searchResults.append(el(doc, 'li', 'error-message', error));
    else if (hits.length === 0) this.searchResults.append(el(doc, 'li', 'muted', `Nothing found for "${query}".`));
    for (const hit of hits) {
      const row = el(doc, 'li', 'hit');
      const attach = this.button('Attach', `Attach ${hit.path}`, () => {
        this.options.post({ type: 'attachHit', path: hit.path, ...(hit.startLine ? { startLine: hit.startLine } : {}), ...(hit.endLine ? { endLine: hit.endLine } : {}) });
        // Used: the search closes and typing goes on in the message.
        this.toggleSearch(false);
        this.searchInput.value = '';
        this.searchResults.replaceChildren();
        this.input.focus();
      });
      row.append(el(doc, 'span', 'hit-title', hit.title ?? hit.path), el(doc, 'span', 'muted', ` ${formatAttachment(hit)}${hit.heading ? ` · ${hit.heading}` : ''}`), el(doc, 'div', 'hit-snippet', hit.snippet), attach);
      this.searchResults.append(row);
    }
  }

  focus(): void {
    this.input.focus();
  }

  /** Re-shows the completion list after new models or agents arrived. */
  updateCompletions(): void {
    const value = this.input.value;
    const mention = mentionAt(value, this.input.selectionStart ?? value.length);
    if (mention) {
      // Asked of the host (it knows the kiln); the list shows when the answer for this text comes.
      if (!this.mention || this.mention.query !== mention.query || this.mention.heading !== mention.heading) {
        this.mention = mention;
        this.options.post({ type: 'completeNotes', query: mention.query, ...(mention.heading !== undefined ? { heading: mention.heading } : {}) });
      }
      return;
    }
    this.mention = undefined;
    if (/^:model\s/i.test(value) && !this.modelsRequested) {
      this.modelsRequested = true;
      this.options.post({ type: 'requestModels' });
    }
    this.completions = value.includes('\n') ? [] : complete(value, this.options.context());
    this.selected = 0;
    this.renderCompletions();
  }

  /** Sends the input as a message or runs it as a command. */
  submit(): void {
    const raw = this.input.value;
    const parsed = parseInput(raw);
    if (parsed.kind === 'message' && !parsed.text) return;
    this.history.push(raw.trim());
    this.input.value = '';
    this.updateCompletions();
    if (parsed.kind === 'unknown') return this.options.localNotice(`Unknown command :${parsed.name} — type :help for the list.`);
    if (parsed.kind === 'command') {
      if (parsed.name === 'model') this.modelsRequested = false; // a switch may have changed what is listed
      return this.options.post({ type: 'command', name: parsed.name, ...(parsed.arg ? { arg: parsed.arg } : {}) });
    }
    if (this.busy) {
      return this.options.localNotice(
        this.options.waitingForUser?.() ? 'The agent is waiting for your answer above (a permission, or a change to accept or reject): answer it, or press Stop first.' : 'A reply is still streaming: stop it first.',
      );
    }
    this.options.post({ type: 'send', text: parsed.text });
  }

  private onKey(event: KeyboardEvent): void {
    const open = !this.completionList.hidden && this.completions.length > 0;
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      const choice = open ? this.completions[this.selected] : undefined;
      // Enter on a partial command completes it; on a complete one it runs; on a mention it attaches.
      if (choice && (choice.attach || choice.value.trim() !== this.input.value.trim())) return this.accept(choice);
      return this.submit();
    }
    if (event.key === 'Tab' && open) {
      event.preventDefault();
      return this.accept(this.completions[this.selected]!);
    }
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      this.completionList.hidden = true;
      return;
    }
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && open) {
      event.preventDefault();
      const step = event.key === 'ArrowUp' ? -1 : 1;
      this.selected = (this.selected + step + this.completions.length) % this.completions.length;
      return this.renderCompletions();
    }
    const before = this.input.value.slice(0, this.input.selectionStart ?? 0);
    const after = this.input.value.slice(this.input.selectionEnd ?? this.input.value.length);
    // ↑ on the first line (↓ on the last) walks through what was sent, as in a shell.
    if ((event.key === 'ArrowUp' && !before.includes('\n')) || (event.key === 'ArrowDown' && !after.includes('\n'))) {
      const recalled = this.history.recall(event.key === 'ArrowUp' ? -1 : 1, this.input.value);
      if (recalled === undefined) return;
      event.preventDefault();
      this.input.value = recalled;
      this.input.setSelectionRange(recalled.length, recalled.length);
    }
  }

  private accept(choice: ComposerCompletion): void {
    if (choice.attach) {
      // A mention becomes a chip, and the typed @text becomes `[[Note]]` in the message.
      const start = choice.caret ?? choice.value.length;
      this.options.post({ type: 'attachHit', path: choice.attach.path, ...(choice.attach.startLine ? { startLine: choice.attach.startLine } : {}), ...(choice.attach.endLine ? { endLine: choice.attach.endLine } : {}) });
      this.mention = undefined;
      this.input.value = choice.value;
      this.input.setSelectionRange(start, start);
      this.completions = [];
      return this.renderCompletions();
    }
    this.input.value = choice.value;
    this.input.setSelectionRange(choice.value.length, choice.value.length);
    this.updateCompletions();
  }

  private renderCompletions(): void {
    const { doc } = this.options;
    this.completionList.replaceChildren();
    this.completionList.hidden = this.completions.length === 0;
    this.completions.forEach((completion, index) => {
      const item = el(doc, 'li', index === this.selected ? 'selected' : '');
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', String(index === this.selected));
      item.append(el(doc, 'span', 'completion-label', completion.label));
      if (completion.detail) item.append(el(doc, 'span', 'muted', ` ${completion.detail}`));
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.accept(completion);
        this.input.focus();
      });
      this.completionList.append(item);
    });
  }

  private toggleSearch(show = this.searchBox.hidden): void {
    this.searchBox.hidden = !show;
    if (show) this.searchInput.focus();
  }

  private button(text: string, title: string, onClick: () => void): HTMLButtonElement {
    const button = el(this.options.doc, 'button', '', text) as HTMLButtonElement;
    button.type = 'button';
    button.title = title;
    button.addEventListener('click', onClick);
    return button;
  }
}
