// The Queen's game (PROTOCOL.md §6.3): the number hidden until held, the Queen's commands, the reveal.
import { fill, parts, button } from './ui.js';

const fold = (t) => t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const shown = (t) => t.replace(/\{queen\}/g, 'the Queen').replace(/\{(\d)\}/g, '‹$1›');

function create(ctx) {
  const { el, player, name: myName, head, clockLine, timer, status } = parts(ctx);
  const s = { round: null, secret: null, order: null, commands: null, phase: 'wait' };

  const HOLD = 'Press and hold to see your number';
  const hold = el('button', { type: 'button', class: 'hold', hidden: true, 'aria-live': 'polite', text: HOLD });
  const queenBox = el('div', { hidden: true });
  const orderBox = el('div', { class: 'card', hidden: true, 'aria-live': 'polite' });
  const revealBox = el('div', { class: 'card', hidden: true, 'aria-live': 'polite' });
  const root = el('div', { class: 'queen' }, head, clockLine, status, hold, queenBox, orderBox, revealBox);

  const showNumber = (on) => {
    if (!s.secret) return;
    hold.classList.toggle('showing', on);
    hold.textContent = on ? String(s.secret.number) : HOLD;
    hold.setAttribute('aria-label', on ? `Your number is ${s.secret.number}` : HOLD);
  };
  hold.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    try {
      hold.setPointerCapture(e.pointerId);
    } catch {
      /* fine */
    }
    showNumber(true);
  });
  for (const ev of ['pointerup', 'pointercancel', 'lostpointercapture', 'blur']) {
    hold.addEventListener(ev, () => showNumber(false));
  }
  hold.addEventListener('keydown', (e) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      showNumber(true);
    }
  });
  hold.addEventListener('keyup', () => showNumber(false));
  hold.addEventListener('contextmenu', (e) => e.preventDefault());

  const search = el('input', { id: 'qsearch', type: 'search', autocomplete: 'off', placeholder: 'Search commands',
    enterkeyhint: 'search' });
  const list = el('ul', { class: 'cmds', 'aria-label': 'Commands' });
  const own = el('textarea', { id: 'qown', maxlength: 200, placeholder: 'e.g. No. 2 sings a song to No. 3', rows: null });
  const save = el('input', { id: 'qsave', type: 'checkbox' });
  const ownForm = el('form', { class: 'stack' },
    el('label', { for: 'qown', text: 'Or your own order' }), own,
    el('label', { class: 'row' }, save, el('span', { text: 'Also keep it in the library' })),
    el('button', { type: 'submit', class: 'wide', text: 'Give my order' }));
  fill(queenBox, el('h2', { text: 'You are the Queen! Choose an order.' }),
    el('label', { for: 'qsearch', text: 'Commands' }), search, list, ownForm);
  let armed = null;
  function drawList() {
    const q = fold(search.value.trim());
    const items = (s.commands || []).filter((c) => !q || fold(c.text).includes(q)).slice(0, 60);
    fill(list, items.length ? items.map((c) => el('li', {}, button(
      `${armed === c.id ? 'Tap again to order: ' : ''}${shown(c.text)}`, () => chooseTemplate(c),
      { 'aria-pressed': String(armed === c.id) })))
      : el('li', { class: 'muted', text: s.commands ? 'No command matches.' : 'Loading the commands…' }));
  }
  search.addEventListener('input', drawList);
  async function chooseTemplate(c) {
    if (armed !== c.id) {
      armed = c.id;
      drawList();
      return;
    }
    armed = null;
    const r = await ctx.send({ type: 'command', template: c.id });
    if (r.type !== 'error') queenBox.hidden = true;
    drawList();
  }
  ownForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = own.value.trim();
    if (!text) return;
    const r = await ctx.send({ type: 'command', text, save: save.checked || undefined });
    if (r.type !== 'error') {
      own.value = '';
      queenBox.hidden = true;
    }
  });
  async function loadCommands() {
    if (s.commands) return drawList();
    drawList();
    const r = await ctx.send({ type: 'library', action: 'list' });
    if (r.type === 'library') s.commands = (r.commands || []).filter((c) => !c.hidden);
    drawList();
  }

  function draw() {
    const r = s.round;
    const iAmQueen = r && player && r.queen === myName;
    const dealt = r && player && (r.players || []).includes(myName);
    hold.hidden = !(s.phase !== 'revealed' && s.secret && r && s.secret.round === r.number && !iAmQueen);
    queenBox.hidden = !(iAmQueen && s.phase === 'choosing');
    status.textContent = !r ? 'The first round is being dealt…'
      : s.phase === 'choosing' && !iAmQueen ? `Queen ${r.queen} is choosing an order…` : '';
    if (r && player && !dealt && s.phase !== 'revealed') status.textContent = 'You are not dealt into this round.';
  }

  function handle(m) {
    switch (m.type) {
      case 'game':
        head.textContent = `Players: ${(m.players || []).join(', ')}`;
        break;
      case 'round':
        if (!s.round || s.round.number !== m.number) {
          s.secret = s.secret?.round === m.number ? s.secret : null;
          s.order = null;
          orderBox.hidden = true;
          revealBox.hidden = true;
        }
        s.round = m;
        s.phase = m.chooseMs != null ? 'choosing' : s.phase === 'wait' ? 'order' : s.phase;
        head.textContent = `Round ${m.number} · Queen ${m.queen} · ${m.players.length} players`;
        if (m.chooseMs != null) {
          timer.start(m.chooseMs, m.queen === myName ? 'Your time to choose: ' : 'The Queen chooses: ');
          if (ctx.paused) timer.pause();
        }
        if (player && m.queen === myName && s.phase === 'choosing') {
          ctx.vibrate([80, 60, 80]);
          loadCommands();
        }
        break;
      case 'secret':
        s.secret = m;
        break;
      case 'order': {
        s.order = m;
        s.phase = 'order';
        const mine = s.secret && (m.targets || []).includes(s.secret.number);
        fill(orderBox, el('p', { text: `Queen ${m.queen} orders:` }), el('p', { class: 'order-text', text: m.text }),
          mine ? el('p', { class: 'good big', text: 'That is you! Do it when the numbers are revealed.' }) : null);
        orderBox.hidden = false;
        if (mine) ctx.vibrate([60, 40, 60, 40, 60]);
        timer.start(m.revealInMs, 'Reveal in ');
        if (ctx.paused) timer.pause();
        break;
      }
      case 'revealed': {
        s.phase = 'revealed';
        const targets = new Set(m.targets || []);
        fill(revealBox, el('h2', { text: 'Who holds which number' }),
          el('ul', { class: 'players' }, Object.entries(m.numbers || {}).map(([name, n]) => el('li',
            { class: targets.has(name) ? 'good' : null },
            el('span', { text: `No. ${n}` }),
            el('span', { text: `${name}${name === myName ? ' (you)' : ''}${targets.has(name) ? ' — called!' : ''}` })))),
          el('p', { class: 'muted secret', text: `Fair deal: commitment ${m.commitment.slice(0, 16)}…, salt ${m.salt.slice(0, 8)}…` }));
        revealBox.hidden = false;
        if (m.nextInMs != null) timer.start(m.nextInMs, 'Next round in ');
        else {
          timer.stop();
          status.textContent = 'The host deals the next round.';
        }
        break;
      }
      case 'notice':
        return true;
      case 'paused':
        timer.pause();
        return true;
      case 'resumed':
        if (m.remainingMs != null) timer.start(m.remainingMs);
        return true;
      case 'ended':
        s.phase = 'revealed';
        timer.stop();
        queenBox.hidden = true;
        hold.hidden = true;
        status.textContent = m.reason || 'The game is over.';
        return true;
      default:
        return false;
    }
    draw();
    return true;
  }
  draw();
  return { root, handle, dispose: () => timer.stop() };
}

export default { name: 'queen', title: "The Queen's game", create };
