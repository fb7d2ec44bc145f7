// Turns the Mermaid code blocks of the rendered Markdown into diagrams.
(function () {
  'use strict';
  const blocks = document.querySelectorAll('pre > code.language-mermaid, pre > code.mermaid');
  if (!blocks.length || typeof mermaid === 'undefined') return;
  const dark = document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
  blocks.forEach((code) => {
    const div = document.createElement('div');
    div.className = 'mermaid';
    div.textContent = code.textContent;
    code.parentElement.replaceWith(div);
  });
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default' });
  mermaid.run({ querySelector: 'div.mermaid' }).catch((err) => {
    const p = document.createElement('pre');
    p.className = 'mermaid-error';
    p.textContent = 'Mermaid: ' + (err && err.message ? err.message : String(err));
    document.body.appendChild(p);
  });
})();
