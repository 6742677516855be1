// The phone page's session: join, token, automatic return, catch-up, lobby, refusals, pause, scores, board view.
import { el, fill, screen, standings, podium, mmss, button, wsUrl } from './ui.js';
import { Growing } from './delta.js';
import { Clock } from './clock.js';
import { createSound, soundFor, speechLang } from './sound.js';
import shaky from './mode-shaky.js';
import queen from './mode-queen.js';
import words from './mode-words.js';
import fly from './mode-fly.js';
import outsider from './mode-outsider.js';
import hunt from './mode-hunt.js';
import { createRewards } from './rewards.js';

const MODES = { shaky, queen, words, fly, outsider, hunt };
const title = (game) => MODES[game]?.title || game;

const $ = (id) => document.getElementById(id);
const app = $('app');
const toasts = $('toasts');
const overlay = $('overlay');
const whoLine = $('who');
const muteBtn = $('mute');
const soundOn = $('sound-on');
const momentBox = $('moment');

const path = decodeURIComponent(location.pathname).replace(/^\/+|\/+$/g, '');
const isBoard = path.toLowerCase() === 'board';
const roomPattern = /^[A-Za-z0-9]{4,8}$/;
let room = !isBoard && roomPattern.test(path) ? path.toUpperCase() : null;
if (isBoard) {
  const fromUrl = (location.hash.slice(1) || new URLSearchParams(location.search).get('room') || '').trim();
  room = roomPattern.test(fromUrl) ? fromUrl.toUpperCase() : store('pl:boardRoom') || null;
  document.body.classList.add('board-view');
}
// A hunt sheet's QR code opens /ROOM#checkin=CODE: the code waits for this phone's player to be at a clue, then
// goes as their team's check-in (mode-hunt.js); the fragment leaves the address bar so a reload does not resend it.
let pendingCheckIn = isBoard ? null : (/^#checkin=([A-Za-z0-9-]{1,32})$/.exec(location.hash) || [])[1] || null;
if (pendingCheckIn) history.replaceState(null, '', location.pathname + location.search);

function store(key, value) {
  try {
    if (value === undefined) return JSON.parse(localStorage.getItem(key) || 'null');
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    return null;
  }
  return value;
}
const seatKey = (r, name) => `pl:seat:${r}:${name.toLowerCase()}`;
const lastKey = (r) => `pl:last:${r}`;
function rememberTeam(team) {
  if (!team) return;
  const list = (store('pl:teams') || []).filter((t) => t.toLowerCase() !== team.toLowerCase());
  store('pl:teams', [team, ...list].slice(0, 6));
}

const sound = createSound({ win: window, storage: { get: store, set: store } });
let soundMemo = {};
let quietUntil = 0; // the catch-up burst after a welcome replays events: no sounds for it
const live = () => performance.now() >= quietUntil && !endedCatchUp;
function drawSound() {
  muteBtn.setAttribute('aria-pressed', String(sound.muted));
  soundOn.hidden = !isBoard || sound.ready || sound.muted;
}
sound.onChange(drawSound);
drawSound();
muteBtn.addEventListener('click', () => sound.setMuted(!sound.muted));
// iOS counts touchend and click as the tap that may start sound; others pointerdown and keydown.
for (const ev of ['pointerdown', 'touchend', 'click', 'keydown']) {
  document.addEventListener(ev, () => sound.unlock(), { capture: true });
}
soundOn.addEventListener('click', () => sound.unlock());
const rewards = createRewards({ send, play: (name, msg) => sound.play(name, msg), toast: (text) => toast(text) });
function playFor(msg) {
  const name = soundFor(viewGame, msg, me, soundMemo);
  if (name && live()) sound.play(name, msg);
}

// A full-screen moment (a station found, a hunt finished), closed by a tap or after a few seconds.
let momentTimer = null;
function moment(title, text = '', kind = '') {
  if (!live()) return; // not for a catch-up after (re)joining
  $('moment-title').textContent = title;
  $('moment-text').textContent = text;
  momentBox.className = `moment ${kind}`;
  if (momentBox.hidden) momentBack = document.activeElement;
  momentBox.hidden = false;
  momentBox.focus({ preventScroll: true });
  clearTimeout(momentTimer);
  momentTimer = setTimeout(closeMoment, 4000);
}
let momentBack = null;
function closeMoment() {
  if (momentBox.hidden) return;
  momentBox.hidden = true;
  if (momentBack?.isConnected) momentBack.focus({ preventScroll: true });
}
momentBox.addEventListener('click', closeMoment);
momentBox.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' || e.key === 'Enter' || e.key === ' ') closeMoment();
});

const screens = {};
for (const id of ['join', 'refused', 'lobby', 'game', 'board', 'connecting']) {
  screens[id] = el('section', { data: { screen: id }, hidden: true });
  app.appendChild(screens[id]);
}
const show = (id) => screen(app, id);

function toast(text, kind = '') {
  const t = el('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status', text });
  toasts.appendChild(t);
  setTimeout(() => t.remove(), kind === 'error' ? 6000 : 4500);
  while (toasts.children.length > 3) toasts.firstChild.remove();
}

const clock = new Clock(performance.timeOrigin, () => performance.now());
const growing = new Growing();
let ws = null;
let nextId = 1;
const pending = new Map();
let hello = null; // the hello to (re)send; holds `resume` once joined
let joined = false; // the current socket has a welcome
let everJoined = false;
let wantOpen = false;
let failures = 0;
let retryTimer = null;
let me = null;
let lobby = null;
let hall = null;
let view = null;
let viewGame = null;
let gameOver = null; // the final message of the last game
let pausedNow = false;
let waitingNotice = null;
let endedCatchUp = false; // joined while no game runs: the `game` that follows is the last game's final catch-up

function rawSend(obj) {
  if (ws?.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(obj));
    return true;
  }
  return false;
}

/** Sends a request; resolves with its reply (an error is also shown). */
function send(obj, { quiet = false } = {}) {
  const id = nextId++;
  return new Promise((resolve) => {
    if (!rawSend({ ...obj, id })) {
      if (!quiet) toast('Not connected — coming back…', 'error');
      resolve({ type: 'error', code: 'offline', message: 'Not connected.' });
      return;
    }
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve({ type: 'error', code: 'timeout', message: 'No answer from the host.' });
    }, 10000);
    pending.set(id, (reply) => {
      clearTimeout(timer);
      if (reply.type === 'error' && !quiet) toast(reply.message || reply.code, 'error');
      resolve(reply);
    });
  });
}

const setNet = (text) => ($('net').textContent = text);
const playerHello = (r, more) => ({ type: 'hello', protocol: 1, room: r, role: 'player', clock: true, ...more });

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
  wantOpen = true;
  joined = false;
  setNet(everJoined ? 'Reconnecting…' : 'Connecting…');
  let sock;
  try {
    sock = new WebSocket(wsUrl());
  } catch {
    scheduleRetry();
    return;
  }
  ws = sock;
  sock.onopen = () => ws === sock && sock.send(JSON.stringify({ ...hello, id: 'hello' }));
  sock.onmessage = (ev) => {
    if (ws !== sock) return;
    const msg = parse(ev.data);
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'sync') {
      if (typeof msg.n === 'number') rawSend(clock.answer(msg, ev.timeStamp));
      return;
    }
    if (msg.type === 'ping') {
      rawSend({ type: 'pong' });
      return;
    }
    if (msg.re === 'hello') return onHelloReply(msg, ev.timeStamp);
    if (msg.re != null && pending.has(msg.re)) {
      const done = pending.get(msg.re);
      pending.delete(msg.re);
      done(msg);
      if (msg.type === 'error' || msg.type === 'ok' || msg.type === 'pong') return;
    }
    dispatch(msg);
  };
  sock.onclose = () => {
    if (ws !== sock) return;
    ws = null;
    joined = false;
    for (const [, done] of pending) done({ type: 'error', code: 'offline', message: 'Connection lost.' });
    pending.clear();
    if (wantOpen) scheduleRetry();
  };
}

function scheduleRetry() {
  failures++;
  const delay = Math.min(10000, 500 * 2 ** Math.min(failures - 1, 5)) * (0.8 + Math.random() * 0.4);
  setNet(failures > 3 ? `Host not reachable — trying again in ${Math.ceil(delay / 1000)} s` : 'Reconnecting…');
  if (failures === 6 && !everJoined) showRefused('host_gone');
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, delay);
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
function closeSocket(s, bye = false) {
  try {
    if (bye) s.send(JSON.stringify({ type: 'bye' }));
    s.close(1000);
  } catch {
    /* already closed */
  }
}

function disconnect() {
  wantOpen = false;
  clearTimeout(retryTimer);
  if (ws) closeSocket(ws);
  ws = null;
}

function reconnect() {
  failures = 0;
  showConnecting();
  connect();
}

function wake() {
  if (!wantOpen) return;
  if (!ws) {
    failures = 0;
    connect();
    return;
  }
  if (ws.readyState === WebSocket.OPEN && joined) {
    // A socket from before the sleep may be dead without knowing it: ask, and start afresh when nobody answers.
    const s = ws;
    send({ type: 'ping' }, { quiet: true }).then((r) => {
      if (r.type !== 'pong' && ws === s) {
        closeSocket(s);
        ws = null;
        failures = 0;
        connect();
      }
    });
  }
}
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') wake();
});
window.addEventListener('pageshow', wake);
window.addEventListener('online', wake);
window.addEventListener('offline', () => setNet('Offline — waiting for the network'));

function onHelloReply(msg, at) {
  if (msg.type === 'welcome') {
    joined = true;
    everJoined = true;
    failures = 0;
    setNet('');
    clock.seeHostTime(msg.hostTime, at);
    growing.reset();
    soundMemo = {};
    quietUntil = performance.now() + 1200;
    disposeView();
    gameOver = null;
    lobby = null;
    endedCatchUp = !msg.game;
    // The final catch-up of a finished game comes in the burst after the welcome; a game that starts later is live.
    if (endedCatchUp) {
      setTimeout(() => {
        if (!endedCatchUp) return;
        endedCatchUp = false;
        if (view && !gameOver) showView();
      }, 1500);
    }
    if (msg.role === 'board') {
      me = { role: 'board', name: null, team: null, player: null };
      store('pl:boardRoom', msg.room);
      whoLine.textContent = `Board · room ${msg.room}`;
      renderBoard();
      show('board');
      return;
    }
    me = { role: 'player', player: msg.player, name: msg.name, team: msg.team, code: msg.code };
    hello = playerHello(msg.room, { resume: msg.token });
    store(seatKey(msg.room, msg.name), { token: msg.token, code: msg.code, name: msg.name, team: msg.team });
    store(lastKey(msg.room), msg.name);
    rememberTeam(msg.team);
    whoLine.textContent = `${msg.name} · ${msg.team}`;
    renderLobby();
    rewards.ask();
    if (!msg.game) show('lobby');
    else {
      fill(screens.game, el('p', { class: 'muted', text: `Catching up with ${title(msg.game)}…` }));
      show('game');
    }
    return;
  }
  if (msg.type === 'error') {
    wantOpen = false;
    if (ws) ws.close();
    ws = null;
    if (msg.code === 'bad_token' && hello?.resume) {
      forgetSeat(true);
      hello = null;
      toast('Your place in the room has expired — join again.', 'error');
      showJoin(msg.message);
      return;
    }
    const withCode = !!hello?.code && (msg.code === 'bad_token' || msg.code === 'rate_limited');
    if (msg.code === 'bad_name' || msg.code === 'bad_field' || withCode) {
      showJoin(msg.message, withCode); // a wrong rejoin code may be typed again
      return;
    }
    showRefused(msg.code, msg.message);
  }
}

function forgetSeat(keepName = false) {
  if (!room) return;
  const last = store(lastKey(room));
  if (last) store(seatKey(room, last), null);
  if (!keepName) store(lastKey(room), null);
}

function showRefused(code, message = '') {
  disconnect();
  const actions = [];
  let title = 'Could not join';
  let text = message;
  const again = (label = 'Join again') => button(label, () => showJoin(), { class: 'wide' });
  switch (code) {
    case 'wrong_room':
      title = 'No such room';
      text = `${message} Check the code on the host's screen.`;
      room = isBoard ? null : room;
      actions.push(button('Type the room code', () => {
        room = null;
        showJoin();
      }, { class: 'wide' }));
      break;
    case 'name_taken':
      title = 'That name is taken';
      text = 'Someone in this room already plays under that name. Choose another name. If it is you: your first '
        + 'phone comes back by itself; or come back on this network with the same name after that phone went '
        + 'away; or enter the rejoin code it showed you.';
      actions.push(again('Choose another name'));
      actions.push(button('I have my rejoin code', () => showJoin(null, true), { class: 'wide secondary' }));
      break;
    case 'kicked':
      title = 'You were removed from the room';
      text = message || 'The host removed you from the room.';
      forgetSeat();
      actions.push(again('Join again'));
      break;
    case 'banned':
      title = 'Not allowed in tonight';
      actions.push(again('Back'));
      break;
    case 'replaced':
      title = 'Playing on another screen';
      text = 'You joined again from another tab or device, so this one stopped.';
      actions.push(button('Play here instead', reconnect, { class: 'wide' }));
      break;
    case 'host_gone':
    case 'shutdown':
      title = 'The host has gone';
      text = code === 'shutdown' ? message || 'The host shut down.'
        : 'The game host cannot be reached. Is the laptop on and on this network?';
      actions.push(button('Try again', () => (hello ? reconnect() : showJoin()), { class: 'wide' }));
      // Keep looking for the host in the background: a restarted host (--resume) takes the token back.
      if (hello?.resume) {
        wantOpen = true;
        failures = Math.max(failures, 3);
        retryTimer = setTimeout(connect, 3000);
      }
      break;
    case 'full':
    case 'rate_limited':
      title = 'The host is busy';
      text = `${message} Try again in a moment.`;
      actions.push(again('Try again'));
      break;
    case 'storage':
      title = 'The host cannot save right now';
      actions.push(again('Try again'));
      break;
    default:
      actions.push(again('Back'));
  }
  fill(screens.refused, el('h1', { text: title }), el('p', { text }), el('div', { class: 'stack' }, actions));
  show('refused');
}

function showConnecting() {
  fill(screens.connecting, el('h1', { text: 'Connecting…' }),
    el('p', { class: 'muted', text: 'Finding the game host on this network.' }));
  show('connecting');
}

// The join form peeks at the room's teams through a board connection, which sees the lobby.
let peek = null;
function closePeek() {
  if (peek) closeSocket(peek, true);
  peek = null;
}
function openPeek(code, onTeams, onWrongRoom) {
  closePeek();
  let s;
  try {
    s = new WebSocket(wsUrl());
  } catch {
    return;
  }
  peek = s;
  const g = new Growing();
  s.onopen = () => s.send(JSON.stringify({ type: 'hello', protocol: 1, room: code, role: 'board', id: 'peek' }));
  s.onmessage = (ev) => {
    const m = parse(ev.data);
    if (peek !== s || !m) return;
    if (m.re === 'peek' && m.type === 'error') {
      closePeek();
      if (m.code === 'wrong_room') onWrongRoom(m.message);
      return;
    }
    if (m.type === 'ping') s.send(JSON.stringify({ type: 'pong' }));
    const r = g.apply(m);
    if (r?.resync) s.send(JSON.stringify({ type: 'resync', state: r.resync }));
    if (r?.whole && r.state === 'lobby') onTeams(r.whole.teams || [], r.whole.players || []);
    if (r?.whole && r.state === 'teams') onTeams((r.whole.teams || []).map((t) => t.team), []);
  };
}

function showJoin(error = null, withCode = false) {
  disconnect();
  const saved = room ? store(lastKey(room)) : null;
  const input = (id, props) => el('input', { id, name: id, autocomplete: 'off', ...props });
  const label = (id, text) => el('label', { for: id, text });
  const caps = { autocapitalize: 'characters', spellcheck: 'false' };
  const roomInput = input('room', { ...caps, maxlength: 8, inputmode: 'text', value: room || '', placeholder: 'ABCD' });
  const nameInput = input('name', { autocomplete: 'nickname', maxlength: 24, enterkeyhint: 'go', value: saved || '',
    placeholder: 'Your name' });
  const teamInput = input('team', { maxlength: 24, placeholder: 'A new team, or leave empty' });
  const codeInput = input('code', { ...caps, maxlength: 7, placeholder: 'e.g. KXT4M9R' });
  const err = el('p', { class: 'error', role: 'alert', text: error || '' });
  const roomErr = el('p', { class: 'error', role: 'alert' });
  const chips = (name) => el('div', { class: 'chips', role: 'group', 'aria-label': name });
  const teamChips = chips('Teams in the room');
  const recentChips = chips('Your recent teams');
  let chosen = null;
  const unpress = () => {
    for (const b of document.querySelectorAll('.chips button')) b.setAttribute('aria-pressed', 'false');
  };
  const chip = (t) => button(t, (e) => {
    chosen = t;
    teamInput.value = t;
    unpress();
    e.currentTarget.setAttribute('aria-pressed', 'true');
  }, { class: 'secondary', 'aria-pressed': 'false' });
  const showTeams = (teams, players) => {
    fill(teamChips, teams.length ? teams.map(chip) : el('span', { class: 'muted', text: 'No teams yet: start one.' }));
    teamHint.textContent = players.length ? `${players.length} in the room.` : '';
  };
  const teamHint = el('p', { class: 'muted' });
  const recent = store('pl:teams') || [];
  fill(recentChips, recent.map(chip));
  teamInput.addEventListener('input', () => {
    chosen = null;
    unpress();
  });
  const startPeek = () => {
    const code = roomInput.value.trim();
    roomErr.textContent = '';
    if (roomPattern.test(code)) openPeek(code.toUpperCase(), showTeams, (m) => (roomErr.textContent = m));
  };
  roomInput.addEventListener('change', startPeek);

  const form = el('form', { on: { submit: (e) => {
    e.preventDefault();
    const code = roomInput.value.trim().toUpperCase();
    const name = nameInput.value.trim();
    const team = (chosen || teamInput.value).trim();
    const fail = (text, field) => {
      err.textContent = text;
      field.focus();
    };
    const badRoom = 'The room code is 4 to 8 letters or digits, as on the host’s screen.';
    if (!roomPattern.test(code)) return fail(badRoom, roomInput);
    if (isBoard) {
      room = code;
      return joinAsBoard();
    }
    if (!name) return fail('Type your name.', nameInput);
    room = code;
    const seat = store(seatKey(code, name));
    const rejoin = withCode && codeInput.value.trim().toUpperCase();
    // With a rejoin code (PROTOCOL.md §4) the host finds the player by name and code: another device's way back.
    hello = playerHello(code, seat?.token && !rejoin ? { resume: seat.token } : rejoin ? { name, code: rejoin }
      : { name, team });
    if (location.pathname.replace(/\//g, '').toUpperCase() !== code) history.replaceState(null, '', `/${code}`);
    closePeek();
    reconnect();
  } } },
  label('room', 'Room code'), roomInput, roomErr,
  isBoard ? null : [
    label('name', 'Your name'), nameInput,
    el('label', { id: 'team-label', text: 'Your team' }),
    el('p', { class: 'muted', text: 'Tap a team to join it, or type a new one.' }),
    teamChips, teamHint,
    recent.length ? [el('p', { class: 'muted', text: 'Your recent teams:' }), recentChips] : null,
    label('team', 'New team'), teamInput,
    withCode ? [label('code', 'Rejoin code (from your other device)'), codeInput] : null,
  ],
  err,
  el('button', { type: 'submit', class: 'wide', text: isBoard ? 'Show the board' : 'Join' }));
  fill(screens.join, el('h1', { text: isBoard ? 'Board for the projector' : 'Join the game' }), form);
  show('join');
  if (!room) roomInput.focus();
  startPeek();
}

function joinAsBoard() {
  hello = { type: 'hello', protocol: 1, room, role: 'board', clock: true };
  reconnect();
}

function groupByTeam(players, teams) {
  const by = new Map((teams || []).map((t) => [t, []]));
  for (const p of players || []) {
    if (!by.has(p.team)) by.set(p.team, []);
    by.get(p.team).push(p);
  }
  return by;
}

function lobbyList(mine) {
  if (!lobby) return el('p', { class: 'muted', text: 'Waiting for the room…' });
  const blocks = [];
  const grouped = [...groupByTeam(lobby.players, lobby.teams)];
  grouped.sort((a, b) => (b[0] === mine) - (a[0] === mine)); // your own team first
  for (const [team, players] of grouped) {
    blocks.push(el('div', { class: 'team-block card' },
      el('h3', { text: team === mine ? `${team} (your team)` : team }),
      el('ul', { class: 'players' }, players.map((p) => el('li', {},
        el('span', { text: p.name }),
        p.connected ? null : el('span', { class: 'away', text: '(away)' }))))));
  }
  // A hall's copy (§6.0.1) lists the first teams and yours; `total` says how many there are.
  const more = hall ? (hall.total || 0) - hall.teams.length : 0;
  const rest = more > 0 ? ` … and ${more} more team${more === 1 ? '' : 's'}` : '';
  const hallLine = hall ? el('p', { class: 'muted', text: `${hall.count} players in ${hall.total || hall.teams.length} `
    + `teams: ${hall.teams.map((t) => `${t.team} ${t.players}`).join(' · ')}${rest}` })
    : null;
  return [el('p', { text: `${lobby.count} ${lobby.count === 1 ? 'player' : 'players'} in room ${lobby.room}.` }),
    hallLine, blocks];
}

function rejoinCodeBox() {
  if (!me || !me.code) return null;
  const out = el('p', { class: 'secret big', 'aria-live': 'polite' });
  const btn = button('Show my rejoin code', () => {
    const open = btn.getAttribute('aria-expanded') !== 'true';
    btn.setAttribute('aria-expanded', String(open));
    btn.textContent = `${open ? 'Hide' : 'Show'} my rejoin code`;
    out.textContent = open ? me.code : '';
    hint.hidden = !open;
  }, { class: 'quiet wide', 'aria-expanded': 'false' });
  const hint = el('p', { class: 'muted', hidden: true, text: `On another phone: "I have my rejoin code" with your `
    + `name. From a laptop: connect with nc or telnet and type: rejoin ${me.name} ${me.code}. Keep it to yourself.` });
  return el('div', { class: 'card' }, btn, out, hint);
}

function renderLobby() {
  if (!me || me.role !== 'player') return renderBoard();
  let sure = false;
  const leave = button('Leave the room', () => {
    if (!sure) {
      sure = true;
      leave.textContent = 'Tap again to leave for good';
      return;
    }
    wantOpen = false;
    rawSend({ type: 'bye' });
    forgetSeat();
    hello = null;
    setTimeout(() => showJoin(), 200);
  }, { class: 'quiet wide' });
  const finals = gameOver ? finalBlock(gameOver) : null;
  fill(screens.lobby,
    el('h1', { text: 'Lobby' }),
    el('p', { class: 'status-line', text: waitingNotice || 'Waiting for the host to start a game.' }),
    finals,
    rewards.card(),
    lobbyList(me.team),
    rejoinCodeBox(),
    leave);
}

function renderBoard() {
  if (!me || me.role !== 'board') return;
  const url = `${location.host}/${lobby ? lobby.room : room}`;
  const top = el('div', { class: 'center' },
    el('p', { class: 'big', text: 'Join on your phone:' }),
    el('p', { class: 'huge', text: url }),
    el('div', { id: 'qr', 'aria-hidden': 'true' }, el('img', { src: '/join.svg', alt: '', width: '240', height: '240' })),
    el('p', { text: `Room code ${lobby ? lobby.room : room}` }));
  if (view && !gameOver) {
    fill(screens.board, el('h1', { class: 'center', text: title(viewGame) }),
      el('p', { class: 'center muted', text: `Join: ${url}` }), view.root);
    return;
  }
  fill(screens.board, top, gameOver ? finalBlock(gameOver) : null, el('div', { class: 'cols' }, lobbyList(null)));
}

function disposeView() {
  try {
    view?.dispose();
  } catch {
    /* a view's own trouble */
  }
  view = null;
  viewGame = null;
}

const ctx = {
  send,
  stamp: (eventOrTime) => clock.stamp(typeof eventOrTime === 'number' ? eventOrTime : eventOrTime.timeStamp),
  clock,
  hostNow: () => clock.hostNow(),
  get me() {
    return me;
  },
  el,
  sound: (name, msg) => sound.play(name, msg),
  speak: (word, opts) => live() && sound.speak(word, opts),
  speechLang,
  takeCheckIn: () => {
    const code = pendingCheckIn;
    pendingCheckIn = null;
    return code;
  },
  moment,
  store,
  vibrate: (pattern) => {
    try {
      if (navigator.vibrate && navigator.userActivation?.hasBeenActive !== false) navigator.vibrate(pattern);
    } catch {
      /* not allowed */
    }
  },
  notice: (text, kind) => toast(text, kind),
  get paused() {
    return pausedNow;
  },
};

function startView(game) {
  disposeView();
  gameOver = null;
  waitingNotice = null;
  if (!MODES[game]) return; // the host's registry has a view for every mode it runs
  viewGame = game;
  view = MODES[game].create(ctx);
  if (endedCatchUp) return; // kept out of sight until it proves live: a finished game's scores show in the lobby
  showView();
}

function showView() {
  if (me.role === 'board') {
    renderBoard();
    show('board');
  } else {
    fill(screens.game, el('h1', { class: 'game-title', text: title(viewGame) }), view.root);
    show('game');
  }
}

function finalBlock(msg) {
  const mine = me?.role === 'player' ? me.team : null;
  const first = msg.ranking?.[0] || {};
  let list;
  if (msg.type === 'ended') list = el('p', { text: msg.reason || 'The game is over.' });
  else if ('totalMs' in first) list = podium(msg.ranking, mine, (r) => `${r.stations} · ${mmss(r.totalMs)}`);
  else if ('player' in first) {
    list = [podium(msg.ranking, me?.name, undefined, 'player'), el('h3', { text: 'Teams' }),
      standings(msg.teams, mine)];
  } else list = podium(msg.ranking, mine);
  // A hall's player gets their team's row and the top rows, with the whole count (PROTOCOL.md §6.0.1).
  const more = msg.ranking && msg.total > msg.ranking.length ? msg.total - msg.ranking.length : 0;
  return el('div', { class: 'card final', role: 'region', 'aria-label': 'Final scores' },
    el('h2', { text: msg.type === 'ended' ? 'Game over' : 'Final scores' }), list,
    more ? el('p', { class: 'muted', text: `… and ${more} more team${more === 1 ? '' : 's'}` }) : null);
}

function dispatch(msg) {
  const g = growing.apply(msg);
  if (g) {
    if (g.resync) rawSend({ type: 'resync', state: g.resync });
    if (!g.whole) return;
    msg = g.whole;
  }
  if (rewards.handle(msg)) return;
  switch (msg.type) {
    case 'lobby':
      lobby = msg;
      if (me?.role === 'board' && !view) renderBoard();
      else if (screens.lobby.hidden === false || !view) renderLobby();
      return;
    case 'teams':
      hall = msg;
      renderLobby();
      return;
    case 'notice':
      toast(msg.message);
      if (!view || gameOver) {
        waitingNotice = msg.message;
        renderLobby();
      }
      break;
    case 'error':
      if (msg.code === 'kicked' || (!joined && (msg.code === 'full' || msg.code === 'rate_limited'))) {
        return showRefused(msg.code, msg.message);
      }
      return toast(msg.message || msg.code, 'error');
    case 'closing':
      if (msg.code === 'replaced' || msg.code === 'shutdown') return showRefused(msg.code, msg.reason);
      if (msg.code === 'bye') wantOpen = false;
      return; // idle: the close brings us back
    case 'paused':
      pausedNow = true;
      $('overlay-text').textContent = msg.reason || 'The game is paused. It goes on when the host resumes it.';
      overlay.hidden = false;
      break;
    case 'resumed':
      pausedNow = false;
      overlay.hidden = true;
      break;
    case 'game':
      if (msg.game && (!view || viewGame !== msg.game || gameOver)) {
        if (gameOver) endedCatchUp = false; // a new game starts
        startView(msg.game);
      }
      break;
    default:
  }
  if (view) {
    try {
      view.handle(msg);
    } catch (e) {
      console.error(e);
    }
    playFor(msg);
  }
  sound.music(me?.role === 'board' && viewGame === 'hunt' && view && !gameOver && msg.type !== 'scoreboard'
    && msg.type !== 'ended');
  if ((msg.type === 'scoreboard' && msg.final) || (msg.type === 'ended' && view)) {
    gameOver = msg;
    pausedNow = false;
    overlay.hidden = true;
    if (me.role === 'board') renderBoard();
    else if (endedCatchUp) renderLobby();
    else {
      const back = button('Back to the lobby', () => {
        renderLobby();
        show('lobby');
      }, { class: 'wide secondary' });
      const block = finalBlock(msg);
      screens.game.insertBefore(block, view ? view.root : null);
      screens.game.insertBefore(back, view ? view.root : null);
      block.scrollIntoView({ block: 'start' });
    }
    endedCatchUp = false;
  }
}

function boot() {
  if (isBoard) {
    if (room) joinAsBoard();
    else showJoin();
    return;
  }
  if (room) {
    const last = store(lastKey(room));
    const seat = last ? store(seatKey(room, last)) : null;
    if (seat?.token) {
      me = { role: 'player', name: seat.name, team: seat.team, code: seat.code };
      hello = playerHello(room, { resume: seat.token });
      showConnecting();
      connect();
      return;
    }
  }
  showJoin();
}
boot();
