// The keyboard beyond the arrows that step through a line (app.js): ↑ and ↓ go to the
// previous and next alternative to the move shown (the same ply in another line that
// branches there, in the move list's order), space plays the engine's best move in analysis
// mode, `x` toggles threat mode (threat.js).

import { ui, actions } from './state.js';
import * as T from './tree.js';
import { toggleThreat } from './threat.js';

// The alternatives to the move shown: the lines (as far as that move) that play another
// move from the same position, the move shown among them, in the list's order.
export function alternatives() {
  const st = ui.st, tree = ui.tree, k = ui.shown;
  if (!st || !tree || k === 0) return [];
  const before = st.moves.slice(0, k - 1);
  const out = [];
  for (const e of T.flatten(tree)) {
    if (e.ply !== k) continue;
    const line = T.lineOf(tree, e.id);
    if (T.isPrefix(before, line) && !out.some((a) => a[k - 1] === line[k - 1])) out.push(line.slice(0, k));
  }
  return out;
}

function sibling(step) {
  if (!ui.st || ui.switching) return;
  const alts = alternatives();
  const i = alts.findIndex((a) => a[ui.shown - 1] === ui.st.moves[ui.shown - 1]);
  const j = i + step;
  if (i >= 0 && j >= 0 && j < alts.length) actions.goto(alts[j]);
}

// The engine's best move of the position shown, played as a click would play it.
function playBest() {
  const st = ui.st, an = ui.analysis;
  if (!st || !st.analysis || st.analysis.threat || !an || an.threat || an.ply !== ui.shown) return false;
  const best = an.lines[0];
  if (!best || !best.pv.length || ui.switching) return false;
  actions.play({ move: best.pv[0] });
  return true;
}

// Handles the keydown `e` if it is one of these keys; true if it did.
export function handleKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  switch (e.key) {
    case 'ArrowUp': sibling(-1); return true;
    case 'ArrowDown': sibling(1); return true;
    case ' ': playBest(); return !!(ui.st && ui.st.analysis);
    case 'x': toggleThreat(); return true;
    default: return false;
  }
}
