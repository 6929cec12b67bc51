// A kiln that mirrors Obsidian's resolution rules: the same file name in two folders, aliases,
// headings and blocks, case, spaces and unicode in names, `.md` or not, links in code ignored.
import { parseNote } from '../../../../src/core/kiln/note';
import { LinkGraph } from '../../../../src/core/kiln/links/linkGraph';

export const FIXTURE: Record<string, string> = {
  'Home.md': [
    '# Home',
    'Start at [[Watering]] and [[garden/Compost#Browns and greens]].',
    'A block: [[Soil Notes#^ph-table]] and an alias: [[Black Gold]].',
    'Case: [[watering]], with extension: [[Watering.md]], spaced [[ Café Menu ]].',
    'Ambiguous: [[Ideas]]. Root first: [[Plan]]. Exact path: [[projects/Plan]]. Missing: [[Nowhere]].',
    'Markdown: [soil](Soil%20Notes.md), [web](https://example.com), [img](pic.png), ![[pic.png]].',
    '`[[InlineCode]]` is not a link.',
    '```',
    '[[Fenced]] is not a link either.',
    '```',
    'Embed: ![[Watering#Schedule]]. Aliased text: [[Watering|the watering page]].',
  ].join('\n'),
  'Watering.md': ['# Watering', '', '## Schedule', 'Water in the morning. See [[Home]].', 'Compost helps the soil.'].join('\n'),
  'garden/Compost.md': ['---', 'aliases: [Black Gold, humus]', '---', '# Compost', '## Browns and greens', 'Mix them. Watering matters.'].join('\n'),
  'Soil Notes.md': ['# Soil Notes', '| ph | crop |', '|----|------|', '| 6  | kale | ^ph-table', 'Back to [[home]].'].join('\n'),
  'Café Menu.md': ['# Café Menu', 'Soup of the day: see [[./Watering]].'].join('\n'),
  'Plan.md': '# Plan (root)\n',
  'projects/Plan.md': '# Plan (projects)\n',
  'archive/projects/Plan.md': '# Plan (archive)\n',
  'b/deep/Ideas.md': '# Ideas (deep)\n',
  'a/Ideas.md': '# Ideas (a)\n',
};

export function fixtureGraph(files: Record<string, string> = FIXTURE): LinkGraph {
  const graph = new LinkGraph();
  for (const [path, text] of Object.entries(files)) graph.set(parseNote(path, text));
  return graph;
}
