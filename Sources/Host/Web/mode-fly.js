// Let Me Fly (PROTOCOL.md §6.6): phones, the power meter as the host's, throw and catch, challenges, rankings.
import { fill, standings, button, onPress, parts, focusHeading } from './ui.js';
import { flyPower } from './clock.js';

// Every achievement the host gives, as FlyAchievement names and describes them.
const ACHIEVEMENTS = [
  ['firstCatch', 'First flight', 'Catch your first phone.'],
  ['club5', '5 m club', 'Catch a throw from 5 m or higher.'],
  ['club10', '10 m club', 'Catch a throw from 10 m or higher.'],
  ['club20', '20 m club', 'Catch a throw from 20 m or higher.'],
  ['fullPower', 'Full power', 'Throw at 99 % power or more.'],
  ['perfectCatch', 'Perfect catch', 'Catch within 20 ms of the landing.'],
  ['safeHands', 'Safe hands', 'Catch cleanly three times in a row.'],
  ['onARoll', 'On a roll', 'Reach a +50 % streak bonus.'],
  ['butterfingers', 'Butterfingers', 'Drop three phones in one game.'],
  ['daredevil', 'Daredevil', 'Catch the flagship cleanly from 10 m or higher.'],
  ['challengeWon', 'Challenge accepted', 'Beat the height someone challenged you to.'],
];

function create(ctx) {
  const { el, player, name: me, head, clockLine, timer, status } = parts(ctx);
  const s = { game: null, phones: null, myPhone: null, round: null, open: false, frozen: null, mine: null,
    locked: false, best: 0, players: [] };

  const phoneBox = el('div', { class: 'card', hidden: true });
  const meterFill = el('div', { class: 'fill' });
  const meterPct = el('div', { class: 'pct', text: '0 %' });
  const meter = el('div', { class: 'meter', role: 'meter', 'aria-label': 'Power', 'aria-valuemin': 0,
    'aria-valuemax': 100, 'aria-valuenow': 0 }, meterFill, meterPct);
  const btn = el('button', { type: 'button', class: 'flybtn', text: 'THROW', disabled: true });
  const air = el('div', { class: 'meter', hidden: true, 'aria-hidden': 'true' }, el('div', { class: 'fill' }));
  const events = el('ul', { class: 'players', 'aria-live': 'polite', 'aria-label': 'What happened' });
  const rankBox = el('div', { class: 'card', hidden: true });
  const boardBox = el('div', { class: 'card', hidden: true, 'aria-label': 'Highest catches' });
  const tallyLine = el('p', { class: 'muted', hidden: true, 'aria-live': 'polite' });
  const extra = el('div', { class: 'stack' });
  // The achievements announced to this page, kept on this phone per name (earned once, ever).
  const achKey = me ? `pl:ach:${me.toLowerCase()}` : null;
  const store = (v) => (achKey ? ctx.store(achKey, v) : null);
  const earned = new Map(Object.entries(store() || {}));
  const achBox = el('section', { class: 'card', hidden: true, 'aria-label': 'Your achievements' });
  function drawAch() {
    const known = new Map(ACHIEVEMENTS.map(([id, name, description]) => [id, { name, description }]));
    for (const [id, a] of earned) if (!known.has(id)) known.set(id, a);
    fill(achBox, el('h2', { text: `Your achievements: ${earned.size} of ${known.size}` }),
      el('ul', { class: 'ach' }, [...known].map(([id, a]) => el('li', { class: earned.has(id) ? 'got' : null },
        el('b', { text: `${earned.has(id) ? '★ ' : ''}${earned.get(id)?.name || a.name}` }),
        el('span', { text: earned.get(id)?.description || a.description }),
        earned.has(id) ? el('span', { class: 'good', text: ' Earned!' }) : null))),
      button('Close', () => {
        achBox.hidden = true;
        achBtn.focus();
      }, { class: 'quiet wide' }));
  }
  const achBtn = button('★ My achievements', () => {
    drawAch();
    achBox.hidden = false;
    achBox.scrollIntoView({ block: 'start' });
    focusHeading(achBox);
  }, { class: 'secondary wide' });
  const root = el('div', { class: 'fly' }, head, clockLine, phoneBox, meter, status, player ? btn : null, air,
    tallyLine, boardBox, events, rankBox, extra, achBox);

  const hostNow = () => (s.frozen != null ? s.frozen : ctx.hostNow());
  let raf = null;
  function tick() {
    raf = null;
    if (s.round && (s.open || s.mine)) {
      const h = hostNow();
      if (h != null && s.open) {
        const p = flyPower(h, s.round.sweepStart, s.round.periodMs) / 10;
        meterFill.style.width = `${p}%`;
        meterPct.textContent = `${Math.round(p)} %`;
        meter.setAttribute('aria-valuenow', String(Math.round(p)));
      }
      if (s.mine?.landsAt && h != null) {
        const left = s.mine.landsAt - h;
        const f = Math.min(1, Math.max(0, 1 - left / s.mine.airMs));
        air.hidden = false;
        air.firstChild.style.width = `${Math.round(4 * f * (1 - f) * 100)}%`;
        status.textContent = left > 0 ? `In the air: catch in ${(left / 1000).toFixed(1)} s` : 'Catch it now!';
      }
      raf = requestAnimationFrame(tick);
    }
  }
  const run = () => {
    if (!raf) raf = requestAnimationFrame(tick);
  };

  onPress(btn, ctx.stamp, (t) => {
    if (btn.disabled) return;
    if (s.mine?.landsAt) {
      btn.disabled = true;
      s.mine.catchSent = true;
      ctx.send({ type: 'catch', t }).then((r) => {
        if (r.type === 'error' && s.mine) {
          s.mine.catchSent = false;
          btn.disabled = false;
        }
      });
      return;
    }
    btn.disabled = true;
    const h = ctx.clock.toHost(t);
    const guess = h != null && s.round ? Math.round(flyPower(h, s.round.sweepStart, s.round.periodMs) / 10) : null;
    status.textContent = guess != null ? `Thrown at about ${guess} %…` : 'Thrown…';
    ctx.send({ type: 'throw', t }).then((r) => {
      if (r.type === 'error') {
        btn.disabled = false;
        draw();
      }
    });
  });

  function drawPhones() {
    phoneBox.hidden = !player || !s.phones;
    if (phoneBox.hidden) return;
    const label = (p) => `${p.name} ×${p.multiplier} ±${p.catchWindowMs} ms`;
    const mine = s.myPhone || s.phones.default;
    // Once thrown, the phone is kept for the game (a pick is refused): it is shown, not offered.
    if (s.locked) {
      const kept = s.phones.list.find((p) => p.id === mine);
      return fill(phoneBox, el('p', { text: `Your phone: ${kept ? label(kept) : mine}` }));
    }
    fill(phoneBox, el('h3', { text: 'Your phone (before your first throw)' }),
      el('div', { class: 'chips', role: 'group', 'aria-label': 'Phones' }, s.phones.list.map((p) => button(label(p),
        () => ctx.send({ type: 'phone', choice: p.id }),
        { class: 'secondary', 'aria-pressed': String(mine === p.id) }))));
  }

  function draw() {
    drawPhones();
    meter.hidden = !s.open || !!s.mine;
    if (!s.mine || !s.mine.landsAt) air.hidden = true;
    if (s.mine?.landsAt) {
      btn.textContent = 'CATCH';
      btn.disabled = !!s.mine.catchSent;
    } else {
      btn.textContent = 'THROW';
      btn.disabled = !s.open || !!s.mine || ctx.paused;
      if (!s.round) status.textContent = 'The first round is coming…';
      else if (s.open && !s.mine) status.textContent = player ? 'Tap THROW when the meter is high!' : 'Throwing…';
    }
    run();
  }

  function line(text, cls) {
    events.insertBefore(el('li', { class: cls || null }, el('span', { text })), events.firstChild);
    while (events.children.length > 6) events.lastChild.remove();
  }

  const metres = (r) => `${r.heightM.toFixed(2)} m`;
  const quiet = { class: 'quiet' };
  const BEST = { game: 'This game’s best', tonight: 'Tonight’s best', allTime: 'All-time best' };
  function drawExtra() {
    if (!player) return;
    const others = s.players.filter((p) => p !== me);
    fill(extra,
      s.best > 0 && others.length ? [el('h3', { text: `Challenge someone to beat ${s.best.toFixed(2)} m` }),
        el('div', { class: 'chips' }, others.map((p) => button(p, () => ctx.send({ type: 'challenge', player: p }),
          quiet)))] : null,
      achBtn,
      el('div', { class: 'row' }, ['tonight', 'allTime'].map((scope) => button(BEST[scope],
        () => ctx.send({ type: 'top', scope }), quiet))));
  }

  function handle(m) {
    switch (m.type) {
      case 'game':
        s.game = m;
        s.players = m.players || [];
        s.hall = m.hall != null ? m.hall : s.hall;
        head.textContent = s.hall ? `${m.rounds} rounds · ${s.hall} players · your team: ${s.players.length}`
          : `${m.rounds} rounds · ${s.players.length} players`;
        drawExtra();
        break;
      case 'phones':
        s.phones = m;
        break;
      case 'picked':
        if (m.player === me) {
          s.myPhone = m.phone;
          if (m.locked) s.locked = true; // a catch-up after the first throw: the phone is kept (phone_locked)
        }
        break;
      case 'round':
        s.round = m;
        s.open = m.remainingMs != null && m.remainingMs > 0;
        s.mine = null;
        s.frozen = null;
        rankBox.hidden = true;
        head.textContent = `Round ${m.number} of ${m.of}`;
        timer.start(m.remainingMs, 'Throw within ');
        if (ctx.paused) {
          timer.pause();
          s.frozen = ctx.hostNow();
        }
        break;
      case 'thrown':
        line(`${m.player} threw at ${m.power} % (${metres(m)})`);
        if (m.player === me) {
          s.locked = true;
          s.myPhone = m.phone;
          s.mine = { ...m };
          status.textContent = `Up it goes: ${metres(m)}!`;
          ctx.vibrate(40);
        }
        break;
      case 'caught':
        line(`${m.player}: ${m.quality}${m.offsetMs != null ? ` (${m.offsetMs > 0 ? '+' : ''}${m.offsetMs} ms)` : ''}`
          + ` · +${m.points}`, m.quality === 'dropped' ? 'bad' : 'good');
        if (m.player === me) {
          s.mine = { done: true };
          if (m.quality !== 'dropped') s.best = Math.max(s.best, m.heightM);
          status.textContent = m.quality === 'clean' ? `Clean catch! +${m.points}`
            : m.quality === 'fumbled' ? `Fumbled — half points: +${m.points}` : 'Dropped! No points.';
          drawExtra();
        }
        break;
      case 'timeUp':
        s.open = false;
        timer.stop();
        if (!s.mine && player) status.textContent = 'Time is up for throwing.';
        break;
      case 'challenged':
        line(`${m.from} challenges ${m.to} to beat ${metres(m)}`);
        if (m.to === me) ctx.notice(`${m.from} dares you to beat ${metres(m)}!`);
        return true;
      case 'challengeOver':
        line(`${m.to} ${m.won ? 'beat' : 'missed'} ${m.from}'s ${m.targetM.toFixed(2)} m`);
        return true;
      case 'achievement':
        line(`${m.player} earned “${m.name}”`, 'good');
        if (m.player === me) {
          ctx.notice(`Achievement: ${m.name} — ${m.description}`);
          earned.set(m.id, { name: m.name, description: m.description });
          store(Object.fromEntries(earned));
          if (!achBox.hidden) drawAch();
        }
        return true;
      case 'roundOver':
        s.open = false;
        fill(rankBox, el('h3',
          { text: `After round ${m.number}${m.count ? ` · top and your team of ${m.count}` : ''}` }),
          standings(m.ranking, me, (r) => `${r.score} · ${r.bestM.toFixed(1)} m`, 'player'));
        rankBox.hidden = false;
        timer.start(m.nextInMs, 'Next round in ');
        status.textContent = m.last ? 'That was the last round.' : '';
        break;
      case 'gameUpdate':
        return true;
      case 'flyBoard':
        // Whole (deltas are applied before this page sees them): the rank is the position.
        fill(boardBox, el('h3', { text: 'Highest catches' }), (m.rows || []).length ? standings(
          m.rows.map((r, i) => ({ ...r, rank: i + 1 })), me, metres, 'player', (r) => `${r.player} (${r.team})`)
          : el('p', { class: 'muted', text: 'No catch yet.' }));
        boardBox.hidden = false;
        return true;
      case 'flyTally':
        s.hall = m.players;
        tallyLine.textContent = `${m.thrown}/${m.players} thrown · ${m.inAir} up · ${m.clean} clean · `
          + `${m.fumbled} fumbled · ${m.dropped} dropped${m.missed ? ` · ${m.missed} no throw` : ''}`;
        tallyLine.hidden = false;
        return true;
      case 'scores':
        if (m.ranking?.length) {
          fill(rankBox, el('h3', { text: 'Standings' }), standings(m.ranking, me, undefined, 'player'));
          rankBox.hidden = false;
        }
        return true;
      case 'leaderboard':
        fill(rankBox, el('h3', { text: BEST[m.scope] || BEST.allTime }),
          standings(m.players, me, metres, 'player', (r) => `${r.player} (${r.phone})`));
        rankBox.hidden = false;
        return true;
      case 'paused':
        s.frozen = ctx.hostNow();
        timer.pause();
        break;
      case 'resumed':
        s.frozen = null;
        if (m.sweepStart != null && s.round) s.round = { ...s.round, sweepStart: m.sweepStart };
        if (m.remainingMs != null) timer.start(m.remainingMs);
        else if (m.nextInMs != null) timer.start(m.nextInMs);
        break;
      case 'scoreboard':
        s.open = false;
        s.mine = null;
        timer.stop();
        status.textContent = 'The game is over.';
        draw();
        btn.hidden = true;
        return true;
      default:
        return false;
    }
    draw();
    return true;
  }
  draw();
  return { root, handle, dispose: () => {
    timer.stop();
    if (raf) cancelAnimationFrame(raf);
  } };
}

export default { name: 'fly', title: 'Let Me Fly', create };
