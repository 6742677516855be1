// Growing states (PROTOCOL.md §6.0): hold each state's whole, apply its deltas by `seq`, and ask for a resync
// on a gap. Pure: the caller sends what `apply` asks for.

// Each growing state: its delta type, where its list lives, and the key of an item.
const fixed = (delta, list, key, counted = true) =>
  ({ delta, list: () => list, key: () => key, counted: () => counted });
const SPECS = {
  lobby: { ...fixed('lobbyUpdate', 'players', 'name'), counted: (h) => !h.fields.truncated },
  teams: fixed('teamsUpdate', 'teams', 'team', false),
  buzzed: fixed('buzzedUpdate', 'entries', 'team'),
  game: {
    delta: 'gameUpdate',
    list: (h) => (h.fields.game === 'fly' ? 'players' : 'teams'),
    key: (h) => (h.fields.game === 'fly' ? 'name' : 'team'),
    counted: () => true,
  },
  lockedIn: fixed('lockedInUpdate', 'teams', 'team'),
  progress: fixed('progressUpdate', 'teams', 'team'),
  flyBoard: fixed('flyBoardUpdate', 'rows', 'player', false),
};

export const DELTA_OF = Object.fromEntries(Object.entries(SPECS).map(([whole, s]) => [s.delta, whole]));

/** True when `msg` is the whole of a growing state (of `game`, only Fly's and Words'; of `progress`, the hunt's). */
export function isWhole(msg) {
  if (!msg || !Object.hasOwn(SPECS, msg.type)) return false;
  if (msg.type === 'game') return msg.game === 'fly' || msg.game === 'words';
  if (msg.type === 'progress') return Array.isArray(msg.teams);
  return true;
}

export function isDelta(msg) {
  return !!msg && Object.hasOwn(DELTA_OF, msg.type);
}

const clone = (x) => JSON.parse(JSON.stringify(x));

export class Growing {
  constructor() {
    this.held = {}; // whole type → {seq, fields, items, waiting}
  }

  // A new connection's catch-up sends every whole again.
  reset() {
    this.held = {};
  }

  /** The state as a whole message (`{type, ...fields, <list>: items, seq}`), or null when none is held. */
  view(type) {
    const h = this.held[type];
    if (!h) return null;
    const spec = SPECS[type];
    const list = spec.list(h);
    let items = clone(h.items);
    if (type === 'game') items = items.map((it) => it[spec.key(h)]);
    const out = { type, ...clone(h.fields), [list]: items };
    if (type === 'buzzed') out.order = h.items.map((it) => it.team);
    if (h.seq != null) out.seq = h.seq;
    return out;
  }

  /**
   * Applies one message: null when it is no growing state, else `{state, whole, resync, ignored}`: `whole` the
   * state after it, `resync` the type to ask for (once per gap), `ignored` for a delta already held or while waiting.
   */
  apply(msg) {
    if (isWhole(msg)) return this.applyWhole(msg);
    if (isDelta(msg)) return this.applyDelta(msg);
    return null;
  }

  applyWhole(msg) {
    const type = msg.type;
    const fields = clone(msg);
    delete fields.type;
    delete fields.seq;
    delete fields.re;
    const probe = { fields };
    const spec = SPECS[type];
    const list = spec.list(probe);
    const key = spec.key(probe);
    let items = Array.isArray(msg[list]) ? clone(msg[list]) : [];
    delete fields[list];
    if (type === 'buzzed') delete fields.order;
    if (type === 'game') items = items.map((it) => (typeof it === 'string' ? { [key]: it } : it));
    const before = this.held[type];
    // A whole without `seq` (a lobby answering `scores`, a finished game's intro) numbers nothing: the number stays.
    const seq = msg.seq != null ? msg.seq : before ? before.seq : null;
    this.held[type] = { seq, fields, items, waiting: false };
    return { state: type, whole: this.view(type), resync: null, ignored: false };
  }

  applyDelta(msg) {
    const type = DELTA_OF[msg.type];
    const h = this.held[type];
    const ignored = { state: type, whole: null, resync: null, ignored: true };
    const gap = () => {
      if (h?.waiting) return ignored;
      if (h) h.waiting = true;
      else this.held[type] = { seq: null, fields: {}, items: [], waiting: true, empty: true };
      return { state: type, whole: null, resync: type, ignored: false };
    };
    if (!h || h.empty || h.seq == null || typeof msg.seq !== 'number') return gap();
    if (h.waiting || msg.seq <= h.seq) return ignored;
    if (msg.seq !== h.seq + 1) return gap();
    const spec = SPECS[type];
    const list = spec.list(h);
    const key = spec.key(h);
    const listed = Array.isArray(msg[list]) ? msg[list] : [];
    const removed = Array.isArray(msg.removed) ? msg.removed : [];
    let items = clone(h.items);
    // (1) the removed keys
    for (const k of removed) {
      const i = items.findIndex((it) => it[key] === k);
      if (i < 0) return gap();
      items.splice(i, 1);
    }
    // (2) every listed item with `at`
    const placed = listed.filter((it) => it?.at != null);
    for (const it of placed) items = items.filter((x) => x[key] !== it[key]);
    // (3) replace in place, or append
    for (const it of listed) {
      if (!it || it.at != null) continue;
      const i = items.findIndex((x) => x[key] === it[key]);
      if (i >= 0) items[i] = clone(it);
      else items.push(clone(it));
    }
    // (4) insert at their index, ascending
    for (const it of [...placed].sort((a, b) => a.at - b.at)) {
      if (!Number.isInteger(it.at) || it.at < 0 || it.at > items.length) return gap();
      const copy = clone(it);
      delete copy.at;
      items.splice(it.at, 0, copy);
    }
    if (typeof msg.count === 'number' && spec.counted(h) && msg.count !== items.length) return gap();
    const fields = clone(h.fields);
    for (const [k, v] of Object.entries(msg)) {
      if (k !== 'type' && k !== 'seq' && k !== list && k !== 'removed' && k !== 're') fields[k] = clone(v);
    }
    this.held[type] = { seq: msg.seq, fields, items, waiting: false };
    return { state: type, whole: this.view(type), resync: null, ignored: false };
  }
}
