// Analysis mode's panel: the score (#an-score), the evaluation bar beside the board, and the
// engine's lines (#an-lines), whose moves play the line up to them as a variation.

import { ui, $, actions } from './state.js';
import { parseFen } from './board.js';
import * as T from './tree.js';
import { renderThreat } from './threat.js';
import { scoreText, whiteShare } from './score.js';

export function renderAnalysis() {
  const st = ui.st;
  const on = !!(st && st.analysis);
  $('analysis-panel').hidden = !on;
  const bar = $('eval-bar');
  bar.hidden = !on;
  // White's end of the bar is on White's side of the board.
  bar.dataset.whiteAt = ui.flipped ? 'top' : 'bottom';
  bar.title = `Evaluation (White at the ${bar.dataset.whiteAt} of the bar, as on the board)`;
  if (!on) return;
  // (an analysis of the other mode, on its way before the change, is not this one)
  const an = ui.analysis && ui.analysis.ply === ui.shown && !!ui.analysis.threat === !!st.analysis.threat ? ui.analysis : null;
  renderThreat(an);
  // Scores come from the mover's view: in threat mode, the side not to move.
  const mover = parseFen(st.fens[ui.shown]).side;
  const side = an && an.threat ? (mover === 'w' ? 'b' : 'w') : mover;
  const lines = $('an-lines');
  lines.replaceChildren();
  if (!an || !an.lines.length) {
    $('an-score').textContent = st.result && ui.shown === st.moves.length ? 'game over' : '…';
    $('an-depth').textContent = '';
    delete $('an-score').dataset.depth;
    $('evalfill').style.height = '50%';
    $('evaltext').textContent = '';
    return;
  }
  const best = an.lines[0];
  $('an-score').textContent = scoreText(best.score, side);
  $('an-score').dataset.depth = best.depth;
  // A forced win is no "depth 120" (the search's last depth, reached at once): it is proven.
  $('an-depth').textContent = (best.score.mate !== undefined ? 'forced win' : 'depth ' + best.depth) + (an.done ? ' (stopped)' : '');
  $('evalfill').style.height = (100 * whiteShare(best.score, side)).toFixed(1) + '%';
  // The bar's chip is narrow: one decimal there (the panel has two), `#3` for a win in 3.
  $('evaltext').textContent = best.score.mate !== undefined
    ? (scoreText(best.score, side).startsWith('White') ? '+#' : '−#') + Math.abs(best.score.mate)
    : best.score.decisive ? (scoreText(best.score, side).startsWith('White') ? '+−' : '−+')
      : scoreText(best.score, side).slice(0, -1);
  const number = T.numbering(st.start_fen);
  const before = st.moves.slice(0, an.ply);
  for (const l of an.lines) {
    const li = document.createElement('li');
    const score = document.createElement('span');
    score.className = 'pv-score';
    score.textContent = scoreText(l.score, side);
    li.appendChild(score);
    li.title = l.score.mate !== undefined ? `forced: ${scoreText(l.score, side)}` : `depth ${l.depth}`;
    l.pv.slice(0, 16).forEach((m, k) => {
      const ply = an.ply + k + 1;
      const { num, white } = number(ply);
      // (a threat's moves start with the other side's: no move numbers for them)
      if (!an.threat && (white || k === 0)) {
        const n = document.createElement('span');
        n.className = 'pv-num';
        n.textContent = white ? num + '.' : num + '…';
        li.append(' ', n);
      }
      const b = document.createElement('span');
      b.className = 'pv-move';
      b.textContent = m;
      b.dataset.move = m;
      b.dataset.ply = ply;
      if (an.threat) b.title = 'The threat: what the other side would play if this side passed';
      else {
        b.title = 'Play the line up to here as a variation';
        b.onclick = () => actions.goto([...before, ...l.pv.slice(0, k + 1)]);
      }
      li.append(' ', b);
    });
    lines.appendChild(li);
  }
}

