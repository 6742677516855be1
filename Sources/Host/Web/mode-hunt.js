// The station hunt (PROTOCOL.md §6.8): the clue, the check-in, the station's task, hints, every team's progress.
import { fill, mmss, podium, button, parts, textForm } from './ui.js';

function create(ctx) {
  const { el, player, team, head, clockLine, timer } = parts(ctx, 'Hunt time left: ');
  const s = { game: null, clue: null, task: null, hints: [], penalties: 0, finished: false, over: false };

  const main = el('div', { 'aria-live': 'polite' });
  const progress = el('ul', { class: 'players', 'aria-label': 'Every team' });
  const root = el('div', { class: 'hunt' }, head, clockLine, main, el('h3', { text: 'Teams' }), progress);

  function hintButton() {
    const t = s.task;
    if (!t || !player) return null;
    const seen = s.hints.length;
    if (seen >= t.hints) return t.hints ? el('p', { class: 'muted', text: 'No more hints here.' }) : null;
    const cost = (t.hintCosts || [])[seen] ?? 0;
    const n = t.hints - seen;
    let armed = false;
    const b = button(`${n}${seen ? ' more' : ''} hint${n > 1 ? 's' : ''}${seen ? '' : ' available'} (+${cost} s)`,
      async () => {
        if (!armed) {
          armed = true;
          b.textContent = `Tap again: a hint adds ${cost} s to your time`;
          return;
        }
        b.disabled = true;
        await ctx.send({ type: 'hint' });
        b.disabled = false;
      }, { class: 'secondary wide' });
    return b;
  }

  function draw() {
    if (!player) {
      fill(main, s.over ? null : el('p', { class: 'status-line', text: 'Teams are hunting…' }));
      return;
    }
    if (s.finished) {
      fill(main, el('p', { class: 'big good', text: 'Your team found every station!' }));
      return;
    }
    if (s.task) {
      const t = s.task;
      const hintList = s.hints.length ? el('ol', {}, s.hints.map((h) => el('li', { text: h.text }))) : null;
      if (t.words) {
        fill(main, el('h2', { text: `Station ${t.number} of ${t.of}: which is the odd one out?` }),
          el('div', { class: 'words4', role: 'group', 'aria-label': 'The four words' }, t.words.map((w, i) =>
            button(w, () => ctx.send({ type: 'pick', choice: i + 1 })))),
          hintList, hintButton());
      } else {
        const { form } = textForm('hanswer', `Your answer (${t.letters} letters and digits)`, 'Send answer', {},
          (text) => ctx.send({ type: 'answer', text }));
        fill(main, el('h2', { text: `Station ${t.number} of ${t.of}` }), el('p', { class: 'big', text: t.text }),
          form, hintList, hintButton());
      }
      return;
    }
    if (s.clue) {
      const { form } = textForm('hcode', 'Found it? Type the code', 'Check in', { autocapitalize: 'characters',
        maxlength: 32, enterkeyhint: 'go', placeholder: 'The code posted there' }, async (code, input) => {
        const r = await ctx.send({ type: 'checkin', code });
        if (r.type !== 'error') input.value = '';
      });
      fill(main, el('h2', { text: `Clue ${s.clue.station} of ${s.clue.of}` }),
        el('p', { class: 'big', text: s.clue.text }), form);
      return;
    }
    fill(main, el('p', { class: 'status-line', text: 'Your first clue is coming…' }));
  }

  // A station sheet's QR code opened this page (`#checkin=CODE`): the code goes as if typed.
  async function checkInFromLink() {
    const code = player ? ctx.takeCheckIn() : null;
    if (!code) return;
    const r = await ctx.send({ type: 'checkin', code });
    window.partylineCheckIn = { code, reply: r.type === 'error' ? r.code : r.type };
  }

  // A hall's copy (§6.0.1) has the first rows and yours, and `total`: say how many it leaves out.
  function drawProgress(rows, total) {
    const more = (total || 0) - rows.length;
    fill(progress, rows.map((r) => el('li', { class: r.team === team ? 'good' : null },
      el('span', { text: `${r.team}${r.team === team ? ' (you)' : ''}` }),
      el('span', { text: `${r.station}/${r.of}${r.penaltiesMs ? ` · +${mmss(r.penaltiesMs)}` : ''}${r.finished
        ? ` · done ${mmss(r.elapsedMs + r.penaltiesMs)}` : ''}` }))),
    more > 0 ? el('li', { class: 'muted', text: `… and ${more} more team${more === 1 ? '' : 's'}` }) : null);
  }

  function handle(m) {
    switch (m.type) {
      case 'game':
        s.game = m;
        head.textContent = `${m.name} · ${m.stations} stations · a wrong answer costs ${m.penaltySeconds} s`;
        if (m.remainingMs != null) timer.start(m.remainingMs);
        if (ctx.paused) timer.pause();
        break;
      case 'clue':
        s.clue = m;
        s.task = null;
        s.hints = [];
        draw();
        checkInFromLink();
        return true;
      case 'puzzle':
      case 'question':
        if (!s.task) ctx.moment('Found it!', `Station ${m.number} of ${m.of}`);
        s.task = m;
        s.hints = [];
        ctx.vibrate(40);
        break;
      case 'hint':
        s.hints.push(m);
        s.penalties = m.penaltiesMs;
        break;
      case 'wrong':
        ctx.notice(`Not right: +${Math.round(m.penaltyMs / 1000)} s. Try again.`, 'error');
        return true;
      case 'solved':
        ctx.moment(m.last ? 'Every station found!' : 'Solved!', `${m.name}${m.success ? ` — ${m.success}` : ''}`,
          m.last ? 'done' : '');
        ctx.vibrate(m.last ? [100, 60, 100, 60, 200] : [60, 40, 60]);
        s.task = null;
        if (m.last) s.finished = true;
        break;
      case 'progress':
        for (const r of m.teams || []) {
          if (!player && r.finished && s.seen && s.seen[r.team] === false) {
            ctx.moment(`${r.team} found every station!`, `in ${mmss(r.elapsedMs + r.penaltiesMs)}`, 'done');
          }
        }
        s.seen = Object.fromEntries((m.teams || []).map((r) => [r.team, !!r.finished]));
        drawProgress(m.teams || [], m.total);
        return true;
      case 'paused':
        timer.pause();
        return true;
      case 'resumed':
        if (m.remainingMs != null) timer.start(m.remainingMs);
        return true;
      case 'scoreboard':
        s.over = true;
        timer.stop();
        fill(main, (m.hallOfFame || []).length ? [el('h3', { text: 'Hall of fame' }),
          podium(m.hallOfFame.map((h) => ({ ...h, rank: h.place })), team, (h) => `${mmss(h.totalMs)} · ${h.date}`,
            'team')] : null);
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

export default { name: 'hunt', title: 'Station hunt', create };
