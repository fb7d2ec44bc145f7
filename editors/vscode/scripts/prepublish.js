// Copies the one file of Mermaid the extension ships (its minified browser
// build) into media/; `vsce package` runs this first.
'use strict';
const fs = require('fs');
const path = require('path');

const from = path.join(__dirname, '..', 'node_modules', 'mermaid', 'dist', 'mermaid.min.js');
const to = path.join(__dirname, '..', 'media', 'mermaid.min.js');
fs.mkdirSync(path.dirname(to), { recursive: true });
fs.copyFileSync(from, to);
