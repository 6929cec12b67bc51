// Replies rendered in a real DOM (jsdom with scripts enabled): markdown, highlighted code with a
// copy button, plain text when enable_markdown is false, and HTML or script in a reply or a note
// that never executes, never loads anything and never keeps a handler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderReply } from '../../../src/webview/markdown';
import { sanitizeHtml } from '../../../src/webview/sanitize';

function dom() {
  // runScripts: a <script> that reached the DOM would run and set window.pwned.
  const jsdom = new JSDOM('<!DOCTYPE html><body><div id="out"></div></body>', { runScripts: 'dangerously' });
  const doc = jsdom.window.document;
  return { window: jsdom.window as unknown as Window & { pwned?: boolean }, doc, out: doc.getElementById('out') as HTMLElement };
}

const HOSTILE = [
  '<script>window.pwned = true</script>',
  '<img src=x onerror="window.pwned = true">',
  '<iframe src="javascript:window.pwned=true"></iframe>',
  '[click](javascript:window.pwned=true)',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '<a href="javascript:window.pwned=true">raw link</a>',
  '<svg onload="window.pwned=true"></svg>',
  '![x](https://evil.example/track.png)',
].join('\n\n');

test('markdown: emphasis, lists, links, and code highlighted with a copy button', () => {
  const { doc, out } = dom();
  renderReply(doc, out, '**bold** and `code`\n\n- one\n- two\n\n[docs](https://example.com)\n\n```ts\nconst answer: number = 42;\n```', true);
  assert.equal(out.querySelector('strong')?.textContent, 'bold');
  assert.equal(out.querySelectorAll('li').length, 2);
  const link = out.querySelector('a')!;
  assert.equal(link.getAttribute('href'), 'https://example.com');
  assert.equal(link.getAttribute('rel'), 'noopener noreferrer');
  const pre = out.querySelector('pre')!;
  assert.ok(pre.querySelector('code.language-ts'), pre.outerHTML);
  assert.ok(pre.querySelector('span.hljs-keyword'), 'highlighted');
  assert.equal(pre.querySelector('code')!.textContent, 'const answer: number = 42;\n');
  assert.equal(pre.querySelector('button.copy')?.textContent, 'Copy');
});

test('hostile HTML and links in a markdown reply are shown as text or dropped, and nothing runs', async () => {
  const { window, doc, out } = dom();
  renderReply(doc, out, HOSTILE, true);
  await new Promise((resolve) => setTimeout(resolve, 20)); // any handler or script would have fired
  assert.equal(window.pwned, undefined);
  assert.equal(out.querySelectorAll('script, img, iframe, svg, object, embed').length, 0, out.innerHTML);
  for (const element of out.querySelectorAll('*')) {
    for (const attribute of element.attributes) assert.ok(!attribute.name.startsWith('on'), `${element.tagName} keeps ${attribute.name}`);
  }
  for (const a of out.querySelectorAll('a')) assert.match(a.getAttribute('href') ?? '', /^https?:/, a.outerHTML);
  // The raw HTML is visible as text, so the user sees what the model wrote.
  assert.match(out.textContent!, /<script>window\.pwned = true<\/script>/);
});

test('plain text when enable_markdown is false: the reply is text, markup and all', () => {
  const { window, doc, out } = dom();
  renderReply(doc, out, `**not bold**\n${HOSTILE}`, false);
  assert.equal(out.children.length, 0);
  assert.ok(out.classList.contains('plain'));
  assert.ok(out.textContent!.startsWith('**not bold**\n<script>'));
  assert.equal(window.pwned, undefined);
});

test('the sanitizer itself: allow-listed tags and attributes only, dangerous elements removed with their content', () => {
  const { doc } = dom();
  const fragment = sanitizeHtml(doc, '<p onclick="x()" style="color:red" class="c">hi <b>there</b><style>p{}</style><script>bad()</script></p><a href=" javascript:x">l</a><code class="language-js">c</code>');
  const wrapper = doc.createElement('div');
  wrapper.append(fragment);
  assert.equal(wrapper.innerHTML, '<p>hi there</p><a rel="noopener noreferrer">l</a><code class="language-js">c</code>');
});
