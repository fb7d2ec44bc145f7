// What Mermaid's own parser (the one GitHub renders with) reads from gantt
// charts, in Node with a jsdom window.  Usage:
//   MERMAID_MODULES=<folder with mermaid and jsdom> TZ=UTC node tests/mermaid_gantt.mjs a.mmd ...
// Prints one JSON line per chart: {"file", "type", "title", "tasks": [{"task",
// "id", "start", "end", "crit"}]} (dates in ISO 8601, UTC), or {"file",
// "error"} for a chart that does not parse; exits 1 when any failed.
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
const iso = (d) => (d instanceof Date && !isNaN(d) ? d.toISOString() : String(d));
for (const f of process.argv.slice(2)) {
  try {
    const text = fs.readFileSync(f, 'utf8');
    await mermaid.parse(text);
    const d = await mermaid.mermaidAPI.getDiagramFromText(text);
    const tasks = d.db.getTasks().map((t) => ({
      task: t.task.trim(), id: t.id, start: iso(t.startTime), end: iso(t.endTime), crit: Boolean(t.crit),
    }));
    console.log(JSON.stringify({ file: f, type: d.type, title: d.db.getDiagramTitle(), tasks }));
  } catch (e) {
    bad += 1;
    console.log(JSON.stringify({ file: f, error: String(e.message || e).split('\n').slice(0, 4).join(' | ') }));
  }
}
process.exit(bad ? 1 : 0);
