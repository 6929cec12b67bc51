import { FIELDS } from './noteFields';

/**
 * Where each part of the lexical file's body lies (see lexicalFile.ts): what the full reader takes
 * in order and what DiskLexicon reads by position. Every typed part starts 4-aligned in the body
 * (the header is padded so the body starts 4-aligned in the file too).
 */
export interface LexicalHeader {
  format: 'hearth-lexical';
  version: number;
  shape: string;
  params: string;
  terms: number;
  postings: number;
  notes: number;
  termBytes: number;
  notesBytes: number;
  /** CRC-32 of the whole body (the full reader checks it). */
  crc: number;
  /**
   * Version 3 on. The store commit this file reflects (VectorStore.commitStamp), or null: when it
   * equals the opened store's, a cold search trusts the file without comparing every note's hash.
   */
  stamp?: string | null;
  /** Chunks of all notes (a section's length normalization), so a lazy reader decodes no note row for it. */
  chunkTotal?: number;
  /** CRC-32 of the parts a lazy reader reads whole: terms, offsets, lengths, row starts, path order, term CRCs, notes. */
  lazyCrc?: number;
}

export type Part = readonly [at: number, bytes: number];

export interface BodyLayout {
  terms: Part;
  offsets: Part;
  postDocs: Part;
  postTfs: Part;
  lengths: Part;
  /** Version 3 on (empty before): where each note row starts in the notes text (notes + 1 entries). */
  rowStarts: Part;
  /** Version 3 on: the note numbers ordered by path (a path is found by binary search). */
  order: Part;
  /** Version 3 on: per term, the CRC-32 of its postings (its postDocs bytes, then its postTfs bytes). */
  termCrcs: Part;
  notes: Part;
  /** The body's length. */
  end: number;
}

export const pad4 = (n: number) => (n + 3) & ~3;

/** The body's parts for a header (version 2 has no row starts, order or term CRCs). */
export function bodyLayout(h: Pick<LexicalHeader, 'version' | 'terms' | 'postings' | 'notes' | 'termBytes' | 'notesBytes'>): BodyLayout {
  let at = 0;
  const part = (bytes: number, aligned = true): Part => {
    const p: Part = [at, bytes];
    at += aligned ? pad4(bytes) : bytes;
    return p;
  };
  const v3 = h.version >= 3;
  const terms = part(h.termBytes);
  const offsets = part((h.terms + 1) * 4);
  const postDocs = part(h.postings * 4);
  const postTfs = part(h.postings * FIELDS.length * 2);
  const lengths = part(h.notes * FIELDS.length * 4);
  const rowStarts = part(v3 ? (h.notes + 1) * 4 : 0);
  const order = part(v3 ? h.notes * 4 : 0);
  const termCrcs = part(v3 ? h.terms * 4 : 0);
  const notes = part(h.notesBytes, false);
  return { terms, offsets, postDocs, postTfs, lengths, rowStarts, order, termCrcs, notes, end: at };
}
