// Shaky Words (PROTOCOL.md §6.2): the letters, BUZZ, the answer on your turn, a shake (its cost asked first).
import { fill, standings, onPress, parts, textForm } from './ui.js';

function letterTiles(el, letters, fixed) {
  let shownFixed = 0;
  return [...(letters || '')].map((ch) => {
    if (!/[\p{L}\p{N}]/u.test(ch)) return el('span', { class: 'gap', text: ch === ' ' ? '' : ch });
    const isFixed = shownFixed < fixed;
    shownFixed++;
    return el('span', { class: isFixed ? 'fixed' : null, text: ch });
  });
}

function create(ctx) {
  const { el, player, team, head, clockLine, timer, status } = parts(ctx);
  const s = { q: null, order: [], turn: null, out: new Set(), buzzed: false, phase: 'wait', answered: false };

  const text = el('p', { class: 'big' });
  const letters = el('div', { class: 'letters', role: 'img' });
  const buzz = el('button', { class: 'buzz', type: 'button', text: 'BUZZ', 'aria-label': 'Buzz' });
  const { form: answerForm, input: answerInput } = textForm('answer', 'Your team\'s answer', 'Send answer',
    { placeholder: 'Your answer' }, async (value) => {
      const r = await ctx.send({ type: 'answer', text: value });
      if (r.type !== 'error') {
        s.answered = true;
        answerInput.value = '';
        answerInput.blur();
        status.textContent = 'Answer sent…';
        answerForm.hidden = true;
      }
    });
  answerForm.hidden = true;
  const shake = el('button', { type: 'button', class: 'secondary wide', hidden: true });
  const queue = el('ol', { class: 'queue', 'aria-label': 'Buzz order' });
  const reveal = el('div', { class: 'card', hidden: true, 'aria-live': 'polite' });
  const root = el('div', { class: 'shaky' }, head, clockLine, text, letters, status, reveal,
    player ? [buzz, answerForm, shake] : null, queue);

  onPress(buzz, ctx.stamp, (t) => {
    if (buzz.disabled) return;
    buzz.disabled = true;
    s.buzzed = true;
    ctx.vibrate(30);
    ctx.sound('buzz');
    status.textContent = 'Buzzed! Waiting for the order…';
    ctx.send({ type: 'buzz', t }).then((r) => {
      if (r.type === 'error' && r.code !== 'already_buzzed') {
        s.buzzed = false;
        draw();
      }
    });
  });
  let shakeArmed = false;
  shake.addEventListener('click', async () => {
    if (!shakeArmed) {
      shakeArmed = true;
      shake.textContent = `Tap again to shake: −${s.q.shakeCost} points`;
      setTimeout(() => {
        shakeArmed = false;
        drawShake();
      }, 4000);
      return;
    }
    shakeArmed = false;
    shake.disabled = true;
    await ctx.send({ type: 'shake' });
    shake.disabled = false;
    drawShake();
  });

  function drawShake() {
    const open = s.phase === 'question' && s.q?.shakeCost != null && !s.out.has(team) && !s.answered;
    shake.hidden = !open;
    if (open && !shakeArmed) shake.textContent = `Shake the letters (costs ${s.q.shakeCost} points)`;
  }

  function draw() {
    fill(queue, s.order.map((t) => el('li', { class: t === s.turn ? 'on' : s.out.has(t) ? 'done' : null,
      text: `${t}${t === team ? ' (you)' : ''}` })));
    drawShake();
    if (s.phase !== 'question') {
      buzz.disabled = true;
      buzz.hidden = true;
      answerForm.hidden = true;
      return;
    }
    const myTurn = player && s.turn === team;
    const isOut = s.out.has(team);
    buzz.disabled = !player || s.buzzed || isOut || s.closed;
    buzz.hidden = myTurn;
    answerForm.hidden = !myTurn || s.answered;
    status.textContent = myTurn && !s.answered ? 'Your turn! Type the answer.'
      : s.judging ? `${s.judging} answered: the quizmaster is judging…`
        : s.turn ? `${s.turn} is answering…`
          : isOut ? 'Your team is out for this question.'
            : s.buzzed ? 'Buzzed! Waiting for your turn.'
              : s.closed ? 'Buzzing has closed.'
                : player ? 'Know it? Buzz!' : 'Buzz when you know it!';
  }

  function handle(m) {
    switch (m.type) {
      case 'game':
        head.textContent = `${m.questions} questions · teams: ${(m.teams || []).join(', ')}`;
        status.textContent = 'The first question is coming…';
        return true;
      case 'question': {
        const fresh = !s.q || s.q.number !== m.number;
        s.q = m;
        if (fresh) {
          Object.assign(s, { order: [], turn: null, out: new Set(), buzzed: false, answered: false, judging: null });
          reveal.hidden = true;
        }
        s.phase = 'question';
        s.closed = m.remainingMs == null;
        head.textContent = `Question ${m.number} of ${m.of} · ${m.difficulty} · ${m.points} points`;
        text.textContent = m.text;
        fill(letters, letterTiles(el, m.letters, m.fixed));
        letters.setAttribute('aria-label', `Letters: ${[...m.letters].join(' ')}`);
        timer.start(m.remainingMs, 'Buzzing closes in ');
        if (ctx.paused) timer.pause();
        break;
      }
      case 'hint':
        if (!s.q) return true;
        s.q = { ...s.q, letters: m.letters, fixed: m.fixed, points: m.points, shakeCost: m.shakeCost };
        fill(letters, letterTiles(el, m.letters, m.fixed));
        letters.classList.remove('shake');
        void letters.offsetWidth;
        letters.classList.add('shake');
        head.textContent = `Question ${s.q.number} of ${s.q.of} · ${s.q.difficulty} · ${m.points} points`;
        break;
      case 'buzzed':
        s.order = m.order || [];
        if (team && s.order.includes(team)) s.buzzed = true;
        if (m.remainingMs == null) s.closed = true;
        if (!s.turn && m.remainingMs != null) timer.start(m.remainingMs, 'Buzzing closes in ');
        break;
      case 'turn':
        s.turn = m.team;
        s.judging = null;
        timer.start(m.remainingMs, m.team === team ? 'Your time: ' : `${m.team} answers: `);
        if (ctx.paused) timer.pause();
        draw();
        if (m.team === team) {
          ctx.vibrate([80, 60, 80]);
          answerInput.focus();
        }
        return true;
      case 'judging':
        s.judging = m.team;
        timer.pause();
        break;
      case 'result':
        if (!m.correct) s.out.add(m.team);
        if (m.team === s.turn) s.turn = null;
        if (m.team === team) s.answered = true;
        ctx.notice(m.correct ? `${m.team}: right! +${m.points}` : `${m.team}: ${m.timedOut ? 'time is up' : 'wrong'}`);
        break;
      case 'reveal':
        s.phase = 'reveal';
        s.turn = null;
        fill(reveal,
          el('p', { text: 'The answer:' }),
          el('p', { class: 'reveal-answer', text: m.answer }),
          el('p', { text: m.scorer ? `${m.scorer} scored ${m.points}.` : 'Nobody scored.' }),
          standings(m.scores, team),
          el('p', { class: 'muted', text: m.last ? 'That was the last question.'
            : m.nextInMs == null ? 'The quizmaster starts the next question.' : 'Next question soon…' }));
        reveal.hidden = false;
        status.textContent = '';
        timer.start(m.nextInMs, m.last ? 'Final scores in ' : 'Next question in ');
        break;
      case 'overruled':
        ctx.notice(`The quizmaster changed the verdict for ${m.team}: ${m.points >= 0 ? '+' : ''}${m.points}.`);
        return true;
      case 'paused':
        timer.pause();
        return true;
      case 'resumed': {
        const ms = s.phase === 'reveal' ? m.nextInMs : s.turn ? m.answerRemainingMs : m.buzzRemainingMs;
        if (ms != null) timer.start(ms);
        return true;
      }
      case 'scoreboard':
        s.phase = 'over';
        timer.stop();
        status.textContent = 'The game is over.';
        buzz.hidden = true;
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

export default { name: 'shaky', title: 'Shaky Words', create };
