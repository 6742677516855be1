// Clock sync and press stamping (PROTOCOL.md §9). Pure: the caller passes the browser's clock readings in.
// The client clock is `performance.timeOrigin + performance.now()` in whole ms: monotonic, and the same
// timebase as an event's `timeStamp`, so a press is stamped when the finger went down, not when it was sent.

const clientMs = (origin, t) => Math.round(origin + t);

/** Keeps the offset (client − host, null before anything was learnt) and turns host times into client times. */
export class Clock {
  /** `now()`: high-resolution ms since `origin` (`performance.now`, `performance.timeOrigin`). */
  constructor(origin = 0, now = () => 0) {
    this.origin = origin;
    this.nowFn = now;
    this.offset = null;
    this.uncertainty = null; // the host's ± for `offset`, when it told
    this.rtt = null;
    this.bestUpper = null;
  }

  now() {
    return clientMs(this.origin, this.nowFn());
  }

  stamp(timeStamp) {
    return clientMs(this.origin, timeStamp);
  }

  /** The reply to a host `sync` probe received at `receivedAt`; learns the host's offset, else a bound of its own. */
  answer(probe, receivedAt) {
    const c1 = this.stamp(receivedAt);
    const c2 = Math.max(c1, this.now());
    if (typeof probe.offset === 'number') {
      this.offset = probe.offset;
      this.uncertainty = typeof probe.uncertainty === 'number' ? probe.uncertainty : null;
      this.rtt = typeof probe.rtt === 'number' ? probe.rtt : null;
    } else if (typeof probe.h === 'number') {
      // offset ≤ c1 − h (the probe took no time): the tightest bound is the estimate until the host tells its own.
      const upper = c1 - probe.h;
      if (this.bestUpper == null || upper < this.bestUpper) this.bestUpper = upper;
      this.offset = this.bestUpper;
    }
    return { type: 'sync', n: probe.n, h: probe.h, c1, c2 };
  }

  /** Learns a rough offset from a `welcome`'s or `pong`'s `hostTime` received at `receivedAt`. */
  seeHostTime(hostTime, receivedAt) {
    if (typeof hostTime !== 'number') return;
    const upper = this.stamp(receivedAt) - hostTime;
    if (this.offset == null || (this.uncertainty == null && (this.bestUpper == null || upper < this.bestUpper))) {
      this.bestUpper = upper;
      this.offset = upper;
    }
  }

  toClient(hostMs) {
    return hostMs == null || this.offset == null ? null : hostMs + this.offset;
  }

  toHost(client) {
    return client == null || this.offset == null ? null : client - this.offset;
  }

  hostNow() {
    return this.toHost(this.now());
  }
}

/** Let Me Fly's meter in permille at host time `press` (§6.6); a press before the opening counts from it. */
export function flyPower(press, sweepStart, periodMs) {
  // The host's integer triangle wave (Rules/Fly/FlyPhysics.powerPermille), exactly.
  const p = Math.trunc(periodMs);
  const d = Math.trunc(press - sweepStart);
  if (p <= 0 || d <= 0) return 0;
  const phase = d % p;
  const distance = Math.min(phase, p - phase);
  return Math.floor((distance * 2000 + Math.floor(p / 2)) / p);
}
