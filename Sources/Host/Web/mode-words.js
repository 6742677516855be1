// Compound words (PROTOCOL.md §6.5): the card race, team bingo and the dice board drawn in SVG.
import { fill, countdown, button, parts } from './ui.js';

const CELL = 110;

function create(ctx) {
  const { el, player, team, head } = parts(ctx);
  const s = { game: null, hand: null, card: null, locked: false, progress: {}, done: new Set(), tokens: {},
    choices: [], answering: false, bingo: null, finished: false };

  const word = el('p', { class: 'huge center', 'aria-live': 'polite' });
  const lang = () => (s.game ? ctx.speechLang(s.game.language || s.game.list) : null);
  const say = (text, audioURL) => ctx.speak(text, { lang: lang(), audioURL: audioURL || null });
  const current = () => (s.game?.exercise === 'bingo' ? s.card : s.answering ? s.hand : null);
  const sayBtn = el('button', { type: 'button', class: 'say', 'aria-label': 'Say the word again', hidden: true,
    on: { click: () => {
      const c = current();
      if (c?.word) say(c.word, c.wordAudioURL);
    } } }, el('svg:svg', { viewBox: '0 0 24 24', width: 30, height: 30, 'aria-hidden': 'true', focusable: 'false' },
    el('svg:path', { d: 'M3 9h4l5-4v14l-5-4H3z', fill: 'currentColor' }),
    el('svg:path', { d: 'M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12', fill: 'none', stroke: 'currentColor',
      'stroke-width': 2, 'stroke-linecap': 'round' })));
  const qword = el('div', { class: 'qword' }, word, player ? sayBtn : null);
  const status = el('p', { class: 'status-line center', 'aria-live': 'polite' });
  const lockLine = el('p', { class: 'clock center' });
  const lockTimer = countdown(lockLine);
  const play = el('div', {});
  const boardBox = el('div', { hidden: true });
  const progress = el('ul', { class: 'players', 'aria-label': 'Teams' });
  const root = el('div', { class: 'words' }, head, boardBox, qword, status, lockLine, play, progress);

  const pick = async (payload, text) => {
    if (!player || s.locked) return;
    s.picked = { ...payload, text, at: Date.now() };
    await ctx.send({ type: 'pick', ...payload });
  };
  const over = (ev) => {
    const r = qword.getBoundingClientRect();
    return ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
  };
  // A card follows the finger; let go on the question word to answer.
  function draggable(btn, choice, text) {
    let drag = null;
    const end = (ev, drop) => {
      if (!drag) return;
      const moved = drag.moved;
      drag = null;
      btn.classList.remove('dragging');
      btn.style.transform = '';
      qword.classList.remove('over');
      if (moved) {
        s.dragged = true;
        if (drop && over(ev)) pick({ choice }, text);
      }
    };
    btn.addEventListener('pointerdown', (ev) => {
      if (btn.disabled || (ev.pointerType === 'mouse' && ev.button !== 0)) return;
      s.dragged = false;
      drag = { x: ev.clientX, y: ev.clientY, moved: false };
      try {
        btn.setPointerCapture(ev.pointerId);
      } catch {
        /* not capturable */
      }
    });
    btn.addEventListener('pointermove', (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x;
      const dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 12) return;
      drag.moved = true;
      btn.classList.add('dragging');
      btn.style.transform = `translate(${dx}px, ${dy}px)`;
      qword.classList.toggle('over', over(ev));
    });
    btn.addEventListener('pointerup', (ev) => end(ev, true));
    btn.addEventListener('pointercancel', (ev) => end(ev, false));
    btn.addEventListener('click', () => {
      if (s.dragged) s.dragged = false;
      else pick({ choice }, text);
    });
    return btn;
  }
  const wrongNow = (w) => w && Date.now() - w.at < 500;

  function drawCards() {
    const h = s.hand;
    if (!h || s.finished) return fill(play);
    const w = s.wrongCard;
    fill(play, el('div', { class: 'words4', role: 'group', 'aria-label': 'Cards: drag one onto the word, or tap it' },
      h.options.map((o, i) => {
        if (w?.choice === i + 1) {
          return el('button', { type: 'button', disabled: true, class: `wrongcard${wrongNow(w) ? ' shake' : ''}`,
            'aria-label': `${w.text}: wrong`, text: w.text });
        }
        if (o == null) {
          return el('button', { type: 'button', disabled: true, 'aria-label': 'card taken away', text: '' });
        }
        const b = el('button', { type: 'button', text: o, disabled: !player || s.locked });
        return player ? draggable(b, i + 1, o) : b;
      })));
  }

  function drawBingo() {
    const c = s.card;
    if (!c) return fill(play);
    const line = new Set(s.bingo || []);
    fill(play, el('div', { class: 'grid16', role: 'grid', 'aria-label': 'Bingo card' }, c.cells.map((cell, i) => {
      const name = `${'abcd'[i >> 2]}${(i % 4) + 1}`;
      const w = s.wrongCell;
      if (w?.cell === i) {
        return el('span', { class: `wrongcell${wrongNow(w) ? ' shake' : ''}`,
          'aria-label': `${name}: ${w.text}, wrong`, text: w.text });
      }
      if (!cell) return el('span', { 'aria-label': `${name} empty`, text: '' });
      return el('button', { type: 'button', class: `${cell.marked ? 'marked' : ''} ${line.has(i) ? 'line' : ''}`.trim() || null,
        text: cell.text, 'aria-label': `${name}: ${cell.text}${cell.marked ? ', marked' : ''}`,
        disabled: !player || cell.marked || s.locked || !c.word,
        on: { click: () => pick({ cell: i }, cell.text) } });
    })));
  }

  function drawBoard() {
    const b = s.game?.board;
    boardBox.hidden = !b;
    if (!b) return;
    const tiles = new Map(b.tiles.map((t) => [t.id, t]));
    const w = (Math.max(...b.tiles.map((t) => t.x)) + 1) * CELL;
    const h = (Math.max(...b.tiles.map((t) => t.y)) + 1) * CELL;
    const cx = (t) => t.x * CELL + CELL / 2;
    const cy = (t) => t.y * CELL + CELL / 2;
    const mine = s.tokens[team];
    const label = (x, y, size, text, props) =>
      el('svg:text', { x, y, 'text-anchor': 'middle', 'font-size': size, text, ...props });
    const svg = el('svg:svg', { class: 'boardsvg', viewBox: `0 0 ${w} ${h}`, role: 'img',
      'aria-label': `Board ${b.name}${mine ? `: your token is on ${tiles.get(mine)?.word}` : ''}` },
    b.paths.map(([a, z]) => {
      const ta = tiles.get(a);
      const tz = tiles.get(z);
      return ta && tz ? el('svg:line', { class: 'path', x1: cx(ta), y1: cy(ta), x2: cx(tz), y2: cy(tz) }) : null;
    }),
    b.tiles.map((t) => el('svg:g', {},
      el('svg:rect', { class: `tile${s.done.has(t.id) ? ' done' : ''}${mine === t.id ? ' here' : ''}`,
        x: t.x * CELL + 8, y: t.y * CELL + 22, width: CELL - 16, height: CELL - 44, rx: 12 }),
      // a long word is squeezed into its tile rather than shrunk below a readable size
      label(cx(t), cy(t) + 9, 26, t.word, [...t.word].length > 6
        ? { class: s.done.has(t.id) ? 'done' : null, textLength: CELL - 24, lengthAdjust: 'spacingAndGlyphs' }
        : { class: s.done.has(t.id) ? 'done' : null }),
      t.start ? label(cx(t), t.y * CELL + 16, 16, 'start') : null)),
    Object.entries(s.tokens).map(([tm, id]) => {
      const t = tiles.get(id);
      if (!t) return null;
      const here = Object.values(s.tokens).filter((v) => v === id).length;
      const slot = Object.entries(s.tokens).filter(([, v]) => v === id).findIndex(([n]) => n === tm);
      const dx = (slot - (here - 1) / 2) * 30;
      return el('svg:g', { class: tm === team ? 'token mine' : 'token' },
        el('svg:title', { text: tm }),
        el('svg:circle', { cx: cx(t) + dx, cy: t.y * CELL + CELL - 8, r: 14 }),
        label(cx(t) + dx, t.y * CELL + CELL - 2, 16, tm === team ? '★' : [...tm][0].toUpperCase()));
    }));
    const canRoll = player && !s.answering && !s.choices.length && !s.finished;
    fill(boardBox, svg,
      player && s.choices.length ? el('div', {}, el('p', { class: 'status-line', text: 'Which way?' }),
        el('div', { class: 'chips' }, s.choices.map((c) => button(c.word,
          () => ctx.send({ type: 'move', tile: c.tile }))))) : null,
      player ? button(`Roll the die${s.rolled ? ` (last: ${s.rolled})` : ''}`, () => ctx.send({ type: 'roll' }),
        { class: 'wide', disabled: !canRoll }) : null);
  }

  function drawProgress() {
    const teams = s.game?.teams || Object.keys(s.progress);
    fill(progress, teams.map((t) => {
      const p = s.progress[t];
      return el('li', { class: t === team ? 'good' : null }, el('span', { text: `${t}${t === team ? ' (you)' : ''}` }),
        el('span', { text: p ? `${p.done}/${p.of}${p.place ? ` · ${p.place}.` : ''}` : '0' }));
    }));
  }

  function draw() {
    const ex = s.game ? s.game.exercise : null;
    if (ex === 'bingo') {
      word.textContent = s.card ? s.card.word || 'BINGO!' : '';
      drawBingo();
    } else {
      word.textContent = s.hand && s.answering ? s.hand.word : '';
      if (s.answering || ex === 'cards') drawCards();
      else fill(play);
    }
    const c = current();
    sayBtn.hidden = !c || !c.word || (!lang() && !c.wordAudioURL);
    if (!player) {
      // The projector shows the race, not one team's cards.
      word.textContent = s.lastResult || '';
      fill(play);
    }
    qword.hidden = !word.textContent;
    if (ex === 'board') drawBoard();
    drawProgress();
    status.textContent = !player ? '' : s.over ? 'The game is over.' : s.finished ? 'Your team is through!'
      : s.locked ? 'Wrong card — wait a moment.'
        : ex === 'board' && s.choices.length ? ''
          : ex === 'board' && !s.answering ? 'Roll the die!'
            : ex === 'bingo' ? 'Tap the word that makes a compound.' : 'Which card makes a compound word?';
  }

  const mineMsg = (m) => !player || m.team === team;

  function handle(m) {
    switch (m.type) {
      case 'game':
        s.game = m;
        head.textContent = `${m.listName} · level ${m.level} · ${m.exercise === 'cards' ? 'card race'
          : m.exercise === 'bingo' ? 'bingo' : `board: ${m.board ? m.board.name : ''}`}`;
        break;
      case 'hand':
        if (!mineMsg(m)) return true;
        if (!s.hand || s.hand.word !== m.word) s.wrongCard = null;
        s.hand = m;
        s.answering = true;
        break;
      case 'card':
        if (!mineMsg(m)) return true;
        s.card = m;
        break;
      case 'result':
        if (m.correct) s.lastResult = `${m.team}: ${m.compound}`;
        if (m.team === team) {
          if (m.correct) {
            ctx.notice(`${m.compound}!`);
            // spoken after the chime
            setTimeout(() => say(m.compound, m.audioURL), 550);
            if (s.game?.exercise === 'board') s.answering = false;
          } else if (s.picked) {
            // a wrong card shakes and stays greyed for the lockout; a wrong bingo cell shakes, then clears
            const p = { ...s.picked, at: Date.now() };
            if (p.cell != null) s.wrongCell = p;
            else s.wrongCard = p;
            setTimeout(() => {
              if (s.wrongCell === p) s.wrongCell = null;
              if (s.wrongCard === p && !s.locked) s.wrongCard = null;
              draw();
            }, 900);
          }
        }
        break;
      case 'lockout':
        if (m.team !== team) return true;
        s.locked = m.ms > 0;
        if (!s.locked) s.wrongCard = null;
        if (s.locked) lockTimer.start(m.ms, 'Wait ');
        else lockTimer.stop();
        if (ctx.paused) lockTimer.pause();
        break;
      case 'bingo':
        if (m.team === team) {
          s.bingo = m.cells;
          ctx.vibrate([100, 50, 100]);
        }
        ctx.notice(`BINGO for ${m.team}!`);
        break;
      case 'progress':
        s.progress[m.team] = m;
        if (m.team === team && m.place != null) s.finished = true;
        drawProgress();
        if (m.team === team) draw();
        return true;
      case 'tile':
        if (m.team === team) {
          s.done.add(m.tile);
          s.answering = false;
        }
        break;
      case 'rolled':
        if (m.team === team) s.rolled = m.value;
        break;
      case 'moved':
        s.tokens[m.team] = m.tile;
        if (m.team === team) {
          s.choices = m.choices || [];
          if (s.choices.length) ctx.vibrate(30);
        }
        break;
      case 'paused':
        lockTimer.pause();
        return true;
      case 'scoreboard':
        s.finished = true;
        s.over = true;
        s.answering = false;
        break;
      default:
        return false;
    }
    draw();
    return true;
  }
  draw();
  return { root, handle, dispose: () => lockTimer.stop() };
}

export default { name: 'words', title: 'Compound words', create };
