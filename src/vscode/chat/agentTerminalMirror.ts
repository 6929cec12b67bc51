/**
 * The commands an external agent runs through Hearth's terminal, mirrored read-only into VS Code
 * terminals ("Agent: <command>", one per command, not focused): the chat shows the output's tail in
 * a collapsible block, the terminal keeps the whole stream as it arrived, with the exit at the end.
 * Fed with the chat's own `terminal` events; at most MAX_MIRRORS are kept (the oldest closes).
 */
import * as vscode from 'vscode';
import type { AgentEvent } from '../../core/agents/agentSession';
import type { HostMessage } from '../../core/chat/protocol';
import { outputDelta, toTerminalText } from './terminalOutputDelta';

type TerminalEvent = Extract<AgentEvent, { type: 'terminal' }>;

const MAX_MIRRORS = 16;

interface Mirror {
  terminal: vscode.Terminal;
  write: vscode.EventEmitter<string>;
  shown: string;
  /** Written before the terminal opened (a pty receives nothing until then). */
  pending: string[] | undefined;
  ended: boolean;
}

export class AgentTerminalMirror implements vscode.Disposable {
  private readonly mirrors = new Map<string, Mirror>();

  /** Every message the chat posts to its panel; only terminal events matter here. */
  handle(message: HostMessage): void {
    if (message.type === 'event' && message.event.type === 'terminal') this.update(message.event);
  }

  private update(event: TerminalEvent): void {
    const mirror = this.mirrors.get(event.id) ?? this.open(event);
    if (mirror.ended) return;
    const { text, cut } = outputDelta(mirror.shown, event.output);
    mirror.shown = event.output;
    if (cut) this.write(mirror, '\r\n[… output cut: the agent keeps only its tail]\r\n');
    if (text) this.write(mirror, toTerminalText(text));
    if (event.exit) {
      mirror.ended = true;
      const how = event.exit.code !== null ? `exit ${event.exit.code}` : `ended by ${event.exit.signal ?? 'a signal'}`;
      this.write(mirror, `\r\n[${how}]\r\n`);
    }
  }

  private open(event: TerminalEvent): Mirror {
    const write = new vscode.EventEmitter<string>();
    const mirror: Mirror = { write, shown: '', pending: [], ended: false, terminal: undefined as unknown as vscode.Terminal };
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      open: () => {
        const pending = mirror.pending ?? [];
        mirror.pending = undefined;
        write.fire(`$ ${event.command}\r\n`);
        for (const text of pending) write.fire(text);
      },
      close: () => this.forget(event.id),
      // Read-only: typing here does not reach the command (it runs under the agent, not this terminal).
      handleInput: () => {},
    };
    mirror.terminal = vscode.window.createTerminal({ name: `Agent: ${event.command.slice(0, 60)}`, pty, isTransient: true });
    this.mirrors.set(event.id, mirror);
    while (this.mirrors.size > MAX_MIRRORS) this.close(this.mirrors.keys().next().value!);
    return mirror;
  }

  private write(mirror: Mirror, text: string): void {
    if (mirror.pending) mirror.pending.push(text);
    else mirror.write.fire(text);
  }

  private forget(id: string): void {
    this.mirrors.get(id)?.write.dispose();
    this.mirrors.delete(id);
  }

  private close(id: string): void {
    const mirror = this.mirrors.get(id);
    this.forget(id);
    mirror?.terminal.dispose();
  }

  dispose(): void {
    for (const id of [...this.mirrors.keys()]) this.close(id);
  }
}
