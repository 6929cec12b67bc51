/**
 * Finds `[[wiki]]` and `[text](target)` links in one line of prose in time linear in its length.
 * The regular expressions this replaces (`\[\[([^\]|#\n]+)…\]\]`, `\[[^\]\n]*\]\(…\)`) rescan the
 * rest of the line from every `[` that does not close: a 300 KB line of `[[` took two minutes.
 * Here each scan remembers where the next `]` (and the end of a link target) is, so every
 * character is looked at a bounded number of times. The links found are the ones the regular
 * expressions found.
 */

export interface ScannedLink {
  target: string;
  /** Offset of the link's first character (`[` or the `!` of an embed) in the scanned text. */
  index: number;
  /** Offset just past the link's last character (`]]` or `)`). */
  end: number;
  /** Offset of the (trimmed) target in the scanned text: what a rename rewrites. */
  targetIndex: number;
  /** Wikilinks: the text after `#` (a heading, or `^id` for a block), trimmed; absent when none. */
  fragment?: string;
  /** Wikilinks: the text after `|`, trimmed; absent when none. */
  alias?: string;
  /** Wikilinks: `![[…]]`. */
  embed?: boolean;
}

/** Counts characters examined, for tests that prove the work is linear. */
export interface ScanCounter {
  steps: number;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || (c !== '' && c <= '\r' && c >= '\n') || (c > '~' && /\s/.test(c));

/** First offset ≥ from holding one of `stops`, else text.length. */
function nextOf(text: string, from: number, stops: (c: string) => boolean, counter?: ScanCounter): number {
  let i = from;
  while (i < text.length && !stops(text[i])) i++;
  if (counter) counter.steps += i - from + 1;
  return i;
}

const isCloseOrEol = (c: string): boolean => c === ']' || c === '\n';

/** `[[target]]`, `[[target#heading]]`, `[[target|alias]]` (and `![[embeds]]`): targets trimmed. */
export function scanWikiLinks(text: string, counter?: ScanCounter): ScannedLink[] {
  const out: ScannedLink[] = [];
  let close = -1;
  let i = 0;
  for (;;) {
    const open = text.indexOf('[[', i);
    if (open < 0) break;
    if (counter) counter.steps += open - i + 1;
    const from = open + 2;
    if (close < from) close = nextOf(text, from, isCloseOrEol, counter);
    if (close >= text.length) break;
    if (text[close] === ']' && text[close + 1] === ']') {
      const first = text[from];
      if (close > from && first !== '|' && first !== '#') {
        let end = from;
        while (end < close && text[end] !== '|' && text[end] !== '#') end++;
        if (counter) counter.steps += close - from;
        const raw = text.slice(from, end);
        const target = raw.trim();
        const embed = open > 0 && text[open - 1] === '!';
        const link: ScannedLink = { target, index: embed ? open - 1 : open, end: close + 2, targetIndex: from + (raw.length - raw.trimStart().length) };
        let bar = end;
        if (text[end] === '#') {
          while (bar < close && text[bar] !== '|') bar++;
          link.fragment = text.slice(end + 1, bar).trim();
        }
        if (bar < close) link.alias = text.slice(bar + 1, close).trim();
        if (embed) link.embed = true;
        out.push(link);
        i = close + 2;
        continue;
      }
    }
    i = open + 1;
  }
  return out;
}

const isTargetStop = (c: string): boolean => c === ')' || c === '>' || isSpace(c);

/** `[text](target)`, `[text](<target>)`, `[text](target "title")`; not images (`![…](…)`). */
export function scanMarkdownLinks(text: string, counter?: ScanCounter): ScannedLink[] {
  const out: ScannedLink[] = [];
  let close = -1;
  // Where a target starting at or after `stopFrom` ends: shared by every `[` whose target runs into it.
  let stopFrom = Infinity;
  let stop = -1;
  const targetEnd = (k: number): number => {
    // `<target>` is tried before `target` one character earlier; `<` is no stop, so the end is the same.
    if (k === stopFrom - 1 && !isTargetStop(text[k])) stopFrom = k;
    if (k < stopFrom || k > stop) {
      stopFrom = k;
      stop = nextOf(text, k, isTargetStop, counter);
    }
    return stop;
  };
  // What follows a target ending at `e` (optional `>`, title, `)`) does not depend on where it began.
  let tailAt = -1;
  let tailEnd: number | undefined;
  const afterTarget = (e: number): number | undefined => {
    if (e !== tailAt) {
      tailAt = e;
      tailEnd = closeParen(text, e, counter);
    }
    return tailEnd;
  };
  const destination = (k: number): { target: string; start: number; end: number } | undefined => {
    const e = targetEnd(k);
    if (e === k) return undefined;
    const end = afterTarget(e);
    return end === undefined ? undefined : { target: text.slice(k, e), start: k, end };
  };
  let i = 0;
  for (;;) {
    const open = text.indexOf('[', i);
    if (open < 0) break;
    if (counter) counter.steps += open - i + 1;
    if (close < open + 1) close = nextOf(text, open + 1, isCloseOrEol, counter);
    if (close >= text.length) break;
    if (text[close] === '\n') {
      i = close + 1;
      continue;
    }
    if (text[close + 1] !== '(') {
      i = close + 1;
      continue;
    }
    if (open > 0 && text[open - 1] === '!') {
      i = open + 1;
      continue;
    }
    const j = nextOf(text, close + 2, (c) => !isSpace(c), counter);
    const found = (text[j] === '<' ? destination(j + 1) : undefined) ?? destination(j);
    if (found) {
      out.push({ target: found.target, index: open, end: found.end, targetIndex: found.start });
      i = found.end;
      continue;
    }
    // Every `[` before this `]` shares its tail, and so fails the same way.
    i = close + 1;
  }
  return out;
}

/** After a target ending at `e`: `>?`, then optionally whitespace + `"title"`, whitespace, `)`. Returns the offset past `)`. */
function closeParen(text: string, e: number, counter?: ScanCounter): number | undefined {
  const m = text[e] === '>' ? e + 1 : e;
  const n = nextOf(text, m, (c) => !isSpace(c), counter);
  if (n > m && text[n] === '"') {
    const quote = text.indexOf('"', n + 1);
    if (counter) counter.steps += (quote < 0 ? text.length : quote) - n;
    if (quote >= 0) {
      const after = nextOf(text, quote + 1, (c) => !isSpace(c), counter);
      if (text[after] === ')') return after + 1;
    }
  }
  return text[n] === ')' ? n + 1 : undefined;
}
