// Which files of a kiln are notes and which folders are never entered: what the walk, the kiln tools
// and the editor's file watcher agree on (a file of its own, so the watcher loads no glob matcher).
/** Folders that are never notes: version control, dependencies and Hearth's own index. */
export const ALWAYS_EXCLUDED = ['.git', 'node_modules', '.hearth'];

export const NOTE_EXTENSIONS = ['.md', '.markdown'];

export function isNotePath(path: string): boolean {
  const lower = path.toLowerCase();
  return NOTE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
