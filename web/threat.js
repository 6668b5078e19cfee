// Threat mode (`x`, or the box in the analysis panel): what the side NOT to move threatens,
// as if the side to move passed. The server's analysis then searches the same board with the
// other side to move (capture compulsory there as always: when that side would have a
// capture, the threat is its best capture; with no legal move at all, there is no threat);
// its best move is drawn as a red arrow (`.arrow.threat`) with its score, and the panel's
// lines are the threat's lines.

import { ui, $, actions } from './state.js';
import { parseFen } from './board.js';
import { scoreText } from './score.js';

const NAME = { w: 'White', b: 'Black' };
const other = (side) => (side === 'w' ? 'b' : 'w');

// The side that threatens in the position shown.
export const threatSide = () => other(parseFen(ui.st.fens[ui.shown]).side);

// Threat mode on or off (`on` omitted: toggled). Analysis mode is turned on with it.
export function toggleThreat(on = !ui.threat) {
  ui.threat = on;
  $('threat-on').checked = on;
  if (!ui.st) return;
  if (ui.st.analysis) actions.analyse(true);
  else if (on) { $('analysis-on').checked = true; actions.analyse(true); }
  actions.render();
}

// The arrow for drawBoard: the threat's first move, red, with its score (White's view).
export function threatArrows(an) {
  const l = an.lines[0];
  if (!l || !l.pv.length) return [];
  const side = threatSide();
  const score = scoreText(l.score, side);
  return [[l.pv[0], 'threat', { 'data-move': l.pv[0], 'data-side': side === 'w' ? 'white' : 'black', 'data-score': score, label: score }]];
}

// #threat-text: the threat in words, while threat mode is on.
export function renderThreat(an) {
  const box = $('threat-text');
  const st = ui.st;
  $('threat-on').checked = !!ui.threat;
  if (!st || !st.analysis || !st.analysis.threat) { box.textContent = ''; return; }
  const side = threatSide();
  if (!an) { box.textContent = `Threat of ${NAME[side]}: looking…`; return; }
  const l = an.lines[0];
  if (!l || !l.pv.length) {
    box.textContent = an.done ? `No threat: ${NAME[side]} would have no move` : `Threat of ${NAME[side]}: looking…`;
    return;
  }
  box.textContent = `Threat of ${NAME[side]}: ${l.pv[0]} (${scoreText(l.score, side)}) — if ${NAME[other(side)]} passed`;
}
