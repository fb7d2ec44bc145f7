// Parse Mermaid charts with Mermaid's own parser (the one GitHub renders
// with), in Node with a jsdom window.  Usage:
//   NODE_PATH=<folder with mermaid and jsdom> node tests/mermaid_parse.mjs a.mmd b.mmd ...
// Prints one "FAIL <file>: <error>" line per chart that does not parse, then
// "checked N bad M"; exits 1 when any failed.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const base = process.env.MERMAID_MODULES;
const require = createRequire(path.join(base, 'noop.js'));
const { JSDOM } = require('jsdom');
const dom = new JSDOM('<!DOCTYPE html><body></body>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await import(require.resolve('mermaid'))).default;
mermaid.initialize({ startOnLoad: false });
let bad = 0;
const files = process.argv.slice(2);
for (const f of files) {
  try {
    await mermaid.parse(fs.readFileSync(f, 'utf8'));
  } catch (e) {
    bad += 1;
    console.log(`FAIL ${f}: ${String(e.message || e).split('\n').slice(0, 4).join(' | ')}`);
  }
}
console.log(`checked ${files.length} bad ${bad}`);
process.exit(bad ? 1 : 0);
