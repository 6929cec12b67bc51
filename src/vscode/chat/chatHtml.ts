/**
 * The chat webview's HTML: a strict Content-Security-Policy (nothing by default; only this
 * extension's own script, with a fresh nonce per page, and its own stylesheet), so neither a model's
 * reply nor a note can load or run anything.
 */
import { randomBytes } from 'node:crypto';

export interface ChatHtmlInput {
  /** webview.cspSource: the origin the webview loads local resources from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce?: string;
}

export function chatHtml(input: ChatHtmlInput): string {
  const nonce = input.nonce ?? randomBytes(18).toString('base64url');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${input.cspSource}`,
    `font-src ${input.cspSource}`,
    `img-src ${input.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">
<title>Hearth Chat</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
