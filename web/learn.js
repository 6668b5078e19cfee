// Learn from your mistakes: after a review, each marked move of the person's (both sides' in
// a game they played both) is put back to them, the position before it on the board. The
// review's best move is accepted, the move played is not; any other move is judged by the
// server at the review's budget (`POST .../review/try`): one that earns no mark (its drop in
// winning chances below the review's inaccuracy threshold) is accepted. A move that is not
// may be followed by another try, as lichess allows, until the person asks for the solution
// (`#learn-solution`: the review's engine move, an arrow and in words). `#learn-next` moves on
// to the next; the last one counts the moves found at the first try and those found on
// another. The moves tried are not added to the game.

import * as API from './api.js';
import { ui, $, actions } from './state.js';
import { moveName } from './graph.js';
import { markedPlies, sideOf, MARK_NAME, reviewed, REVIEW_BUDGET } from './report.js';
import { whiteText as fmtMen } from './score.js';

// The side whose mistakes are put back: the person's, or null (both) when they played both.
function learner() {
  const h = ui.st && ui.st.human;
  return h === 'white' || h === 'black' ? h : null;
}

function exercises() {
  const rv = ui.review;
  return rv && !rv.running && ui.st ? markedPlies(learner(), null) : [];
}

async function startLearn() {
  const queue = exercises();
  if (!queue.length) return;
  // The server judges a move on the line it holds: the main line.
  if (ui.tree.cur != null && !(await actions.hold(ui.tree.main, null))) return;
  ui.learn = { queue, i: 0, found: 0, retried: 0 };
  put();
}

// Puts exercise `i` on the board: the position before the marked move.
function put() {
  const L = ui.learn;
  const ply = L.queue[L.i], r = reviewed(ply);
  if (!r) return stop();
  Object.assign(L, { phase: 'ask', arrow: null, tries: 0 });
  const who = sideOf(ply) === 'white' ? 'White' : 'Black';
  L.text = `${L.i + 1} of ${L.queue.length}: ${moveName(ply, r.move)} was a${r.mark === '?!' ? 'n' : ''} ${MARK_NAME[r.mark].toLowerCase()}. Find a better move for ${who}.`;
  actions.goto(ui.tree.main.slice(0, ply - 1));
  actions.render();
}

// The board's move `m`, if it is an answer to the exercise shown: true when taken here (it is
// not played into the game).
export function takeMove(m) {
  const L = ui.learn;
  if (!L || (L.phase !== 'ask' && L.phase !== 'retry') || ui.tree.cur != null || ui.shown !== L.queue[L.i] - 1) return false;
  check(m.move);
  return true;
}

// The move played is the mistake and the review's best move the answer; any other move is
// judged by the server at the review's budget. The engine's move shown is the review's.
async function check(move) {
  const L = ui.learn, ply = L.queue[L.i], r = reviewed(ply);
  const was = L.phase;
  L.tries += 1;
  Object.assign(L, { phase: 'checking', text: `Checking ${move}…` });
  actions.render();
  let a = null;
  if (move !== r.move && move !== r.best) {
    try {
      a = await API.post(ui.st.id, 'review/try', { ply: ply - 1, move, ...(ui.review.budget || REVIEW_BUDGET) });
    } catch (e) {
      if (ui.learn === L) { L.tries -= 1; Object.assign(L, { phase: was, text: e.message }); }
      actions.render();
      return;
    }
  }
  if (ui.learn !== L) return;
  const name = moveName(ply, move);
  const engine = `${r.best} (${fmtMen(r.best_eval)})`;
  if (move === r.best || (a && a.accepted)) {
    if (L.tries === 1) L.found += 1; else L.retried += 1;
    const also = move === r.best ? ' It is the engine\'s move.' : ` The engine's move: ${engine}.`;
    const when = L.tries === 1 ? '' : ` (try ${L.tries})`;
    Object.assign(L, { phase: 'right', arrow: move, text: `Good move${when}: ${name} (${fmtMen(a ? a.eval : r.best_eval)}).${also}` });
  } else {
    const why = a ? `${name}${a.mark} (${fmtMen(a.eval)}) is no better` : `${name} is the move played`;
    Object.assign(L, { phase: 'retry', arrow: null, text: `${why}. Try another move, or see the solution.` });
  }
  actions.render();
}

// The solution of the exercise shown: the review's engine move.
function solution() {
  const L = ui.learn;
  if (!L || L.phase !== 'retry') return;
  const r = reviewed(L.queue[L.i]);
  if (!r) return;
  Object.assign(L, { phase: 'wrong', arrow: r.best, text: `The engine's move: ${r.best} (${fmtMen(r.best_eval)}).` });
  actions.render();
}

function next() {
  const L = ui.learn;
  if (!L) return;
  L.i += 1;
  if (L.i < L.queue.length) return put();
  const n = L.queue.length;
  const more = L.retried ? `, and ${L.retried} more on another try` : '';
  Object.assign(L, { phase: 'done', arrow: null, text: `Done: you found a good move in ${L.found} of ${n} at the first try${more}.` });
  actions.render();
}

function stop() { ui.learn = null; actions.render(); }

// The arrow of the exercise's answer on its position (the move accepted, or the engine's).
export function learnArrow(ply) {
  const L = ui.learn;
  return L && L.arrow && L.phase !== 'ask' && L.phase !== 'retry' && ply === L.queue[L.i] - 1 ? L.arrow : null;
}

export function renderLearn() {
  const L = ui.learn, btn = $('learn'), panel = $('learn-panel');
  const n = L ? 0 : exercises().length;
  btn.hidden = !!L || !n;
  btn.textContent = `Learn from your mistakes (${n})`;
  panel.hidden = !L;
  if (!L) return;
  panel.dataset.phase = L.phase;
  panel.dataset.ply = L.queue[Math.min(L.i, L.queue.length - 1)];
  panel.dataset.tries = String(L.tries || 0);
  panel.dataset.found = String(L.found);
  panel.dataset.retried = String(L.retried);
  $('learn-text').textContent = L.text;
  // In a position put back: Skip; once answered: Next (Finish after the last).
  $('learn-next').hidden = L.phase === 'checking' || L.phase === 'done';
  $('learn-next').textContent = L.phase === 'ask' || L.phase === 'retry' ? 'Skip' : L.i + 1 < L.queue.length ? 'Next' : 'Finish';
  $('learn-solution').hidden = L.phase !== 'retry';
  $('learn-stop').textContent = L.phase === 'done' ? 'Close' : 'Stop';
}

export function wireLearn() {
  $('learn').onclick = startLearn;
  $('learn-next').onclick = next;
  $('learn-solution').onclick = solution;
  $('learn-stop').onclick = stop;
}
