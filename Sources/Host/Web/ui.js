// DOM helpers: text goes in only as text (textContent / text nodes), attributes only from an allow-list.

// The SVG namespace from the `<svg>` each page holds (so no page asset writes an address).
const svgNamespace = () => document.querySelector?.('svg').namespaceURI;
const ATTRS = new Set([
  'id', 'class', 'type', 'role', 'for', 'name', 'placeholder', 'autocomplete', 'autocapitalize', 'inputmode',
  'maxlength', 'enterkeyhint', 'spellcheck', 'lang', 'title', 'tabindex', 'hidden', 'disabled', 'aria-label',
  'aria-live', 'aria-hidden', 'aria-pressed', 'aria-valuenow', 'aria-valuemin', 'aria-valuemax', 'aria-expanded',
  'viewBox', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points',
  'fill', 'stroke', 'stroke-width', 'stroke-linecap', 'text-anchor', 'dominant-baseline', 'font-size', 'focusable',
  'transform', 'textLength', 'lengthAdjust', 'alt',
]);
const BOOLEAN_PROPS = new Set(['disabled', 'hidden']);

/**
 * Makes an element (`svg:rect` for SVG). `props`: `text`, `value`, `on` ({event: handler}), `data` (data-*), any
 * allow-listed attribute (others throw). Children: nodes, strings (as text), arrays; null/false skipped.
 */
export function el(tag, props = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const node = svg ? document.createElementNS(svgNamespace(), tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === 'text') node.textContent = String(v);
    else if (k === 'value') node.value = String(v);
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === 'data') for (const [dk, dv] of Object.entries(v)) node.setAttribute(`data-${safeData(dk)}`, String(dv));
    else if (k === 'src') node.setAttribute('src', samePath(v));
    else if (ATTRS.has(k)) node.setAttribute(k, v === true && BOOLEAN_PROPS.has(k) ? '' : String(v));
    else throw new Error(`attribute not allowed: ${k}`);
  }
  append(node, children);
  return node;
}

/** A `src` may only be a path on this host (`/join.svg`), never a text from a message. */
function samePath(v) {
  if (!/^\/[A-Za-z0-9._\/-]*$/.test(String(v)) || String(v).startsWith('//')) throw new Error(`src not allowed: ${v}`);
  return String(v);
}

function safeData(k) {
  if (!/^[a-z][a-z0-9-]*$/.test(k)) throw new Error(`data attribute not allowed: ${k}`);
  return k;
}

export function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    node.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** Shows the screen `<section data-screen=id>` inside `root` and hides the others; focuses its heading. */
export function screen(root, id) {
  for (const s of root.querySelectorAll(':scope > [data-screen]')) s.hidden = s.dataset.screen !== id;
  const shown = root.querySelector(`:scope > [data-screen="${id}"]`);
  if (shown && !shown.contains(document.activeElement)) focusHeading(shown);
  return shown;
}

/** Moves the focus to the first heading in `node` (for screen readers), without scrolling. */
export function focusHeading(node) {
  const h = node.querySelector('h1, h2');
  h?.setAttribute('tabindex', '-1');
  h?.focus({ preventScroll: true });
}

/** "1:05" for ms, rounded up. */
export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function ordinal(n) {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] || 'th'}`;
}

/** A countdown shown in `node` (`start(ms, label)`, `pause()`, `stop()`), ticking every 250 ms. */
export function countdown(node, label = '', onTick = null) {
  let end = null;
  let left = null;
  let timer = null;
  const draw = () => {
    const ms = end != null ? Math.max(0, end - performance.now()) : left;
    node.textContent = ms == null ? '' : `${label}${mmss(ms)}`;
    node.classList.toggle('low', ms != null && ms < 5500);
    if (onTick) onTick(ms);
    if (ms === 0) stopTimer();
  };
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  return {
    start(ms, newLabel) {
      if (newLabel != null) label = newLabel;
      stopTimer();
      if (ms == null) {
        end = null;
        left = null;
        draw();
        return;
      }
      end = performance.now() + ms;
      left = ms;
      timer = setInterval(draw, 250);
      draw();
    },
    pause() {
      if (end != null) left = Math.max(0, end - performance.now());
      end = null;
      stopTimer();
      draw();
    },
    stop() {
      end = null;
      left = null;
      stopTimer();
      node.textContent = '';
    },
    get left() {
      return end != null ? Math.max(0, end - performance.now()) : left;
    },
  };
}

/** A standings list ({team|player, score, rank}); `label(r)` the name shown (default the key's value). */
export function standings(ranking, mine, fmt = (r) => `${r.score}`, key = null, label = null) {
  return el('ol', { class: 'ranking' },
    (ranking || []).map((r) => {
      const who = key ? r[key] : r.team ?? r.player;
      return el('li', { class: who === mine ? 'mine' : null },
        el('span', { class: 'rank', text: r.rank ?? '' }),
        el('span', { class: 'who', text: label ? label(r) : who }),
        el('span', { class: 'score', text: fmt(r) }));
    }));
}

/** Final scores as a podium (the first three on steps, read in rank order), the rest below as `standings`. */
export function podium(ranking, mine, fmt = (r) => `${r.score}`, key = null) {
  const rows = ranking || [];
  const who = (r) => (key ? r[key] : r.team ?? r.player);
  const top = rows.slice(0, 3);
  return el('div', { class: 'podium-box' },
    el('ol', { class: 'podium', 'aria-label': 'Podium' }, top.map((r, i) => el('li', {
      class: `p${i + 1}${who(r) === mine ? ' mine' : ''}` },
    el('span', { class: 'who', text: who(r) }),
    el('span', { class: 'score', text: fmt(r) }),
    el('span', { class: 'step', text: r.rank ?? i + 1 })))),
    rows.length > 3 ? standings(rows.slice(3), mine, fmt, key) : null);
}

/** A `type=button` button. */
export const button = (text, click, props = {}) => el('button', { type: 'button', text, on: { click }, ...props });

export const wsUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

/** Calls `act(stamp(event))` once per press: at the finger's pointerdown, else (keyboard) at the click. */
export function onPress(node, stamp, act) {
  let pointer = false;
  node.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    pointer = true;
    act(stamp(e));
  });
  node.addEventListener('click', (e) => {
    if (!pointer) act(stamp(e));
    pointer = false;
  });
}

/**
 * What a mode's view starts with: `player` (false on a board), their `team` and `name`, the `head` line, the
 * `clockLine` and its `timer`, the `status` line.
 */
export function parts(ctx, label = '') {
  const player = ctx.me?.role === 'player';
  const clockLine = el('p', { class: 'clock' });
  return { el, player, team: player ? ctx.me.team : null, name: player ? ctx.me.name : null, clockLine,
    head: el('p', { class: 'muted' }), timer: countdown(clockLine, label),
    status: el('p', { class: 'status-line', 'aria-live': 'polite' }) };
}

/**
 * A form of one text field (`props` for the input) and a submit button: `act(text, input)` gets the field's
 * trimmed text when it is sent with some.
 */
export function textForm(id, label, submit, props, act) {
  const input = el('input', { id, autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', maxlength: 200,
    enterkeyhint: 'send', ...props });
  const send = (e) => {
    e.preventDefault();
    if (input.value.trim()) act(input.value.trim(), input);
  };
  const form = el('form', { class: 'stack', on: { submit: send } }, el('label', { for: id, text: label }), input,
    el('button', { type: 'submit', class: 'wide', text: submit }));
  return { form, input };
}
