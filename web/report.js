// The game review's report as the page keeps it (`ui.review`, filled by review.js): which
// main-line moves it reviewed and marked, and by whom they were played. Below review.js
// (which draws the report) and learn.js (which puts its marked moves back to the person).

import { ui } from './state.js';
import * as T from './tree.js';

// What each position is searched with: nodes, not time, so that a review is reproducible.
export const REVIEW_BUDGET = { nodes: 150000 };

export const MARK_NAME = { '?!': 'Inaccuracy', '?': 'Mistake', '??': 'Blunder' };

// The review of main-line ply `ply` (1 = the first move), if the report has it and the main
// line still holds the move reviewed.
export function reviewed(ply) {
  const rv = ui.review;
  if (!rv || !ui.tree || ply < 1) return null;
  const r = rv.moves[ply - 1];
  if (!r || r.ply !== ply || ui.tree.main[ply - 1] !== r.move) return null;
  for (let i = 0; i < ply - 1; i++) if (!rv.moves[i] || ui.tree.main[i] !== rv.moves[i].move) return null;
  return r;
}

// Who played ply `ply`.
export function sideOf(ply) {
  return T.numbering(ui.st.start_fen)(ply).white ? 'white' : 'black';
}

// The plies of the marked moves of `side` ('white', 'black' or null: both) with mark `mark`
// (null: any), in order.
export function markedPlies(side, mark) {
  const rv = ui.review;
  if (!rv) return [];
  return rv.moves.filter((r) => r.mark && (!mark || r.mark === mark) && reviewed(r.ply)
    && (!side || sideOf(r.ply) === side)).map((r) => r.ply);
}
