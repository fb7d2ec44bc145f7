'use strict';
// Rendered Markdown (the output of `status --format markdown` and
// `history --format markdown`) in a webview: VS Code's own Markdown renderer
// (the built-in Markdown extension's `markdown.api.render`), and Mermaid,
// shipped in the extension, for the route flowchart. Nothing is loaded from
// the network: the content security policy allows only the extension's own
// files.

const crypto = require('crypto');

const panels = new Map(); // kind -> WebviewPanel

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

async function render(vscode, markdown) {
  try {
    const html = await vscode.commands.executeCommand('markdown.api.render', markdown);
    if (typeof html === 'string') return html;
  } catch (_) {
    // The built-in Markdown extension is disabled: show the source.
  }
  return `<pre>${escapeHtml(markdown)}</pre>`;
}

function page(webview, media, title, body) {
  const nonce = crypto.randomBytes(16).toString('base64');
  const src = (name) => webview.asWebviewUri(media(name)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${src('preview.css')}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main id="standards-lint-view">${body}</main>
<script nonce="${nonce}" src="${src('mermaid.min.js')}"></script>
<script nonce="${nonce}" src="${src('preview.js')}"></script>
</body>
</html>`;
}

/** Show *markdown* in the panel of *kind* (one per kind, reused). */
async function showMarkdown(vscode, context, kind, title, markdown, reveal = true) {
  const mediaRoot = vscode.Uri.joinPath(context.extensionUri, 'media');
  let panel = panels.get(kind);
  if (!panel) {
    if (!reveal) return;
    panel = vscode.window.createWebviewPanel(`standardsLint.${kind}`, title, vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [mediaRoot],
    });
    panels.set(kind, panel);
    panel.onDidDispose(() => panels.delete(kind));
  } else if (reveal) {
    panel.reveal();
  }
  panel.title = title;
  const body = await render(vscode, markdown);
  panel.webview.html = page(panel.webview, (name) => vscode.Uri.joinPath(mediaRoot, name), title, body);
}

function isOpen(kind) {
  return panels.has(kind);
}

module.exports = { showMarkdown, isOpen };
