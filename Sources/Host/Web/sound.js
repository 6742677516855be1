// Sound for every event, made with Web Audio (no files), started only after a tap; one mute switch kept in
// localStorage; spoken words (a recorded file a message names, else speech synthesis in the list's language).
// Test hooks: window.partylineSounds[name] (started), partylineMuted[name] (asked while muted), partylineSpoken.

// A step: [wave (an oscillator type or 'noise'), from Hz, to Hz, start s, length s, gain].
const tune = (wave, notes, len, gain = 0.28, gap = len) => notes.map((f, i) => [wave, f, f, i * gap, len, gain]);
const C5 = 523.25;
const E5 = 659.25;
const G5 = 783.99;
const C6 = 1046.5;

/** Every sound by name: its steps, or a function of the message that caused it. */
export const RECIPES = {
  buzz: [['square', 240, 170, 0, 0.22, 0.22]],
  turn: tune('triangle', [E5, C6], 0.16, 0.3, 0.15),
  next: [['sine', 880, 880, 0, 0.1, 0.18]],
  right: tune('sine', [C5, E5, G5], 0.12, 0.3, 0.1).concat([['sine', C6, C6, 0.3, 0.25, 0.25]]),
  wrong: [['sawtooth', 200, 140, 0, 0.38, 0.18], ['square', 100, 90, 0.02, 0.3, 0.08]],
  shake: [['noise', 4000, 2500, 0, 0.07, 0.35], ['noise', 4000, 2500, 0.1, 0.07, 0.35],
    ['noise', 4000, 2500, 0.2, 0.07, 0.35], ['triangle', 1568, 1568, 0.3, 0.3, 0.22]],
  reveal: tune('triangle', [392, C5, E5], 0.12, 0.28, 0.12).concat([['triangle', G5, G5, 0.36, 0.4, 0.28]]),
  roll: [0, 0.07, 0.15, 0.26].map((t) => ['noise', 1800, 1200, t, 0.05, 0.4]),
  // a rising tune as long as the flight, at most 5 s
  flight: (m) => {
    const secs = Math.min(5, Math.max(0.4, (m?.airMs || 1500) / 1000));
    const scale = [C5, 587.33, E5, G5, 880, C6, 1174.66, 1318.51];
    const n = Math.max(3, Math.round(secs / 0.18));
    return Array.from({ length: n }, (_, i) => {
      const f = scale[i % scale.length] * (i >= scale.length ? 2 : 1);
      return ['triangle', f, f, i * (secs / n), (secs / n) * 0.9, 0.2];
    });
  },
  catch: [['sine', 988, 988, 0, 0.08, 0.3], ['sine', 1319, 1319, 0.08, 0.22, 0.3]],
  crash: [['noise', 900, 120, 0, 0.7, 0.6], ['sawtooth', 120, 35, 0, 0.55, 0.25]],
  bingo: tune('square', [C5, E5, G5, C6, G5, C6], 0.11, 0.16, 0.1),
  found: [['sine', G5, C6, 0, 0.25, 0.3], ['triangle', C6, C6, 0.25, 0.35, 0.25]],
  finished: tune('triangle', [C5, E5, G5, C6, E5 * 2, G5 * 2], 0.14, 0.26, 0.12),
  achievement: tune('sine', [G5, C6, G5 * 2], 0.14, 0.25, 0.09),
  // the board's background tune during a hunt
  tune: (() => {
    const D = [293.66, 349.23, 440, 349.23, 293.66, 440, 392, 349.23, 329.63, 392, 466.16, 392, 349.23, 329.63, 293.66,
      220];
    return D.map((f, i) => ['triangle', f, f, i * 0.6, 0.5, 0.07])
      .concat([0, 2.4, 4.8, 7.2].map((t, i) => ['sine', [146.83, 116.54, 130.81, 110][i], [146.83, 116.54, 130.81,
        110][i], t, 2.2, 0.06]));
  })(),
  fanfare: tune('square', [392, 392, 392, C5], 0.12, 0.14, 0.15)
    .concat([['square', E5, E5, 0.62, 0.16, 0.14], ['square', G5, G5, 0.8, 0.55, 0.16],
      ['triangle', 196, 196, 0.8, 0.55, 0.2]]),
};

export function steps(name, msg) {
  const r = RECIPES[name];
  if (!r) return null;
  return typeof r === 'function' ? r(msg) : r;
}

// The sounds every seat hears for an event, whoever it concerns.
const ALWAYS = { 'shaky:question': 'next', 'shaky:hint': 'shake', 'shaky:reveal': 'reveal', 'queen:order': 'next',
  'queen:revealed': 'reveal', 'outsider:puzzle': 'next', 'words:bingo': 'bingo', 'fly:round': 'next',
  'hunt:puzzle': 'found', 'hunt:question': 'found', 'hunt:hint': 'shake', 'hunt:wrong': 'wrong' };

/** The sound of an event, or null; `who` {role, team, name} is the seat (a board hears the room), `memo` kept. */
export function soundFor(game, m, who, memo = {}) {
  if (!m || typeof m.type !== 'string') return null;
  const board = !who || who.role !== 'player';
  const mine = (team) => board || (who && team === who.team);
  const me = (name) => !board && who && name === who.name;
  if (m.type === 'scoreboard') return m.final ? 'fanfare' : null;
  const key = `${game}:${m.type}`;
  if (Object.hasOwn(ALWAYS, key)) return ALWAYS[key];
  switch (key) {
    case 'shaky:buzzed': {
      const n = (m.order || []).length;
      const grew = n > (memo.buzzN || 0);
      memo.buzzN = n;
      return board && grew ? 'buzz' : null; // a player hears the buzz at the press
    }
    case 'shaky:turn': return mine(m.team) ? 'turn' : null;
    case 'shaky:result': return m.correct ? 'right' : 'wrong';
    case 'queen:round': return m.chooseMs != null && me(m.queen) ? 'turn' : 'next';
    case 'outsider:lockedIn': {
      const n = (m.teams || []).length;
      const grew = n > (memo.lockN || 0);
      memo.lockN = n;
      return board && grew ? 'buzz' : null;
    }
    case 'outsider:reveal': {
      if (board) return 'reveal';
      const r = (m.results || []).find((x) => x.team === who.team);
      return !r || r.choice == null ? 'reveal' : r.correct ? 'right' : 'wrong';
    }
    case 'words:result': return mine(m.team) ? (m.correct ? 'right' : board ? null : 'wrong') : null;
    case 'words:rolled': return mine(m.team) ? 'roll' : null;
    case 'words:progress': return m.place != null && mine(m.team) && !board ? 'finished' : null;
    case 'fly:thrown': return board || me(m.player) ? 'flight' : null;
    case 'fly:caught': return board || me(m.player) ? (m.quality === 'dropped' ? 'crash' : 'catch') : null;
    case 'fly:achievement': return board || me(m.player) ? 'achievement' : null;
    case 'hunt:solved': return m.last ? 'finished' : 'right';
    case 'hunt:progress': {
      if (!board) return null;
      const before = memo.hunt || {};
      let sound = null;
      memo.hunt = {};
      for (const r of m.teams || []) {
        memo.hunt[r.team] = r;
        const was = before[r.team];
        if (!was) continue;
        if (r.finished && !was.finished) sound = 'finished';
        else if (r.station > was.station && !sound) sound = 'right';
      }
      return sound;
    }
    default: return null;
  }
}

/** The speech-synthesis language of a word list's language code (`sv` → `sv-SE`), or null. */
export function speechLang(code) {
  if (typeof code !== 'string') return null;
  const c = code.trim();
  const known = { sv: 'sv-SE', en: 'en-GB', de: 'de-DE', fr: 'fr-FR', no: 'nb-NO', nb: 'nb-NO', da: 'da-DK',
    fi: 'fi-FI', es: 'es-ES', nl: 'nl-NL' };
  if (known[c.toLowerCase()]) return known[c.toLowerCase()];
  return /^[a-z]{2,3}-[A-Za-z]{2,4}$/.test(c) ? c : null;
}

/** The page's sound player; `makeContext()` builds an AudioContext, only from `unlock()` (a tap). */
export function createSound({ win = globalThis, storage = null, makeContext = null } = {}) {
  const started = (win.partylineSounds = win.partylineSounds || {});
  const silenced = (win.partylineMuted = win.partylineMuted || {});
  const spoken = (win.partylineSpoken = win.partylineSpoken || []);
  let ac = null;
  let noise = null;
  let muted = storage ? storage.get('pl:muted') === true : false;
  let flight = [];
  let musicTimer = null;
  const listeners = new Set();
  const make = makeContext || (() => {
    const AC = win.AudioContext || win.webkitAudioContext;
    return AC ? new AC() : null;
  });

  function noiseBuffer() {
    if (noise) return noise;
    const len = Math.floor(ac.sampleRate * 0.8);
    noise = ac.createBuffer(1, len, ac.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = Math.random() * 2 - 1;
    return noise;
  }

  const quietly = (f) => {
    try {
      f();
    } catch {
      /* already over, or not there */
    }
  };
  function stopFlight() {
    for (const n of flight) quietly(() => n.stop());
    flight = [];
  }
  const changed = () => listeners.forEach((f) => f());
  const count = (hooks, name) => (hooks[name] = (hooks[name] || 0) + 1);
  const hush = (name) => !count(silenced, name);

  const api = {
    /** Creates or resumes the audio context; call from a tap (a browser starts sound only after one). */
    unlock() {
      try {
        if (!ac) ac = make();
        if (ac?.state === 'suspended' && ac.resume) ac.resume().catch(() => {});
      } catch {
        ac = null;
      }
      changed();
      return !!ac;
    },
    get ready() {
      return !!ac;
    },
    get muted() {
      return muted;
    },
    /** Mutes or unmutes every sound and spoken word, kept for the next visit. */
    setMuted(value) {
      muted = !!value;
      if (storage) storage.set('pl:muted', muted || null);
      if (muted) {
        stopFlight();
        quietly(() => win.speechSynthesis?.cancel());
      }
      changed();
    },
    music(on) {
      if (!!on === !!musicTimer) return;
      clearTimeout(musicTimer);
      musicTimer = null;
      if (!on) return;
      const loop = () => {
        if (!muted) api.play('tune');
        musicTimer = setTimeout(loop, 9600);
      };
      loop();
    },
    onChange(f) {
      listeners.add(f);
    },
    /** Plays a sound by name for `msg`; true when an audio node was started. */
    play(name, msg) {
      const list = steps(name, msg);
      if (!list) return false;
      if (muted) return hush(name);
      if (!ac || ac.state === 'closed') return false;
      if (name === 'catch' || name === 'crash' || name === 'flight') stopFlight();
      const t0 = ac.currentTime + 0.01;
      const nodes = [];
      try {
        for (const [wave, f1, f2, at, len, gain] of list) {
          const g = ac.createGain();
          g.gain.setValueAtTime(0.0001, t0 + at);
          g.gain.exponentialRampToValueAtTime(gain, t0 + at + Math.min(0.02, len / 4));
          g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
          let src;
          let tone; // what the frequencies apply to: the oscillator, or noise's band-pass filter
          if (wave === 'noise') {
            src = ac.createBufferSource();
            src.buffer = noiseBuffer();
            tone = src.connect(ac.createBiquadFilter());
            tone.type = 'bandpass';
          } else {
            src = tone = ac.createOscillator();
            src.type = wave;
          }
          tone.frequency.setValueAtTime(f1, t0 + at);
          if (f2 !== f1) tone.frequency.exponentialRampToValueAtTime(f2, t0 + at + len);
          tone.connect(g).connect(ac.destination);
          src.start(t0 + at);
          src.stop(t0 + at + len + 0.05);
          nodes.push(src);
        }
      } catch {
        return false;
      }
      if (name === 'flight') flight = nodes;
      return !!count(started, name);
    },
    /** Says a word: the file at `audioURL` (speech if it cannot play), else speech in `lang`, else nothing. */
    speak(word, { lang = null, audioURL = null } = {}) {
      if (!word) return false;
      if (muted) return hush('speak');
      const synth = () => {
        try {
          if (!lang || !win.speechSynthesis || !win.SpeechSynthesisUtterance) return false;
          const u = new win.SpeechSynthesisUtterance(word);
          u.lang = lang;
          u.rate = 0.85;
          const voices = win.speechSynthesis.getVoices() || [];
          const voice = voices.find((v) => v.lang === lang) || voices.find((v) => v.lang?.startsWith(lang.slice(0, 2)));
          if (voice) u.voice = voice;
          win.speechSynthesis.cancel();
          win.speechSynthesis.speak(u);
          spoken.push({ text: word, lang, via: 'speech' });
          return !!count(started, 'speak');
        } catch {
          return false;
        }
      };
      if (audioURL && win.Audio) {
        try {
          const a = new win.Audio(audioURL);
          spoken.push({ text: word, lang, via: 'audio', url: audioURL });
          count(started, 'speak');
          const p = a.play();
          if (p?.catch) p.catch(synth);
          return true;
        } catch {
          return synth();
        }
      }
      return synth();
    },
  };
  return api;
}
