// The chat webview's page: a strict CSP (nothing by default, only the nonce'd bundle and the
// extension's own stylesheet), a fresh nonce per page, and URIs escaped into attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { chatHtml } from '../../../src/vscode/chat/chatHtml';

const input = { cspSource: 'https://file+.vscode-resource.vscode-cdn.net', scriptUri: 'https://x/dist/webview.js', styleUri: 'https://x/media/chat.css?a=1&b="2"' };

test('strict CSP with a nonce that only the bundle carries', () => {
  const doc = new JSDOM(chatHtml(input)).window.document;
  const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
  const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  assert.deepEqual(directives['default-src'], ["'none'"]);
  const nonce = /'nonce-([^']+)'/.exec(directives['script-src']!.join(' '))![1]!;
  assert.deepEqual(directives['script-src'], [`'nonce-${nonce}'`]);
  assert.deepEqual(directives['style-src'], [input.cspSource]);
  assert.ok(!csp.includes('unsafe'), csp);
  const scripts = [...doc.querySelectorAll('script')];
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0]!.getAttribute('nonce'), nonce);
  assert.equal(scripts[0]!.getAttribute('src'), input.scriptUri);
  assert.equal(doc.querySelector('link[rel="stylesheet"]')!.getAttribute('href'), input.styleUri);
  assert.ok(nonce.length >= 20);
});

test('every page gets its own nonce', () => {
  const nonces = new Set(Array.from({ length: 20 }, () => /nonce-([^']+)/.exec(chatHtml(input))![1]));
  assert.equal(nonces.size, 20);
});
