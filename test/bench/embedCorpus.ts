// A realistic kiln for the embedder bench (issue 31): notes of the eval kiln's real sizes and
// markdown shapes (test/eval/kiln: 433 READMEs and docs), their words redrawn from the whole
// corpus's word stream (so word frequencies stay real), and a WordPiece vocabulary of the corpus's
// most frequent words for the generated models' tokenizers.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { rng } from '../fixtures/tiny-model/generate.mjs';

const EVAL_KILN = join(import.meta.dirname, '..', 'eval', 'kiln');
const WORD = /[A-Za-z]+/g;

export interface Corpus {
  notes: string[];
  /** Every word of the corpus in order, lowercased: drawing from it keeps Zipf's law. */
  stream: string[];
  /** The most frequent words, plus common suffix pieces: a BERT-sized vocabulary's worth. */
  vocabulary: string[];
}

export function loadCorpus(vocabularySize = 20_000): Corpus {
  const notes = readdirSync(EVAL_KILN).filter((f) => f.endsWith('.md')).sort().map((f) => readFileSync(join(EVAL_KILN, f), 'utf8'));
  const stream: string[] = [];
  const counts = new Map<string, number>();
  for (const note of notes) {
    for (const [word] of note.matchAll(WORD)) {
      const w = word.toLowerCase();
      stream.push(w);
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const frequent = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, vocabularySize).map(([w]) => w);
  const suffixes = ['s', 'es', 'ed', 'ing', 'er', 'ers', 'ly', 'tion', 'ment', 'ness', 'able', 'al', 'ic', 'ize', 'ies'].map((s) => `##${s}`);
  return { notes, stream, vocabulary: [...suffixes, ...frequent] };
}

/** `count` notes in a fresh folder: note i has the shape and size of eval note i mod 433, its words redrawn. */
export function generateKiln(corpus: Corpus, count: number, seed = 31): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-bench-embed-kiln-'));
  const rand = rng(seed);
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (let i = 0; i < count; i++) {
    const template = corpus.notes[i % corpus.notes.length];
    const text = template.replace(WORD, () => corpus.stream[Math.floor(rand() * corpus.stream.length)]);
    const path = join(root, `folder${i % 50}`, `note${i}.md`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    utimesSync(path, hourAgo, hourAgo);
  }
  return root;
}
