/**
 * "Hearth: Semantic Search": a quick pick that searches the index as you type (debounced, hybrid
 * mode), shows title, heading path and snippet, previews the note at the hit on focus and opens it
 * there on accept.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { describeError } from '../core/errors';
import type { Logger } from '../core/host';
import type { KilnIndex } from '../core/index/kilnIndex';
import type { SearchResult } from '../core/index/searchResult';

const TYPING_DEBOUNCE_MS = 250;
const LIMIT = 20;

interface HitItem extends vscode.QuickPickItem {
  hit: SearchResult;
}

export async function showSemanticSearch(index: KilnIndex | undefined, log: Logger): Promise<void> {
  if (!index) {
    vscode.window.showWarningMessage('Hearth: the kiln has no index yet (open a folder; see the Hearth log).');
    return;
  }
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.title = 'Hearth: Semantic Search';
  pick.placeholder = 'Search the notes by meaning (hybrid: words and meaning)';
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;
  let controller: AbortController | undefined;
  const run = async (query: string) => {
    const mine = ++generation;
    controller?.abort();
    controller = new AbortController();
    if (!query.trim()) {
      pick.items = [];
      pick.busy = false;
      return;
    }
    pick.busy = true;
    try {
      const hits = await index.search(query, { mode: 'hybrid', limit: LIMIT, signal: controller.signal });
      if (mine !== generation) return;
      // Keep VS Code from filtering our ranked results by its own fuzzy match on the label.
      pick.items = hits.map((hit) => ({ label: hit.title, description: `${hit.heading && hit.heading !== hit.title ? `${hit.heading} · ` : ''}${hit.path}:${hit.startLine}`, detail: hit.snippet, alwaysShow: true, hit }));
    } catch (error) {
      if (mine !== generation) return;
      pick.items = [];
      log.warn(`semantic search: ${describeError(error)}`);
      vscode.window.showWarningMessage(`Hearth: search failed: ${describeError(error)}`);
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };
  const disposables: vscode.Disposable[] = [
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(value), TYPING_DEBOUNCE_MS);
    }),
    pick.onDidChangeActive((items) => {
      if (items[0]) void openHit(index.kilnRoot, items[0].hit, true);
    }),
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (!item) return;
      pick.hide();
      void openHit(index.kilnRoot, item.hit, false);
    }),
    pick.onDidHide(() => {
      clearTimeout(timer);
      controller?.abort();
      disposables.forEach((d) => d.dispose());
      pick.dispose();
    }),
  ];
  pick.show();
}

async function openHit(kilnRoot: string, hit: SearchResult, preview: boolean): Promise<void> {
  const uri = vscode.Uri.file(join(kilnRoot, hit.path));
  const start = new vscode.Position(Math.max(0, hit.startLine - 1), 0);
  const editor = await vscode.window.showTextDocument(uri, { preview, preserveFocus: preview, selection: new vscode.Range(start, start) });
  editor.revealRange(new vscode.Range(start, new vscode.Position(Math.max(0, hit.endLine - 1), 0)), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
