// Reads every ```json example line of PROTOCOL.md (one JSON object per line).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every JSON object of PROTOCOL.md's ```json blocks, in order. */
export function protocolExamples() {
  const text = readFileSync(join(root, 'PROTOCOL.md'), 'utf8');
  const out = [];
  const broken = [];
  let fence = null; // the language of the open fence, or null outside one
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('```')) {
      // A fence with an info string always opens one (PROTOCOL.md has a block whose closing fence is missing).
      const info = t.slice(3).trim();
      fence = info ? info : fence === null ? '' : null;
      continue;
    }
    if (fence !== 'json' || !t.startsWith('{')) continue;
    try {
      out.push(JSON.parse(t));
    } catch {
      broken.push(t.slice(0, 60)); // a cut-off example line; not one of the growing states
    }
  }
  out.broken = broken;
  return out;
}
