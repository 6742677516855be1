// Odd One Out (PROTOCOL.md §6.7): four words; the team's first pick is final; who locked in; the reveal.
import { fill, standings, ordinal, parts } from './ui.js';

/** ` … and 980 more teams` when a hall's table (§6.0.1) shows `shown` of `m.total` rows. */
function moreTeams(m, shown) {
  const more = (m.total || 0) - shown;
  return more > 0 ? ` … and ${more} more team${more === 1 ? '' : 's'}` : '';
}

function create(ctx) {
  const { el, player, team, head, clockLine, timer, status } = parts(ctx);
  const s = { puzzle: null, picked: null, open: false, pressT: null };

  const ask = el('p', { class: 'big', text: 'Which word is the odd one out?' });
  const grid = el('div', { class: 'words4', role: 'group', 'aria-label': 'The four words' });
  const locked = el('p', { class: 'muted', 'aria-live': 'polite' });
  const reveal = el('div', { class: 'card', hidden: true, 'aria-live': 'polite' });
  const root = el('div', { class: 'outsider' }, head, clockLine, ask, grid, status, locked, reveal);

  const buttons = [];
  function drawWords() {
    buttons.length = 0;
    fill(grid, (s.puzzle ? s.puzzle.words : []).map((w, i) => {
      const b = el('button', { type: 'button', text: w, 'aria-pressed': 'false' });
      // The finger's press time, kept at pointerdown, goes with the click that completes the tap.
      b.addEventListener('pointerdown', (e) => (s.pressT = ctx.stamp(e)));
      b.addEventListener('click', (e) => pick(i + 1, s.pressT ?? ctx.stamp(e)));
      buttons.push(b);
      return b;
    }));
    draw();
  }

  async function pick(choice, t) {
    s.pressT = null;
    if (!player || !s.open || s.picked) return;
    s.picked = { choice, word: s.puzzle.words[choice - 1], pending: true };
    draw();
    ctx.vibrate(20);
    const r = await ctx.send({ type: 'pick', choice, t });
    if (r.type === 'error' && s.picked?.pending) s.picked = null;
    draw();
  }

  function draw() {
    buttons.forEach((b, i) => {
      const mine = s.picked?.choice === i + 1;
      b.classList.toggle('picked', !!mine);
      b.setAttribute('aria-pressed', String(!!mine));
      b.disabled = !player || !s.open || (!!s.picked && !mine);
    });
    status.textContent = !s.puzzle ? 'The first round is coming…' : !s.open ? ''
      : !player ? 'Teams are picking…'
        : s.picked ? `Your team picked “${s.picked.word}” — final.`
          : 'Tap the odd one out. Your team’s first tap counts.';
  }

  function handle(m) {
    switch (m.type) {
      case 'game':
        head.textContent = `${m.rounds} rounds of ${m.roundSeconds} s · teams: ${(m.teams || []).join(', ')}`
          + moreTeams(m, (m.teams || []).length);
        break;
      case 'puzzle': {
        const fresh = !s.puzzle || s.puzzle.number !== m.number;
        s.puzzle = m;
        if (fresh) {
          s.picked = null;
          locked.textContent = '';
          reveal.hidden = true;
        }
        s.open = m.remainingMs != null;
        head.textContent = `Round ${m.number} of ${m.of} · ${m.category} · ${m.difficulty} · ${m.points} points`;
        timer.start(m.remainingMs, 'Time left: ');
        if (ctx.paused) timer.pause();
        drawWords();
        return true;
      }
      case 'picked':
        s.picked = { choice: m.choice, word: m.word };
        break;
      case 'lockedIn':
        locked.textContent = (m.teams || []).length
          ? `Locked in: ${m.teams.map((t) => `${t.team} (${ordinal(t.position)})`).join(' · ')}`
          : '';
        return true;
      case 'reveal': {
        s.open = false;
        draw();
        buttons.forEach((b, i) => {
          const w = s.puzzle?.words[i];
          if (w === m.outsider) b.classList.add('right');
          else if (s.picked?.choice === i + 1) b.classList.add('wrongpick');
        });
        const mine = (m.results || []).find((r) => r.team === team);
        fill(reveal,
          el('p', { text: 'The odd one out:' }),
          el('p', { class: 'reveal-answer', text: m.outsider }),
          el('p', { text: `The other three: ${m.link}.` }),
          mine ? el('p', { class: mine.correct ? 'good' : 'bad',
            text: mine.correct ? `Right! +${mine.points}` : mine.choice == null ? 'Your team did not pick.' : 'Not this time.' })
            : null,
          el('ul', { class: 'players' }, (m.results || []).map((r) => el('li', {},
            el('span', { text: `${r.team}: ${r.word ?? '—'}` }),
            el('span', { class: r.correct ? 'good' : 'muted', text: r.correct ? `+${r.points}` : '0' })))),
          m.total > (m.results || []).length ? el('p', { class: 'muted', text: moreTeams(m, m.results.length) }) : null,
          el('h3', { text: 'Scores' }),
          standings(m.scores, team),
          m.total > (m.scores || []).length ? el('p', { class: 'muted', text: moreTeams(m, m.scores.length) }) : null,
          el('p', { class: 'muted', text: m.last ? 'That was the last round.'
            : m.nextInMs == null ? 'The quizmaster starts the next round.' : '' }));
        reveal.hidden = false;
        timer.start(m.nextInMs, m.last ? 'Final scores in ' : 'Next round in ');
        return true;
      }
      case 'paused':
        timer.pause();
        return true;
      case 'resumed': {
        const ms = s.open ? m.remainingMs : m.nextInMs;
        if (ms != null) timer.start(ms);
        return true;
      }
      case 'scoreboard':
        s.open = false;
        timer.stop();
        break;
      default:
        return false;
    }
    draw();
    return true;
  }
  draw();
  return { root, handle, dispose: () => timer.stop() };
}

export default { name: 'outsider', title: 'Odd One Out', create };
