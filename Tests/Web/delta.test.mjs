import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Growing, isWhole, isDelta, DELTA_OF } from '../../Sources/Host/Web/delta.js';
import { protocolExamples } from './examples.mjs';

const all = protocolExamples();
const wholes = all.filter(isWhole);
const deltas = all.filter(isDelta);

const LIST = { lobbyUpdate: 'players', teamsUpdate: 'teams', buzzedUpdate: 'entries', lockedInUpdate: 'teams',
  progressUpdate: 'teams', flyBoardUpdate: 'rows' };
const keyOf = (d) => (d.type === 'flyBoardUpdate' ? 'player'
  : d.type === 'lobbyUpdate' || (d.type === 'gameUpdate' && d.players) ? 'name' : 'team');
const listOf = (d) => (d.type === 'gameUpdate' ? (d.players ? 'players' : 'teams') : LIST[d.type]);

test('PROTOCOL.md has examples of every growing state and delta', () => {
  const types = new Set([...wholes, ...deltas].map((m) => m.type));
  for (const t of ['lobby', 'teams', 'buzzed', 'game', 'lockedIn', 'progress', ...Object.keys(DELTA_OF)]) {
    assert.ok(types.has(t), `no example of ${t}`);
  }
  assert.ok(deltas.length >= 7);
});

test('every whole example is held as sent', () => {
  for (const w of wholes) {
    const g = new Growing();
    const r = g.apply(w);
    assert.equal(r.resync, null);
    assert.equal(r.state, w.type);
    for (const [k, v] of Object.entries(w)) {
      if (k === 'seq' && v == null) continue;
      assert.deepEqual(r.whole[k], v, `${w.type}.${k}`);
    }
  }
});

/** A whole that the delta `d` applies to: seq one less, holding its removed keys and enough others for `count`. */
function predecessor(d) {
  const whole = DELTA_OF[d.type];
  const key = keyOf(d);
  const list = listOf(d);
  const listed = d[list];
  const removed = d.removed ?? [];
  const newKeys = new Set(listed.map((it) => it[key]));
  const items = removed.map((k) => ({ [key]: k }));
  // Team sizes and Let Me Fly's live board carry no count.
  const counted = whole !== 'teams' && whole !== 'flyBoard' && !(whole === 'lobby' && d.room === 'HALL');
  const want = counted ? d.count - newKeys.size : items.length + 2;
  for (let i = 0; items.length < want; i++) items.push({ [key]: `Filler${i}` });
  const msg = { type: whole, seq: d.seq - 1 };
  if (whole === 'game') {
    msg.game = d.players ? 'fly' : 'words';
    msg[list] = items.map((it) => it[key]);
  } else msg[list] = items;
  if (whole === 'lobby' && d.room === 'HALL') msg.truncated = true;
  return msg;
}

test('every delta example applies to its predecessor by the four steps', () => {
  for (const d of deltas) {
    const g = new Growing();
    g.apply(predecessor(d));
    const r = g.apply(d);
    assert.equal(r.resync, null, `${d.type} ${JSON.stringify(d)}`);
    assert.equal(r.ignored, false);
    const key = keyOf(d);
    const list = listOf(d);
    const items = r.whole[list].map((it) => (typeof it === 'string' ? { [key]: it } : it));
    const keys = items.map((it) => it[key]);
    for (const k of d.removed ?? []) assert.ok(!keys.includes(k), `${k} removed`);
    for (const it of d[list]) {
      const i = keys.indexOf(it[key]);
      assert.ok(i >= 0, `${it[key]} present`);
      if (it.at != null) assert.equal(i, it.at, `${it[key]} at ${it.at}`);
      if (typeof r.whole[list][i] === 'object') {
        const { at, ...rest } = it;
        assert.deepEqual(r.whole[list][i], rest);
        assert.equal('at' in r.whole[list][i], false);
      }
    }
    assert.equal(r.whole.seq, d.seq);
    if (d.type !== 'teamsUpdate' && d.type !== 'flyBoardUpdate' && d.room !== 'HALL') {
      assert.equal(items.length, d.count);
    }
  }
});

test('a delta with no whole held asks for a resync once, then waits for the whole', () => {
  for (const d of deltas) {
    const g = new Growing();
    const r = g.apply(d);
    assert.equal(r.resync, DELTA_OF[d.type]);
    const again = g.apply({ ...d, seq: d.seq + 1 });
    assert.equal(again.resync, null);
    assert.equal(again.ignored, true);
    const p = predecessor(d);
    g.apply(p);
    const after = g.apply(d);
    assert.equal(after.resync, null);
    assert.equal(after.whole.seq, d.seq);
  }
});

test('an old delta is ignored and a skipped one is a gap', () => {
  for (const d of deltas) {
    const g = new Growing();
    const p = predecessor(d);
    g.apply({ ...p, seq: d.seq });
    const old = g.apply(d);
    assert.equal(old.ignored, true);
    assert.equal(old.resync, null);
    const g2 = new Growing();
    g2.apply({ ...p, seq: d.seq - 2 });
    assert.equal(g2.apply(d).resync, DELTA_OF[d.type]);
  }
});

test('a removed key that is not held, an index out of range and a wrong count are gaps', () => {
  const g = new Growing();
  g.apply({ type: 'lobby', room: 'ABCD', count: 1, players: [{ name: 'Ann', team: 'Red', connected: true }],
    teams: ['Red'], seq: 4 });
  assert.equal(g.apply({ type: 'lobbyUpdate', room: 'ABCD', count: 1, players: [], removed: ['Zed'], seq: 5 }).resync,
    'lobby');
  const b = new Growing();
  b.apply({ type: 'buzzed', order: ['Red'], entries: [{ team: 'Red', offsetMs: 0, uncertaintyMs: 1, tie: false }],
    remainingMs: 100, deadline: 5, seq: 1 });
  assert.equal(b.apply({ type: 'buzzedUpdate', seq: 2, count: 2, entries: [{ team: 'X', at: 5 }] }).resync,
    'buzzed');
  const c = new Growing();
  c.apply({ type: 'lockedIn', teams: [{ team: 'Red', position: 1 }], seq: 1 });
  assert.equal(c.apply({ type: 'lockedInUpdate', seq: 2, count: 3, teams: [{ team: 'Blue', position: 2 }] }).resync,
    'lockedIn');
  // a failed delta leaves what was held untouched
  assert.deepEqual(c.view('lockedIn').teams, [{ team: 'Red', position: 1 }]);
});

test('the examples chain: lobby 4→5, buzzed 1→2 (Teal inserted at 2), lockedIn 2→3, fly game 1→2', () => {
  const ex = (type, pred = () => true) => all.find((m) => m.type === type && pred(m));
  const g = new Growing();
  g.apply(ex('lobby', (m) => m.room === 'ABCD'));
  const l = g.apply(ex('lobbyUpdate', (m) => m.room === 'ABCD'));
  assert.deepEqual(l.whole.players.map((p) => [p.name, p.connected]), [['Ann', true], ['Bo', true], ['Cy', true]]);
  g.apply(ex('buzzed'));
  const b = g.apply(ex('buzzedUpdate'));
  assert.deepEqual(b.whole.order, ['Red', 'Blue', 'Teal', 'Gold']);
  assert.equal(b.whole.remainingMs, 19870);
  g.apply(ex('lockedIn'));
  assert.deepEqual(g.apply(ex('lockedInUpdate')).whole.teams.map((t) => t.position), [1, 2, 3, 4]);
  g.apply(ex('game', (m) => m.game === 'fly'));
  assert.deepEqual(g.apply(ex('gameUpdate', (m) => m.players)).whole.players, ['Ann', 'Bob', 'Cleo', 'Dan']);
});

test('games that are no growing state are not taken for one', () => {
  for (const m of all) {
    if (m.type === 'game' && !['fly', 'words'].includes(m.game)) assert.equal(new Growing().apply(m), null);
    if (m.type === 'progress' && typeof m.team === 'string') assert.equal(new Growing().apply(m), null);
  }
});

test('items with `at` are inserted in ascending `at` after the others moved out (step 2 and 4)', () => {
  const g = new Growing();
  const e = (team) => ({ team, offsetMs: 0, uncertaintyMs: 1, tie: false });
  g.apply({ type: 'buzzed', order: ['A', 'B', 'C'], entries: [e('A'), e('B'), e('C')], remainingMs: 1, deadline: 2,
    seq: 7 });
  const r = g.apply({ type: 'buzzedUpdate', seq: 8, count: 5, entries: [{ ...e('X'), at: 3 }, { ...e('Y'), at: 1 }],
    remainingMs: 1, deadline: 2 });
  assert.deepEqual(r.whole.order, ['A', 'Y', 'B', 'X', 'C']);
  // a moved entry (passed by an earlier press) leaves its old place first
  const m = g.apply({ type: 'buzzedUpdate', seq: 9, count: 5, entries: [{ ...e('C'), tie: true, at: 1 }],
    remainingMs: 1, deadline: 2 });
  assert.deepEqual(m.whole.order, ['A', 'C', 'Y', 'B', 'X']);
  assert.equal(m.whole.entries[1].tie, true);
});
