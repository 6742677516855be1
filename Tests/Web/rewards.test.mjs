// The reward characters' drawing (rewards.js) with a minimal stand-in for the DOM: every character at every stage
// draws as SVG shapes only (no text, no image), bigger each stage, with the stage's upgrade.
import { test } from 'node:test';
import assert from 'node:assert/strict';

class Element {
  constructor(tag) {
    this.tag = tag;
    this.attrs = {};
    this.children = [];
  }
  setAttribute(k, v) {
    this.attrs[k] = String(v);
  }
  getAttribute(k) {
    return this.attrs[k] ?? null;
  }
  appendChild(c) {
    this.children.push(c);
    return c;
  }
  addEventListener() {}
  set textContent(t) {
    this.children = [{ text: String(t) }];
  }
  all() {
    return [this, ...this.children.flatMap((c) => (c instanceof Element ? c.all() : [c]))];
  }
}
globalThis.document = {
  createElementNS: (ns, tag) => new Element(tag),
  createElement: (tag) => new Element(tag),
  createTextNode: (text) => ({ text }),
};
const { draw, NAMES } = await import('../../Sources/Host/Web/rewards.js');

const scale = (svg) => Number(/scale\(([\d.]+)\)/.exec(svg.children[0].getAttribute('transform'))[1]);
const fills = (svg) => svg.all().map((n) => n.attrs?.fill).filter(Boolean);

test('every character draws at every stage, larger each time, as shapes without text', () => {
  assert.deepEqual(Object.keys(NAMES), ['fox', 'owl', 'frog', 'bear', 'robot']);
  for (const id of Object.keys(NAMES)) {
    const sizes = [1, 2, 3, 4].map((stage) => {
      const svg = draw(id, stage, 80);
      assert.equal(svg.tag, 'svg');
      assert.equal(svg.getAttribute('aria-label'), `${NAMES[id]}, stage ${stage}`);
      assert.equal(svg.getAttribute('width'), '80');
      assert.ok(svg.all().every((n) => n instanceof Element && !['text', 'image', 'foreignObject'].includes(n.tag)));
      return scale(svg);
    });
    assert.deepEqual(sizes, [...sizes].sort((a, b) => a - b));
    assert.equal(new Set(sizes).size, 4);
  }
});

test('the upgrades: a scarf from stage 2, a hat at 3, a crown with sparkles at 4', () => {
  const red = (stage) => fills(draw('owl', stage)).filter((f) => f === '#d33').length;
  const hat = (stage) => fills(draw('owl', stage)).includes('#6a4bc4');
  const gold = (stage) => fills(draw('owl', stage)).filter((f) => f === '#f5c518').length;
  assert.equal(red(1), 0);
  assert.ok(red(2) >= 2);
  assert.deepEqual([1, 2, 3, 4].map(hat), [false, false, true, false]);
  assert.deepEqual([1, 2, 3, 4].map(gold), [0, 0, 0, 3]);
});

test("an unknown character or stage still draws (a newer host's character: the fox's look, within 1–4)", () => {
  assert.equal(draw('dragon', 9).getAttribute('aria-label'), 'dragon, stage 9');
  assert.equal(scale(draw('dragon', 9)), 1);
  assert.equal(scale(draw('fox', 0)), scale(draw('fox', 1)));
});
