/**
 * "Hearth: Semantic Search": a quick pick that searches the index as you type (debounced, hybrid
 * mode), one row per note — title, best heading, path:line, relevance and snippet — previews the
 * note at its best section on focus and opens it there on accept. A row's "sections" button lists
 * the note's other matching sections in a second step. An empty or missing index offers
 * "Reindex now" instead of an empty list. While the index is being built or updated, the pick says
 * how far it is (searchPickNotice.ts) and searches again when the run ends.
 */
import * as vscode from 'vscode';
import { join } from 'node:path';
import { describeError } from '../../core/errors';
import type { Logger } from '../../core/host';
import type { KilnIndex } from '../../core/index/kilnIndex';
import type { SearchResult, SectionHit } from '../../core/index/search/searchResult';
import type { IndexState } from './indexState';
import { searchPickHeader, searchPickNotice, type NoticeRow, type SearchSituation } from './searchPickNotice';

const TYPING_DEBOUNCE_MS = 250;
const LIMIT = 20;
export const REINDEX_COMMAND = 'hearth.reindex';

interface Place {
  path: string;
  startLine: number;
  endLine: number;
}

interface HitItem extends vscode.QuickPickItem {
  hit?: SearchResult;
  place?: Place;
  notice?: NoticeRow['action'];
}

/** The IndexController as the pick sees it: the index and its run state, followed while the pick is open. */
export interface SearchIndexSource {
  readonly current: KilnIndex | undefined;
  readonly state: IndexState;
  readonly onDidChangeState: vscode.Event<IndexState>;
}

const SECTIONS_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('list-tree'), tooltip: 'Other matching sections of this note' };

/** "▰▰▰▱▱ 62%": a relevance (0–1) as a bar and a percentage. */
export function relevanceBar(score: number): string {
  const clamped = Math.max(0, Math.min(1, score));
  const filled = Math.round(clamped * 5);
  return `${'▰'.repeat(filled)}${'▱'.repeat(5 - filled)} ${Math.round(clamped * 100)}%`;
}

const noticeItem = (row: NoticeRow): HitItem => ({ label: row.label, description: row.description, alwaysShow: true, notice: row.action });

export async function showSemanticSearch(source: SearchIndexSource, log: Logger): Promise<void> {
  const index = source.current;
  if (!index) {
    vscode.window.showWarningMessage('Hearth: the kiln has no index yet (open a folder; see the Hearth log).');
    return;
  }
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;
  let controller: AbortController | undefined;
  /** What the list shows now: the hits of the last search and where that search stood. */
  let shown: { hits: HitItem[]; situation: SearchSituation } = { hits: [], situation: 'no-query' };
  /** The row the run state asks for, then the hits (the pick's title and placeholder follow the state too). */
  const render = () => {
    const state = source.state;
    const header = searchPickHeader(state, index.wordsOnly);
    pick.title = header.title;
    pick.placeholder = header.placeholder;
    const notice = searchPickNotice(state, shown.situation, index.wordsOnly);
    const active = pick.activeItems[0];
    // The notice goes first, where it is seen (twenty hits push a last row out of sight), but the
    // best hit stays the active row: Enter opens it, and a new count does not move the user's place.
    // (VS Code still lifts hits whose title matches the typed words above it: `sortByLabel` is not
    // stable API in 1.100; the title says the same in any case.)
    pick.items = [...(notice ? [noticeItem(notice)] : []), ...shown.hits];
    const keep = active?.hit && shown.hits.includes(active) ? active : shown.hits[0];
    if (keep) pick.activeItems = [keep];
  };
  /**
   * Whether the index holds no note (never built, cleared, or built on an empty kiln). While a run
   * is under way the store is open and holds what was embedded so far, committed or not.
   */
  const isEmpty = async () => {
    // A run that failed (an embedding model that cannot be fetched) leaves no index, but search still answers on words.
    if (index.wordsOnly !== undefined || source.state.kind === 'error') return false;
    return !(source.state.kind === 'indexing' || (await index.exists())) || (await index.counts()).notes === 0;
  };
  const run = async (query: string) => {
    const mine = ++generation;
    controller?.abort();
    controller = new AbortController();
    if (!query.trim()) {
      const empty = await isEmpty().catch(() => false);
      if (mine !== generation) return;
      shown = { hits: [], situation: empty ? 'empty-index' : 'no-query' };
      render();
      pick.busy = false;
      return;
    }
    pick.busy = true;
    try {
      if (await isEmpty()) {
        if (mine !== generation) return;
        shown = { hits: [], situation: 'empty-index' };
        render();
        return;
      }
      const hits = await index.search(query, { mode: 'hybrid', limit: LIMIT, signal: controller.signal });
      if (mine !== generation) return;
      // alwaysShow: keep VS Code from filtering our ranked results by its own fuzzy match on the label.
      const rows: HitItem[] = hits.map((hit) => ({
        label: hit.title,
        description: `${hit.heading && hit.heading !== hit.title ? `${hit.heading} · ` : ''}${hit.path}:${hit.startLine}`,
        detail: `${relevanceBar(hit.score)} · ${hit.snippet}`,
        alwaysShow: true,
        buttons: hit.sections?.length ? [{ ...SECTIONS_BUTTON, tooltip: `${hit.sections.length} more matching section${hit.sections.length === 1 ? '' : 's'}` }] : [],
        hit,
        place: hit,
      }));
      shown = { hits: rows, situation: rows.length > 0 ? 'hits' : 'no-hits' };
      render();
    } catch (error) {
      if (mine !== generation) return;
      shown = { hits: [], situation: 'no-hits' };
      render();
      log.child('search').warn(`${describeError(error)}`);
      vscode.window.showWarningMessage(`Hearth: search failed: ${describeError(error)}`);
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };
  const accept = (item: HitItem | undefined) => {
    // A status row only informs: the pick stays open for the results it announces.
    if (!item || item.notice === 'status') return;
    pick.hide();
    if (item.notice === 'reindex') void vscode.commands.executeCommand(REINDEX_COMMAND);
    else if (item.place) void openAt(index.kilnRoot, item.place, false);
  };
  let wasIndexing = source.state.kind === 'indexing';
  let previewed: HitItem | undefined;
  const disposables: vscode.Disposable[] = [
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(value), TYPING_DEBOUNCE_MS);
    }),
    pick.onDidChangeActive((items) => {
      // The same row again (the list redrawn for a new count) is previewed already.
      if (!items[0]?.place || items[0] === previewed) return;
      previewed = items[0];
      void openAt(index.kilnRoot, items[0].place, true);
    }),
    pick.onDidAccept(() => accept(pick.selectedItems[0] ?? pick.activeItems[0])),
    pick.onDidTriggerItemButton(({ item }) => {
      if (!item.hit) return;
      pick.hide();
      void showSections(index.kilnRoot, item.hit);
    }),
    source.onDidChangeState((state) => {
      const indexing = state.kind === 'indexing';
      // The run ended: search again, so the results are the whole index's and the notice goes.
      // Nothing searchable yet: search again as notes arrive. Otherwise only the counts change.
      const again = (wasIndexing && !indexing) || (indexing && shown.situation === 'empty-index');
      wasIndexing = indexing;
      if (again) void run(pick.value);
      else render();
    }),
    pick.onDidHide(() => {
      clearTimeout(timer);
      controller?.abort();
      disposables.forEach((d) => d.dispose());
      pick.dispose();
    }),
  ];
  render();
  pick.show();
  void run('');
}

/** The second step: the note's best section and its other matching sections, each opening at its line. */
async function showSections(kilnRoot: string, hit: SearchResult): Promise<void> {
  const row = (s: Pick<SectionHit, 'heading' | 'startLine' | 'endLine' | 'snippet' | 'score'>): HitItem => ({
    label: s.heading || hit.title,
    description: `${hit.path}:${s.startLine}`,
    detail: `${relevanceBar(s.score)} · ${s.snippet}`,
    place: { path: hit.path, startLine: s.startLine, endLine: s.endLine },
  });
  const items = [row({ ...hit, score: hit.score }), ...(hit.sections ?? []).map(row)];
  const chosen = await vscode.window.showQuickPick(items, {
    title: `Hearth: ${hit.title} — matching sections`,
    placeHolder: `${items.length} matching sections of ${hit.path}`,
    onDidSelectItem: (item) => {
      const place = (item as HitItem).place;
      if (place) void openAt(kilnRoot, place, true);
    },
  });
  if (chosen?.place) await openAt(kilnRoot, chosen.place, false);
}

async function openAt(kilnRoot: string, place: Place, preview: boolean): Promise<void> {
  const uri = vscode.Uri.file(join(kilnRoot, place.path));
  const start = new vscode.Position(Math.max(0, place.startLine - 1), 0);
  const editor = await vscode.window.showTextDocument(uri, { preview, preserveFocus: preview, selection: new vscode.Range(start, start) });
  editor.revealRange(new vscode.Range(start, new vscode.Position(Math.max(0, place.endLine - 1), 0)), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
