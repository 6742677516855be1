// The page's sounds (sound.js): which event makes which sound for a player and for the board, that every sound
// starts audio nodes on a (fake) AudioContext only after the unlock, that mute silences and is kept, and speech.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECIPES, steps, soundFor, speechLang, createSound } from '../../Sources/Host/Web/sound.js';

class Param {
  constructor() {
    this.calls = [];
  }
  setValueAtTime(v, t) {
    this.calls.push(['set', v, t]);
  }
  exponentialRampToValueAtTime(v, t) {
    assert.ok(v > 0, 'an exponential ramp needs a positive value');
    this.calls.push(['ramp', v, t]);
  }
}
class Node {
  constructor(ac, kind) {
    this.ac = ac;
    this.kind = kind;
    this.frequency = new Param();
    this.gain = new Param();
    this.outs = [];
  }
  connect(n) {
    this.outs.push(n);
    return n;
  }
  start(t) {
    this.ac.started.push([this.kind, t]);
  }
  stop() {
    this.ac.stopped++;
  }
}
class FakeAudioContext {
  constructor() {
    this.state = 'suspended';
    this.currentTime = 1;
    this.sampleRate = 8000;
    this.destination = { kind: 'out' };
    this.started = [];
    this.stopped = 0;
    this.resumed = 0;
  }
  resume() {
    this.resumed++;
    this.state = 'running';
    return Promise.resolve();
  }
  createGain() {
    return new Node(this, 'gain');
  }
  createOscillator() {
    return new Node(this, 'osc');
  }
  createBufferSource() {
    return new Node(this, 'noise');
  }
  createBiquadFilter() {
    return new Node(this, 'filter');
  }
  createBuffer(ch, len) {
    const data = new Float32Array(len);
    return { getChannelData: () => data };
  }
}
const memStore = () => {
  const m = new Map();
  return { get: (k) => (m.has(k) ? m.get(k) : null), set: (k, v) => (v == null ? m.delete(k) : m.set(k, v)), m };
};

const player = { role: 'player', team: 'Red', name: 'Ann' };
const board = { role: 'board' };

test('each event makes its sound, for the player it concerns and for the board', () => {
  const cases = [
    ['shaky', { type: 'hint', letters: 'ab', fixed: 1 }, player, 'shake'],
    ['shaky', { type: 'turn', team: 'Red' }, player, 'turn'],
    ['shaky', { type: 'turn', team: 'Blue' }, player, null],
    ['shaky', { type: 'turn', team: 'Blue' }, board, 'turn'],
    ['shaky', { type: 'result', team: 'Blue', correct: true }, player, 'right'],
    ['shaky', { type: 'result', team: 'Red', correct: false }, player, 'wrong'],
    ['shaky', { type: 'reveal', answer: 'x' }, player, 'reveal'],
    ['shaky', { type: 'question', number: 1 }, board, 'next'],
    ['queen', { type: 'round', queen: 'Ann', chooseMs: 1000 }, player, 'turn'],
    ['queen', { type: 'revealed' }, board, 'reveal'],
    ['outsider', { type: 'reveal', results: [{ team: 'Red', choice: 2, correct: true }] }, player, 'right'],
    ['outsider', { type: 'reveal', results: [{ team: 'Red', choice: 1, correct: false }] }, player, 'wrong'],
    ['outsider', { type: 'reveal', results: [{ team: 'Red', choice: null, correct: false }] }, player, 'reveal'],
    ['outsider', { type: 'reveal', results: [] }, board, 'reveal'],
    ['words', { type: 'result', team: 'Red', correct: true, compound: 'sunflower' }, player, 'right'],
    ['words', { type: 'result', team: 'Red', correct: false }, player, 'wrong'],
    ['words', { type: 'result', team: 'Blue', correct: false }, player, null],
    ['words', { type: 'result', team: 'Blue', correct: false }, board, null],
    ['words', { type: 'result', team: 'Blue', correct: true }, board, 'right'],
    ['words', { type: 'bingo', team: 'Blue', cells: [0, 1, 2, 3] }, player, 'bingo'],
    ['words', { type: 'rolled', team: 'Red', value: 3 }, player, 'roll'],
    ['words', { type: 'progress', team: 'Red', place: 1 }, player, 'finished'],
    ['words', { type: 'progress', team: 'Red', place: null }, player, null],
    ['fly', { type: 'thrown', player: 'Ann', airMs: 3000 }, player, 'flight'],
    ['fly', { type: 'thrown', player: 'Bob', airMs: 3000 }, player, null],
    ['fly', { type: 'thrown', player: 'Bob', airMs: 3000 }, board, 'flight'],
    ['fly', { type: 'caught', player: 'Ann', quality: 'clean' }, player, 'catch'],
    ['fly', { type: 'caught', player: 'Ann', quality: 'fumbled' }, player, 'catch'],
    ['fly', { type: 'caught', player: 'Ann', quality: 'dropped' }, player, 'crash'],
    ['fly', { type: 'achievement', player: 'Ann', id: 'club5' }, player, 'achievement'],
    ['fly', { type: 'round', number: 1 }, player, 'next'],
    ['hunt', { type: 'puzzle', number: 1, of: 3, words: [] }, player, 'found'],
    ['hunt', { type: 'question', number: 1, of: 3 }, player, 'found'],
    ['hunt', { type: 'hint', text: 'x' }, player, 'shake'],
    ['hunt', { type: 'wrong', penaltyMs: 1 }, player, 'wrong'],
    ['hunt', { type: 'solved', last: false }, player, 'right'],
    ['hunt', { type: 'solved', last: true }, player, 'finished'],
    ['hunt', { type: 'scoreboard', final: true, ranking: [] }, board, 'fanfare'],
    ['shaky', { type: 'scoreboard', final: true, ranking: [] }, player, 'fanfare'],
    ['shaky', { type: 'scores', final: false, ranking: [] }, player, null],
    ['shaky', { type: 'paused', at: 1 }, player, null],
    ['fly', null, player, null],
  ];
  for (const [game, m, who, want] of cases) {
    assert.equal(soundFor(game, m, who, {}), want, `${game} ${JSON.stringify(m)} for ${who.role}`);
  }
});

test('a board hears a buzz or a lock-in only when the list grew, and a hunt team moving on', () => {
  const memo = {};
  assert.equal(soundFor('shaky', { type: 'buzzed', order: [{ team: 'Red' }] }, board, memo), 'buzz');
  assert.equal(soundFor('shaky', { type: 'buzzed', order: [{ team: 'Red' }] }, board, memo), null);
  assert.equal(soundFor('shaky', { type: 'buzzed', order: [{ team: 'Red' }, { team: 'B' }] }, board, memo), 'buzz');
  assert.equal(soundFor('shaky', { type: 'buzzed', order: [{ team: 'Red' }, { team: 'B' }, {}] }, player, {}), null);
  assert.equal(soundFor('outsider', { type: 'lockedIn', teams: [{ team: 'Red' }] }, board, memo), 'buzz');
  const row = (station, finished = false) => ({ type: 'progress', teams: [{ team: 'Red', station, finished }] });
  assert.equal(soundFor('hunt', row(0), board, memo), null);
  assert.equal(soundFor('hunt', row(1), board, memo), 'right');
  assert.equal(soundFor('hunt', row(1), board, memo), null);
  assert.equal(soundFor('hunt', row(2, true), board, memo), 'finished');
  assert.equal(soundFor('hunt', row(2, true), player, {}), null);
});

test('every sound named by the mapping has a recipe, and every recipe has audible steps', () => {
  for (const name of Object.keys(RECIPES)) {
    const list = steps(name, { airMs: 2000 });
    assert.ok(list.length > 0, name);
    for (const [wave, f1, f2, at, len, gain] of list) {
      assert.ok(['sine', 'square', 'triangle', 'sawtooth', 'noise'].includes(wave), `${name}: ${wave}`);
      assert.ok(f1 > 0 && f2 > 0 && at >= 0 && len > 0 && gain > 0 && gain <= 1, `${name}: ${[f1, f2, at, len, gain]}`);
    }
  }
  assert.equal(steps('nope'), null);
  const short = steps('flight', { airMs: 1000 });
  const long = steps('flight', { airMs: 4000 });
  const end = (l) => Math.max(...l.map((s) => s[3] + s[4]));
  assert.ok(end(long) > end(short) * 2, 'a longer flight plays longer');
  assert.ok(end(long) <= 5.01 && end(short) >= 0.8);
  assert.ok(long[long.length - 1][1] > long[0][1], 'the flight rises');
});

test('nothing starts before the unlock; after it every sound starts audio nodes and is counted', () => {
  const win = {};
  let made = 0;
  const sound = createSound({ win, storage: memStore(), makeContext: () => (made++, new FakeAudioContext()) });
  assert.equal(sound.play('right'), false);
  assert.equal(made, 0, 'no AudioContext before a tap');
  assert.deepEqual(win.partylineSounds, {});
  assert.ok(sound.unlock());
  assert.equal(made, 1);
  sound.unlock();
  assert.equal(made, 1, 'one context, resumed');
  for (const name of Object.keys(RECIPES)) {
    assert.equal(sound.play(name, { airMs: 1500 }), true, name);
    assert.equal(win.partylineSounds[name], 1, name);
  }
  assert.equal(sound.play('nope'), false);
  assert.equal(win.partylineSounds.nope, undefined);
});

test('mute silences every sound, counts it apart, stops a flight and is kept for the next visit', () => {
  const win = {};
  const storage = memStore();
  let ac = null;
  const sound = createSound({ win, storage, makeContext: () => (ac = new FakeAudioContext()) });
  sound.unlock();
  sound.play('flight', { airMs: 3000 });
  const before = ac.started.length;
  let changed = 0;
  sound.onChange(() => changed++);
  sound.setMuted(true);
  assert.equal(changed, 1);
  assert.ok(ac.stopped > 0, 'the flight stops');
  assert.equal(sound.play('crash'), false);
  assert.equal(sound.play('crash'), false);
  assert.equal(ac.started.length, before, 'no node started while muted');
  assert.equal(win.partylineMuted.crash, 2);
  assert.equal(win.partylineSounds.crash, undefined);
  const again = createSound({ win: {}, storage, makeContext: () => new FakeAudioContext() });
  assert.equal(again.muted, true, 'kept');
  again.setMuted(false);
  assert.equal(createSound({ win: {}, storage }).muted, false);
});

test('the board\'s hunt tune starts once, repeats only while on, and stays silent when muted', () => {
  const win = {};
  const sound = createSound({ win, storage: memStore(), makeContext: () => new FakeAudioContext() });
  sound.unlock();
  sound.music(true);
  sound.music(true);
  assert.equal(win.partylineSounds.tune, 1, 'one loop, not two');
  sound.music(false);
  sound.setMuted(true);
  sound.music(true);
  assert.equal(win.partylineSounds.tune, 1);
  sound.music(false);
});

test('words are spoken in the list language, from a recorded file when given, else not at all', async () => {
  assert.equal(speechLang('sv'), 'sv-SE');
  assert.equal(speechLang('en'), 'en-GB');
  assert.equal(speechLang('EN'), 'en-GB');
  assert.equal(speechLang('pt-BR'), 'pt-BR');
  assert.equal(speechLang('garden'), null);
  assert.equal(speechLang(null), null);
  const said = [];
  class Utterance {
    constructor(text) {
      this.text = text;
    }
  }
  const played = [];
  class Audio {
    constructor(url) {
      this.url = url;
    }
    play() {
      played.push(this.url);
      return this.url.includes('missing') ? Promise.reject(new Error('404')) : Promise.resolve();
    }
  }
  const win = { SpeechSynthesisUtterance: Utterance, Audio,
    speechSynthesis: { speak: (u) => said.push([u.text, u.lang]), cancel() {}, getVoices: () => [] } };
  const sound = createSound({ win, storage: memStore() });
  assert.equal(sound.speak('solros', { lang: 'sv-SE' }), true);
  assert.deepEqual(said, [['solros', 'sv-SE']]);
  assert.equal(sound.speak('sunflower', { lang: null }), false, 'no language: nothing, no error');
  assert.equal(sound.speak('sunflower', { audioURL: '/audio/en/sunflower.mp3', lang: 'en-GB' }), true);
  assert.deepEqual(played, ['/audio/en/sunflower.mp3']);
  assert.equal(said.length, 1, 'the file, not speech');
  sound.speak('rainbow', { audioURL: '/audio/missing.mp3', lang: 'en-GB' });
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(said[1], ['rainbow', 'en-GB'], 'a file that cannot play falls back to speech');
  assert.equal(createSound({ win: {} }).speak('x', { lang: 'en-GB' }), false, 'no speech in this browser');
  sound.setMuted(true);
  assert.equal(sound.speak('solros', { lang: 'sv-SE' }), false);
  assert.equal(win.partylineMuted.speak, 1);
  assert.equal(win.partylineSpoken.length, 4, "solros, the file, the missing file and its fallback");
});
