// Clock sync and press stamping (PROTOCOL.md §9). Pure: the caller passes the browser's clock readings in.
// The client clock is `performance.timeOrigin + performance.now()` in whole ms: monotonic, and the same
// timebase as an event's `timeStamp`, so a press is stamped when the finger went down, not when it was sent.

/** Whole-ms client clock reading for a high-resolution time `t` (ms since `origin`). */
export function clientMs(origin, t) {
  return Math.round(origin + t);
}

/** Keeps the offset (client − host) and turns host deadlines into client times and back. */
export class Clock {
  /** `now()` returns high-resolution ms since `origin` (in a browser: `performance.now`, `performance.timeOrigin`). */
  constructor(origin = 0, now = () => 0) {
    this.origin = origin;
    this.nowFn = now;
    /** client − host in ms, or null before anything was learnt */
    this.offset = null;
    /** the host's ± for `offset`, when it told */
    this.uncertainty = null;
    this.rtt = null;
    this.bestUpper = null;
  }

  /** The client clock now (whole ms). */
  now() {
    return clientMs(this.origin, this.nowFn());
  }

  /** The `t` of a press whose event had `timeStamp` (same timebase as `now()`). */
  stamp(timeStamp) {
    return clientMs(this.origin, timeStamp);
  }

  /**
   * Answers a host `sync` probe received at high-res time `receivedAt` (the message event's timeStamp); returns the
   * reply to send at once. Learns the host's measured offset when the probe carries one, else a bound of its own.
   */
  answer(probe, receivedAt) {
    const c1 = this.stamp(receivedAt);
    const c2 = Math.max(c1, this.now());
    if (typeof probe.offset === 'number') {
      this.offset = probe.offset;
      this.uncertainty = typeof probe.uncertainty === 'number' ? probe.uncertainty : null;
      this.rtt = typeof probe.rtt === 'number' ? probe.rtt : null;
    } else if (typeof probe.h === 'number') {
      // offset ≤ c1 − h + 1 (the probe took no time); the tightest such bound is our estimate until the host
      // tells its own.
      const upper = c1 - probe.h;
      if (this.bestUpper == null || upper < this.bestUpper) this.bestUpper = upper;
      this.offset = this.bestUpper;
    }
    return { type: 'sync', n: probe.n, h: probe.h, c1, c2 };
  }

  /** Learns a rough offset from a `welcome`'s or `pong`'s `hostTime` received at high-res `receivedAt`. */
  seeHostTime(hostTime, receivedAt) {
    if (typeof hostTime !== 'number') return;
    const upper = this.stamp(receivedAt) - hostTime;
    if (this.offset == null || (this.uncertainty == null && (this.bestUpper == null || upper < this.bestUpper))) {
      this.bestUpper = upper;
      this.offset = upper;
    }
  }

  /** Host ms → client ms (null when unknown). */
  toClient(hostMs) {
    if (hostMs == null || this.offset == null) return null;
    return hostMs + this.offset;
  }

  /** Client ms → host ms (null when unknown). */
  toHost(client) {
    if (client == null || this.offset == null) return null;
    return client - this.offset;
  }

  /** The host clock now, as well as we know it. */
  hostNow() {
    return this.toHost(this.now());
  }
}

/**
 * Let Me Fly's meter (PROTOCOL.md §6.6): the power in permille at host time `press` for a sweep that started at
 * `sweepStart` with period `periodMs`; a press before the opening counts from the opening.
 */
export function flyPower(press, sweepStart, periodMs) {
  // The host's integer triangle wave (Rules/Fly/FlyPhysics.powerPermille), exactly.
  const p = Math.trunc(periodMs);
  const d = Math.trunc(press - sweepStart);
  if (p <= 0 || d <= 0) return 0;
  const phase = d % p;
  const distance = Math.min(phase, p - phase);
  return Math.floor((distance * 2000 + Math.floor(p / 2)) / p);
}

/** Let Me Fly's flight for a power in percent and a top speed (m/s): `{airMs, heightM}` as §6.6 rounds them. */
export function flyFlight(powerPercent, topSpeed = 20) {
  const g = 9.81;
  const v = (powerPercent / 100) * topSpeed;
  const airMs = Math.round(((2 * v) / g) * 1000);
  const half = airMs / 2000;
  const heightM = Math.round(0.5 * g * half * half * 1000) / 1000;
  return { airMs, heightM };
}

/** Time left on a clock: from a host `deadline` when synced, else from `remainingMs` received at client `got`. */
export function remaining(clock, deadline, remainingMs, got, nowClient) {
  const c = clock && deadline != null ? clock.toClient(deadline) : null;
  if (c != null && clock.uncertainty != null) return Math.max(0, c - nowClient);
  if (remainingMs != null) return Math.max(0, got + remainingMs - nowClient);
  if (c != null) return Math.max(0, c - nowClient);
  return null;
}
