/**
 * Replies as markdown (`[chat].enable_markdown = true`) or as plain text. markdown-it runs with
 * `html: false`, so HTML in a reply or a note is shown, not interpreted; its link validation drops
 * `javascript:`-style URLs; the output then goes through sanitizeHtml. Code blocks are highlighted
 * with highlight.js (a fixed set of languages, to keep the bundle small) and get a copy button.
 */
import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { linkNoteReferences } from './noteLinks';
import { sanitizeHtml } from './sanitize';

const languages = { bash, css, diff, go, ini, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['toml'], { languageName: 'ini' });
hljs.registerAliases(['md'], { languageName: 'markdown' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['rs'], { languageName: 'rust' });

const md = new MarkdownIt({
  html: false,
  linkify: true,
  highlight(code, lang) {
    const language = lang && hljs.getLanguage(lang) ? lang : undefined;
    if (!language) return ''; // markdown-it escapes it
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      return '';
    }
  },
});

// Only links with a scheme or www. are linkified: `Composting.md` is a note, not a site in Moldova (.md).
md.linkify.set({ fuzzyLink: false });

/** Renders `text` into `target` (replacing its content): sanitized markdown, or plain text; `known` as for linkNoteReferences. */
export function renderReply(doc: Document, target: HTMLElement, text: string, enableMarkdown: boolean, known: readonly string[] = []): void {
  target.replaceChildren();
  if (!enableMarkdown) {
    target.classList.add('plain');
    target.textContent = text;
    linkNoteReferences(doc, target, known);
    return;
  }
  target.classList.remove('plain');
  target.append(sanitizeHtml(doc, md.render(text)));
  linkNoteReferences(doc, target, known);
  for (const pre of target.querySelectorAll('pre')) addCopyButton(doc, pre);
}

function addCopyButton(doc: Document, pre: HTMLPreElement): void {
  const button = doc.createElement('button');
  button.className = 'copy';
  button.type = 'button';
  button.textContent = 'Copy';
  button.title = 'Copy the code';
  button.addEventListener('click', () => {
    const code = pre.querySelector('code')?.textContent ?? '';
    const done = () => {
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    };
    void doc.defaultView?.navigator.clipboard?.writeText(code).then(done, () => (button.textContent = 'Copy failed'));
  });
  pre.classList.add('code-block');
  pre.prepend(button);
}
