import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Clock, flyPower } from '../../Sources/Host/Web/clock.js';
import { protocolExamples } from './examples.mjs';

const all = protocolExamples();

test('the sync answer echoes n and h with c1 at receipt and c2 at sending (PROTOCOL.md §9)', () => {
  const probes = all.filter((m) => m.type === 'sync' && !('c1' in m));
  assert.ok(probes.length > 0);
  for (const p of probes) {
    let t = 500.4;
    const c = new Clock(1_000_000, () => t);
    const reply = c.answer(p, 499.6);
    assert.deepEqual(Object.keys(reply).sort(), ['c1', 'c2', 'h', 'n', 'type']);
    assert.equal(reply.n, p.n);
    assert.equal(reply.h, p.h);
    assert.equal(reply.c1, 1_000_500);
    assert.equal(reply.c2, 1_000_500);
    assert.ok(Number.isInteger(reply.c1) && Number.isInteger(reply.c2));
    assert.equal(c.offset, p.offset, 'the host offset is taken when the probe carries one');
  }
  // the client's own reply example has the same shape
  const sent = all.find((m) => m.type === 'sync' && 'c1' in m);
  assert.deepEqual(Object.keys(sent).sort(), ['c1', 'c2', 'h', 'n', 'type']);
});

test('without a measured offset the estimate is the tightest bound c1 − h', () => {
  let t = 0;
  const c = new Clock(10_000, () => t);
  t = 100;
  c.answer({ type: 'sync', n: 1, h: 50 }, 100); // c1 = 10100 → bound 10050
  t = 210;
  c.answer({ type: 'sync', n: 2, h: 170 }, 205); // c1 = 10205 → bound 10035
  assert.equal(c.offset, 10_035);
  assert.equal(c.toHost(c.now()), 10_210 - 10_035);
  assert.equal(c.toClient(1000), 11_035);
  c.answer({ type: 'sync', n: 3, h: 300, offset: 10_030, rtt: 4, uncertainty: 2 }, 300);
  assert.equal(c.offset, 10_030);
  assert.equal(c.uncertainty, 2);
});

test('a press is stamped at its event time, not when sent', () => {
  let t = 0;
  const c = new Clock(1_700_000_000_000.25, () => t);
  t = 900; // sent later
  assert.equal(c.stamp(812.5), 1_700_000_000_813);
  assert.ok(c.stamp(812.5) < c.now());
});

test('Let Me Fly power follows PROTOCOL.md §6.6', () => {
  assert.equal(flyPower(120000, 120000, 1600), 0);
  assert.equal(flyPower(120800, 120000, 1600), 1000);
  assert.equal(flyPower(120400, 120000, 1600), 500);
  assert.equal(flyPower(121600 + 1200, 120000, 1600), 500);
  assert.equal(flyPower(119000, 120000, 1600), 0, 'a press before the opening counts from the opening');
});
