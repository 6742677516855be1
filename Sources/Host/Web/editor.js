// The board editor (/edit.html, issue #26): word tiles on the grid, paths dragged from tile to tile, the start, and
// a save over the WebSocket (PROTOCOL.md §8.5 `boardEditor`); the tiles and paths the host names as wrong turn red.
// The pure helpers are exported for node; the page starts only in a browser.
import { el, fill, wsUrl } from './ui.js';

export const U = 60; // a grid cell's side in SVG units

/** The grid cell under a point of `rect` (the grid's DOMRect), or null when outside. */
export function cellAt(px, py, rect, cols, rows) {
  const x = Math.floor(((px - rect.left) / rect.width) * cols);
  const y = Math.floor(((py - rect.top) / rect.height) * rows);
  return x >= 0 && y >= 0 && x < cols && y < rows ? { x, y } : null;
}

/** `to` moved onto `from`'s row or column, whichever is nearer: a path is drawn straight while dragging. */
export function snap(from, to) {
  return Math.abs(to.x - from.x) >= Math.abs(to.y - from.y) ? { x: to.x, y: from.y } : { x: from.x, y: to.y };
}

/** The paths with the one between tiles `a` and `b` added, or taken away when it was there (lower id first). */
export function togglePath(paths, a, b) {
  const p = [Math.min(a, b), Math.max(a, b)];
  const kept = paths.filter((q) => q[0] !== p[0] || q[1] !== p[1]);
  return kept.length < paths.length ? kept : [...paths, p];
}

export function nextID(tiles) {
  return tiles.reduce((m, t) => Math.max(m, t.id), 0) + 1;
}

/** The `board` of a `save` request (PROTOCOL.md §8.5). */
export function boardObject(s) {
  return {
    name: s.name.trim(), list: s.list, level: s.level,
    tiles: s.tiles.map((t) => ({ id: t.id, word: t.word, x: t.x, y: t.y, start: !!t.start })),
    paths: s.paths.map((p) => [p[0], p[1]]),
  };
}

function start() {
  const $ = (id) => document.getElementById(id);
  const s = { name: '', list: '', level: 1, tiles: [], paths: [] };
  Object.assign(s, { chosen: null, selected: null, bad: null, saved: null });
  let key = '';
  let lists = [];
  let cols = 12;
  let rows = 8;
  let ws = null;
  let nextRequest = 1;
  const waiting = new Map();
  const svg = $('grid');

  function connect() {
    if (ws?.readyState <= 1) return Promise.resolve();
    return new Promise((resolve, reject) => {
      ws = new WebSocket(wsUrl());
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error('The host cannot be reached. Is it running?'));
      ws.onclose = () => {
        for (const w of waiting.values()) w({ type: 'error', message: 'The connection closed. Try again.' });
        waiting.clear();
      };
      ws.onmessage = (e) => {
        let m;
        try { m = JSON.parse(e.data); } catch { return; }
        const w = waiting.get(m.re);
        if (w) { waiting.delete(m.re); w(m); }
      };
    });
  }

  async function ask(action, fields) {
    await connect();
    if (ws.readyState !== 1) await new Promise((r) => ws.addEventListener('open', r, { once: true }));
    const id = nextRequest++;
    ws.send(JSON.stringify({ type: 'boardEditor', action, key, ...fields, id }));
    return new Promise((resolve) => waiting.set(id, resolve));
  }

  function say(text, kind) {
    const node = $('say');
    node.textContent = text;
    node.className = kind || '';
  }

  $('open-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    key = $('code').value.trim();
    $('open-error').textContent = '';
    let m;
    try { m = await ask('open', {}); } catch (err) { m = { type: 'error', message: err.message }; }
    if (m.type !== 'content') { $('open-error').textContent = m.message || 'That did not work.'; return; }
    lists = m.item.lists;
    [cols, rows] = m.item.grid;
    fill($('list'), lists.map((l) => el('option', { value: l.id, text: l.name })));
    $('open').hidden = true;
    $('editor').hidden = false;
    chooseList();
  });

  function chooseList() {
    const list = lists.find((l) => l.id === $('list').value) || lists[0];
    if (!list) return;
    s.list = list.id;
    fill($('level'), list.levels.map((l) => el('option', { value: l.level, text: `Level ${l.level}` })));
    chooseLevel();
  }

  function chooseLevel() {
    const list = lists.find((l) => l.id === s.list);
    s.level = Number($('level').value) || 1;
    const level = list.levels.find((l) => l.level === s.level) || list.levels[0];
    s.chosen = null;
    fill($('words'), level.words.map((w) => el('button', {
      type: 'button', class: 'word', 'aria-pressed': 'false', data: { word: w }, text: w,
      on: { pointerdown: (e) => grab(e, { word: w }), click: () => choose(w) },
    })));
    draw();
  }
  $('list').addEventListener('change', chooseList);
  $('level').addEventListener('change', chooseLevel);
  $('name').addEventListener('input', () => { s.name = $('name').value; });

  function choose(word) {
    s.chosen = s.chosen === word ? null : word;
    for (const b of $('words').children) b.setAttribute('aria-pressed', String(b.dataset.word === s.chosen));
    say(s.chosen ? `Now tap a square for “${s.chosen}”.` : '');
  }

  const tileAt = (c) => c && s.tiles.find((t) => t.x === c.x && t.y === c.y);
  const changed = () => { s.bad = null; draw(); };

  function place(word, c) {
    if (!c || tileAt(c)) return;
    s.tiles.push({ id: nextID(s.tiles), word, x: c.x, y: c.y, start: s.tiles.length === 0 });
    say(`“${word}” is on the board. Drag from one tile to another to draw a path.`);
    changed();
  }

  // Dragging: a word from the list onto a square places a tile; from a tile onto another tile draws (or takes
  // away) a path; from a tile onto an empty square moves it. A tap on a tile selects it.
  let drag = null;
  function grab(e, what) {
    drag = { ...what, moved: false, x0: e.clientX, y0: e.clientY, id: e.pointerId };
    if (e.target.setPointerCapture) e.target.setPointerCapture(e.pointerId);
  }
  const cellOf = (e) => cellAt(e.clientX, e.clientY, svg.getBoundingClientRect(), cols, rows);

  svg.addEventListener('pointerdown', (e) => {
    const c = cellOf(e);
    const t = tileAt(c);
    if (t) { e.preventDefault(); grab(e, { tile: t }); } else if (c && s.chosen) place(s.chosen, c);
  });
  document.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) > 8) drag.moved = true;
    if (drag.tile && drag.moved) {
      const c = cellOf(e);
      drag.to = c ? snap(drag.tile, c) : null;
      draw();
    }
  });
  document.addEventListener('pointerup', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    const c = cellOf(e);
    if (d.word) {
      if (d.moved && c) place(d.word, c);
      return;
    }
    if (!d.moved) { s.selected = s.selected === d.tile.id ? null : d.tile.id; return draw(); }
    const other = tileAt(c);
    if (other && other.id !== d.tile.id) {
      s.paths = togglePath(s.paths, d.tile.id, other.id);
    } else if (c && !other) {
      d.tile.x = c.x;
      d.tile.y = c.y;
    }
    changed();
  });
  document.addEventListener('pointercancel', () => { drag = null; draw(); });

  $('start').addEventListener('click', () => {
    if (s.selected == null) return say('Tap a tile first, then Start.');
    for (const t of s.tiles) t.start = t.id === s.selected;
    changed();
  });
  $('remove').addEventListener('click', () => {
    if (s.selected == null) return say('Tap a tile first, then Take away.');
    s.tiles = s.tiles.filter((t) => t.id !== s.selected);
    s.paths = s.paths.filter((p) => p[0] !== s.selected && p[1] !== s.selected);
    s.selected = null;
    changed();
  });

  $('save').addEventListener('click', async () => {
    say('Checking your board…');
    let m;
    try {
      m = await ask('save', { board: boardObject(s), ...(s.saved ? { replace: s.saved } : {}) });
    } catch (err) {
      m = { type: 'error', message: err.message };
    }
    if (m.type === 'ok') {
      s.saved = m.created;
      s.bad = null;
      say(m.message, 'good');
    } else {
      s.bad = { tiles: m.tiles || [], paths: (m.paths || []).map((p) => `${p[0]}-${p[1]}`) };
      say(m.message || 'That did not work.', 'error');
    }
    draw();
  });

  function draw() {
    const mid = (v) => v * U + U / 2;
    const bad = s.bad || { tiles: [], paths: [] };
    const byID = new Map(s.tiles.map((t) => [t.id, t]));
    const cells = [];
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
      cells.push(el('svg:rect', { class: 'cell', x: x * U, y: y * U, width: U, height: U }));
    }
    const lines = s.paths.map((p) => {
      const [a, b] = [byID.get(p[0]), byID.get(p[1])];
      if (!a || !b) return null;
      return el('svg:line', { class: bad.paths.includes(`${p[0]}-${p[1]}`) ? 'path bad' : 'path',
        x1: mid(a.x), y1: mid(a.y), x2: mid(b.x), y2: mid(b.y) });
    });
    if (drag?.tile && drag.to) {
      lines.push(el('svg:line', { class: 'path drawing', x1: mid(drag.tile.x), y1: mid(drag.tile.y),
        x2: mid(drag.to.x), y2: mid(drag.to.y) }));
    }
    const tiles = s.tiles.map((t) => {
      const cls = ['tile', t.start && 'start', t.id === s.selected && 'selected', bad.tiles.includes(t.id) && 'bad'];
      const long = t.word.length > 5 ? { textLength: U - 10, lengthAdjust: 'spacingAndGlyphs' } : {};
      return el('svg:g', { class: cls.filter(Boolean).join(' '), data: { tile: t.id, word: t.word } },
        el('svg:rect', { x: t.x * U + 4, y: t.y * U + 4, width: U - 8, height: U - 8, rx: 10 }),
        el('svg:text', { x: mid(t.x), y: mid(t.y), 'text-anchor': 'middle', 'dominant-baseline': 'central',
          'font-size': 17, ...long, text: t.word }),
        t.start && el('svg:text', { class: 'flag', x: t.x * U + 8, y: t.y * U + 18, 'font-size': 14, text: '▶' }));
    });
    fill(svg, cells, lines, tiles);
  }
}

if (globalThis.document) start();
