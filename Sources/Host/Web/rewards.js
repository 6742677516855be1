// The player's character, picked once and grown by right answers across games (PROTOCOL.md §6.1 `character`),
// drawn as inline SVG with DOM calls; its styles are in rewards.css.
import { el, fill, button as uiButton } from './ui.js';

export const NAMES = { fox: 'Fox', owl: 'Owl', frog: 'Frog', bear: 'Bear', robot: 'Robot' };
const LOOK = { fox: ['#e8772e', '#fff1e0'], owl: ['#8a5a3c', '#f1dcc0'], frog: ['#3fa34d', '#dff5c8'],
  bear: ['#9c6b43', '#ecd2ad'], robot: ['#7890a8', '#dfe7ef'] };
const D = '#222';
const s = (tag, a, ...c) => el(`svg:${tag}`, a, ...c);
const poly = (points, fill) => s('polygon', { points, fill });
const dot = (cx, cy, r, fill) => s('circle', { cx, cy, r, fill });
const oval = (cx, cy, rx, ry, fill) => s('ellipse', { cx, cy, rx, ry, fill });
const STAR = '0,-10 3,-3 10,0 3,3 0,10 -3,3 -10,0 -3,-3';

/** The character `id` at `stage` (1–4) as an SVG element: bigger each stage, then a scarf, a hat, a crown. */
export function draw(id, stage = 1, size = 96) {
  const [c, l] = LOOK[id] || LOOK.fox;
  const parts = [oval(50, 84, 22, 15, c), oval(50, 87, 13, 10, l), ...({
    fox: [poly('26,38 30,12 46,26', c), poly('74,38 70,12 54,26', c)],
    owl: [poly('28,32 30,14 42,26', c), poly('72,32 70,14 58,26', c)],
    frog: [dot(37, 28, 10, c), dot(63, 28, 10, c), dot(37, 28, 6, '#fff'), dot(63, 28, 6, '#fff')],
    bear: [dot(30, 28, 9, c), dot(70, 28, 9, c), dot(30, 28, 4, l), dot(70, 28, 4, l)],
    robot: [s('line', { x1: 50, y1: 26, x2: 50, y2: 12, stroke: D, 'stroke-width': 3 }), dot(50, 11, 5, '#f33')],
  }[id] || []),
  id === 'robot' ? s('rect', { x: 24, y: 26, width: 52, height: 44, rx: 10, fill: c }) : dot(50, 48, 26, c),
  ...(id === 'owl' ? [dot(40, 46, 9, '#fff'), dot(60, 46, 9, '#fff')] : []),
  dot(40, id === 'owl' ? 46 : 44, 4, D), dot(60, id === 'owl' ? 46 : 44, 4, D), ...({
    fox: [oval(50, 58, 14, 9, l), poly('46,54 54,54 50,59', D)],
    owl: [poly('46,53 54,53 50,61', '#f0a020')],
    frog: [s('path', { d: 'M38 58 Q50 66 62 58', fill: 'none', stroke: D, 'stroke-width': 3 })],
    bear: [oval(50, 57, 10, 7, l), dot(50, 54, 3, D)],
    robot: [s('rect', { x: 40, y: 56, width: 20, height: 5, fill: D })],
  }[id] || []), dot(33, 56, 4, '#f7a1a1'), dot(67, 56, 4, '#f7a1a1')];
  if (stage >= 2) {
    parts.push(s('path', { d: 'M30 68Q50 78 70 68V75Q50 85 30 75Z', fill: '#d33' }),
      s('rect', { x: 58, y: 72, width: 8, height: 16, rx: 3, fill: '#d33' }));
  }
  if (stage === 3) parts.push(poly('36,26 64,26 50,0', '#6a4bc4'), dot(50, 2, 4, '#ffd54a'));
  if (stage >= 4) {
    parts.push(poly('32,28 68,28 72,8 61,18 50,4 39,18 28,8', '#f5c518'), dot(50, 20, 3, '#d33'),
      s('g', { transform: 'translate(10 30)' }, poly(STAR, '#f5c518')),
      s('g', { transform: 'translate(88 60)' }, poly(STAR, '#f5c518')));
  }
  const k = [0.72, 0.82, 0.92, 1][Math.min(Math.max(stage, 1), 4) - 1];
  return el('svg:svg', { viewBox: '0 0 100 100', width: size, height: size, role: 'img',
    'aria-label': `${NAMES[id] || id}, stage ${stage}` },
  el('svg:g', { transform: `translate(${50 - 50 * k} ${100 - 100 * k}) scale(${k})` }, parts));
}

/** One phone's rewards: `handle(msg)`, the lobby's `card()`, `ask()` after each welcome, and a header badge. */
export function createRewards({ send, play, toast }) {
  let state = null; // the last `character` message
  let choosing = false;
  const cards = new Set();
  const sheet = el('div', { class: 'rw-sheet card', hidden: true, role: 'dialog', 'aria-label': 'My character' });
  const badge = el('button', { type: 'button', class: 'quiet rw-badge', hidden: true, 'aria-label': 'My character',
    on: { click: () => (sheet.hidden = !sheet.hidden) } });
  document.querySelector('.bar')?.insertBefore(badge, document.getElementById('mute'));
  document.body.appendChild(sheet);
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '/rewards.css';
  document.head.appendChild(css);

  const button = (text, click) => uiButton(text, click, { class: 'quiet' });
  function render(box) {
    if (box !== sheet) box.hidden = !state;
    if (!state) return fill(box);
    const close = box === sheet ? button('Close', () => (sheet.hidden = true)) : null;
    if (!state.character || choosing) {
      return fill(box, el('h2', { text: 'Pick your character' }),
        el('p', { class: 'muted', text: 'It grows with every right answer, game after game.' }),
        el('div', { class: 'rw-choices' }, state.choices.filter((id) => NAMES[id]).map((id) =>
          el('button', { type: 'button', class: 'quiet', data: { character: id },
            on: { click: () => send({ type: 'character', character: id }) } },
          draw(id, 1, 56), NAMES[id]))), close);
    }
    const left = state.next == null ? 0 : state.next - state.rightAnswers;
    const bar = el('div', { class: 'rw-bar' }, el('div'));
    bar.firstChild.style.width = `${left ? Math.round((100 * state.rightAnswers) / state.next) : 100}%`;
    return fill(box, el('div', { class: 'rw-me' }, draw(state.character, state.stage, 112),
      el('div', {}, el('h2', { text: `Your ${NAMES[state.character] || state.character}` }),
        el('p', { text: `Stage ${state.stage} of ${state.stages}${state.upgrade ? ` — ${state.upgrade}` : ''}` }),
        bar, el('p', { class: 'muted', text: left ? `${left} more right answer${left === 1 ? '' : 's'} to grow.`
          : 'Fully grown!' }))),
    state.canChange ? button('Pick another', () => {
      choosing = true;
      redraw();
    }) : null, close);
  }
  function redraw() {
    for (const c of cards) if (c.isConnected) render(c); else cards.delete(c);
    render(sheet);
    fill(badge, state?.character ? draw(state.character, state.stage, 36) : '★');
    badge.hidden = !state;
  }
  return {
    ask() {
      state = null; // another name may have joined on this phone: nothing shows until the host answers
      sheet.hidden = true;
      redraw();
      send({ type: 'character' }, { quiet: true });
    },
    handle(msg) {
      if (msg.type !== 'character') return false;
      state = msg;
      if (msg.picked) choosing = false;
      redraw();
      if (msg.grew) {
        const name = NAMES[msg.character] || msg.character;
        const box = el('div', { class: 'rw-grow', 'aria-hidden': 'true' }, draw(msg.character, msg.stage - 1, 160),
          draw(msg.character, msg.stage, 160), el('p', { text: `Your ${name} grew!` }));
        document.body.appendChild(box);
        setTimeout(() => box.remove(), 3200);
        toast(`Your ${name} grew: stage ${msg.stage} of ${msg.stages}${msg.upgrade ? `, with ${msg.upgrade}` : ''}!`);
        play('achievement', msg);
      }
      return true;
    },
    card() {
      for (const c of cards) if (!c.isConnected) cards.delete(c); // the lobby is drawn afresh at every change
      const box = el('div', { class: 'card rw-card' });
      cards.add(box);
      render(box);
      return box;
    },
  };
}
